import sharp from "sharp";
import { createDeflate } from "node:zlib";
import { PNG_SIGNATURE, pngChunk } from "./png";

/** A real photo-like JPEG or PNG made on the spot, `width`×`height`. */
export async function makeImage(format: "jpeg" | "png", width = 640, height = 400): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#c8a15a"/><stop offset="1" stop-color="#3b2a1e"/></linearGradient></defs>
    <rect width="100%" height="100%" fill="url(#g)"/><circle cx="${width / 3}" cy="${height / 2}" r="${height / 4}" fill="#efe6d6"/></svg>`;
  const image = sharp(Buffer.from(svg));
  return format === "jpeg" ? image.jpeg({ quality: 80 }).toBuffer() : image.png().toBuffer();
}

/** The same image grown to exactly `size` bytes with junk after its end (decoders ignore it). */
export function padTo(image: Buffer, size: number): Buffer {
  return Buffer.concat([image, Buffer.alloc(size - image.length, 0x41)]);
}

/** Samples per pixel of each PNG colour type (grey, RGB, palette, grey + alpha, RGBA). */
const PNG_SAMPLES: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

/** Bytes of the filtered rows of each pass: the whole image, or Adam7's seven passes (each row with its filter byte). */
function pngRows(width: number, height: number, bitsPerPixel: number, interlaced: boolean): number[] {
  const passes = interlaced
    ? [[0, 0, 8, 8], [4, 0, 8, 8], [0, 4, 4, 8], [2, 0, 4, 4], [0, 2, 2, 4], [1, 0, 2, 2], [0, 1, 1, 2]]
    : [[0, 0, 1, 1]];
  return passes.flatMap(([x0, y0, dx, dy]) => {
    const [across, down] = [Math.ceil((width - x0) / dx), Math.ceil((height - y0) / dy)];
    return across > 0 && down > 0 ? new Array<number>(down).fill(1 + Math.ceil((across * bitsPerPixel) / 8)) : [];
  });
}

/** A PNG eXIf chunk's payload: a big-endian TIFF header and one IFD holding only the orientation (1–8). */
function exifOrientation(orientation: number): Buffer {
  const exif = Buffer.alloc(26);
  exif.write("MM\0*", 0, "latin1");
  exif.writeUInt32BE(8, 4); // the IFD follows the header
  exif.writeUInt16BE(1, 8); // one entry
  exif.writeUInt16BE(0x0112, 10); // Orientation
  exif.writeUInt16BE(3, 12); // SHORT
  exif.writeUInt32BE(1, 14);
  exif.writeUInt16BE(orientation, 18);
  return exif; // the next-IFD offset (0) ends it
}

export type PngShape = {
  width: number;
  height: number;
  /** 1, 2, 4, 8 or 16 (palettes: up to 8). */
  bitDepth?: number;
  /** 0 grey, 2 RGB, 3 palette, 4 grey + alpha, 6 RGBA. */
  colourType?: number;
  interlaced?: boolean;
  /** A tRNS chunk for grey or RGB (one value transparent): decoded with an alpha channel. Palettes always get one. */
  transparent?: boolean;
  /** EXIF orientation (an eXIf chunk), 1–8; none unless told. */
  orientation?: number;
};

/**
 * A valid PNG of any declared shape whose pixels are all zero (black, or
 * transparent): the smallest file for its pixels, so the most work and
 * memory a file under 2 MB can ask of the decoder, made without holding the
 * pixels (streamed through deflate). E.g. 5 × 9,999,999 RGB in about 155 KB.
 */
export async function makePng({ width, height, bitDepth = 8, colourType = 2, interlaced = false, transparent = false, orientation }: PngShape): Promise<Buffer> {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([bitDepth, colourType, 0, 0, interlaced ? 1 : 0], 8);
  const rows = pngRows(width, height, PNG_SAMPLES[colourType] * bitDepth, interlaced);
  const deflate = createDeflate({ level: 9 });
  const compressed: Buffer[] = [];
  deflate.on("data", (chunk: Buffer) => compressed.push(chunk));
  const done = new Promise((resolve) => deflate.on("end", resolve));
  // Zero rows (filter 0, black pixels), about 1 MB per write.
  let pending = 0;
  const flush = async () => {
    if (pending > 0 && !deflate.write(Buffer.alloc(pending))) await new Promise((r) => deflate.once("drain", r));
    pending = 0;
  };
  for (const row of rows) {
    pending += row;
    if (pending >= 1 << 20) await flush();
  }
  await flush();
  deflate.end();
  await done;
  return Buffer.concat([
    PNG_SIGNATURE,
    pngChunk("IHDR", ihdr),
    ...(colourType === 3 ? [pngChunk("PLTE", Buffer.from([0, 0, 0, 255, 255, 255])), pngChunk("tRNS", Buffer.from([0, 255]))] : []),
    ...(transparent && colourType !== 3 ? [pngChunk("tRNS", Buffer.alloc(colourType === 2 ? 6 : 2, 1))] : []),
    ...(orientation ? [pngChunk("eXIf", exifOrientation(orientation))] : []),
    pngChunk("IDAT", Buffer.concat(compressed)),
    pngChunk("IEND", Buffer.alloc(0)),
  ]);
}

/** A decompression bomb: a valid PNG of a few hundred KB that declares `width`×`height` RGB pixels (all black). */
export function makePngBomb(width = 5, height = 9_999_999): Promise<Buffer> {
  return makePng({ width, height });
}
