/** Hand-made image headers: the bytes a header reader looks at, with nothing to decode after them. */
import { PNG_SIGNATURE, pngChunk } from "../../scripts/lib/png";

type PngOptions = { colourType?: number; bitDepth?: number; interlaced?: boolean };

/** The signature and IHDR only: what the header reader needs, nothing a decoder could use. */
export function pngHeader(width: number, height: number, { colourType = 2, bitDepth = 8, interlaced = false }: PngOptions = {}): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = bitDepth;
  ihdr[9] = colourType;
  ihdr[12] = interlaced ? 1 : 0;
  return Buffer.concat([PNG_SIGNATURE, pngChunk("IHDR", ihdr)]);
}

/** A JPEG marker segment: 0xFF, the marker, a length that counts itself, the payload. */
export function jpegSegment(marker: number, payload: number[] | Uint8Array): Buffer {
  const length = Buffer.alloc(2);
  length.writeUInt16BE(payload.length + 2);
  return Buffer.concat([Buffer.from([0xff, marker]), length, Buffer.from(payload)]);
}

type JpegOptions = {
  /** The frame marker: 0xC0 baseline, 0xC2 progressive, … */
  sof?: number;
  /** Sampling factors [h, v] of each component; 4:2:0 YCbCr unless told. */
  components?: [number, number][];
  /** Components in the first scan; all of them unless told. */
  scanComponents?: number;
  /** Bytes between SOI and the frame header (APPn segments, fill bytes, standalone markers). */
  before?: Buffer[];
};

/** SOI, `before`, a DQT, the frame header and the first scan header: a JPEG header without image data. */
export function jpegHeader(width: number, height: number, { sof = 0xc0, components = [[2, 2], [1, 1], [1, 1]], scanComponents, before = [] }: JpegOptions = {}): Buffer {
  const frame = [8, height >> 8, height & 0xff, width >> 8, width & 0xff, components.length];
  components.forEach(([h, v], i) => frame.push(i + 1, (h << 4) | v, 0));
  const scanned = components.slice(0, scanComponents ?? components.length);
  const scan = [scanned.length, ...scanned.flatMap((_, i) => [i + 1, 0]), 0, 63, 0];
  return Buffer.concat([
    Buffer.from([0xff, 0xd8]),
    ...before,
    jpegSegment(0xdb, [0, ...new Array<number>(64).fill(1)]),
    jpegSegment(sof, frame),
    jpegSegment(0xda, scan),
  ]);
}
