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

/**
 * A decompression bomb: a valid PNG of a few hundred KB that declares
 * `width`×`height` RGB pixels (all black), e.g. 5 × 9,999,999 in about 155 KB.
 */
export async function makePngBomb(width = 5, height = 9_999_999): Promise<Buffer> {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, no interlace
  const row = 1 + width * 3; // filter byte + pixels
  const deflate = createDeflate({ level: 9 });
  const compressed: Buffer[] = [];
  deflate.on("data", (chunk: Buffer) => compressed.push(chunk));
  const done = new Promise((resolve) => deflate.on("end", resolve));
  const rowsPerChunk = Math.max(1, Math.floor((1 << 20) / row));
  for (let y = 0; y < height; y += rowsPerChunk) {
    if (!deflate.write(Buffer.alloc(Math.min(rowsPerChunk, height - y) * row))) await new Promise((r) => deflate.once("drain", r));
  }
  deflate.end();
  await done;
  return Buffer.concat([PNG_SIGNATURE, pngChunk("IHDR", ihdr), pngChunk("IDAT", Buffer.concat(compressed)), pngChunk("IEND", Buffer.alloc(0))]);
}
