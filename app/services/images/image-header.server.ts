/**
 * The declared shape of a JPEG or PNG, read from its header without decoding
 * a pixel, so an image too costly to decode safely is refused before the
 * decoder allocates anything for it (image-cost.server.ts judges it). Pure:
 * bytes in, numbers out.
 */

export type ImageHeader = {
  type: "jpeg" | "png";
  width: number;
  height: number;
  /** Bits per sample as decoded: 8, or 16 for a 16-bit PNG (PNGs of 1, 2 or 4 bits are decoded to 8). */
  bitDepth: 8 | 16;
  /** Samples per pixel as decoded (a PNG palette becomes RGB, or RGBA with transparency). */
  channels: number;
  /** EXIF orientation 1–8 (JPEG APP1, PNG eXIf); 1 when there is none or it makes no sense. */
  orientation: number;
  /**
   * Bytes the decoder must hold for the whole image before it can hand on a
   * single row: the DCT coefficients of a progressive or multi-scan JPEG, the
   * pixels of an interlaced PNG. 0 when it decodes row by row.
   */
  wholeImageBytes: number;
};

/** Type, sizes and whole-image memory, or null for anything not a readable JPEG or PNG header (zero sides included). */
export function readImageHeader(bytes: Uint8Array): ImageHeader | null {
  const header = readPng(bytes) ?? readJpeg(bytes);
  return header && header.width > 0 && header.height > 0 ? header : null;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
/** Samples per pixel as decoded, by colour type (a palette counted as RGBA: it may have transparency). */
const PNG_CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 4, 4: 2, 6: 4 };

/** The signature, then IHDR as the first chunk: length 13, width, height, bit depth, colour type, …, interlace. */
function readPng(bytes: Uint8Array): ImageHeader | null {
  if (bytes.length < 29 || !PNG_SIGNATURE.every((b, i) => bytes[i] === b)) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint32(8) !== 13 || String.fromCharCode(...bytes.subarray(12, 16)) !== "IHDR") return null;
  const [width, height] = [view.getUint32(16), view.getUint32(20)];
  const [colourChannels, interlaced] = [PNG_CHANNELS[bytes[25]], bytes[28] !== 0];
  if (colourChannels === undefined) return null;
  const { orientation, transparency } = readPngChunks(bytes, view);
  // A tRNS chunk gives grey and RGB an alpha channel when decoded (a palette is counted with one already).
  const channels = transparency && (bytes[25] === 0 || bytes[25] === 2) ? colourChannels + 1 : colourChannels;
  const bitDepth = bytes[24] === 16 ? 16 : 8;
  const wholeImageBytes = interlaced ? width * height * channels * (bitDepth / 8) : 0;
  return { type: "png", width, height, bitDepth, channels, orientation, wholeImageBytes };
}

/**
 * The chunks after IHDR that change what decoding costs, chunk by chunk,
 * each step forward by the chunk's length, so the walk is bounded by the
 * file: the orientation in an eXIf chunk before the image data (where
 * libvips reads it; one after IDAT it ignores, and so do we), and whether a
 * tRNS chunk is there at all (looked for in the whole file, to err on the
 * costly side).
 */
function readPngChunks(bytes: Uint8Array, view: DataView): { orientation: number; transparency: boolean } {
  let orientation = 1;
  let transparency = false;
  let beforeImageData = true;
  for (let pos = 33; pos + 12 <= bytes.length; ) {
    const length = view.getUint32(pos);
    const type = String.fromCharCode(...bytes.subarray(pos + 4, pos + 8));
    if (pos + 12 + length > bytes.length) break;
    if (type === "IDAT") beforeImageData = false;
    else if (type === "tRNS") transparency = true;
    else if (type === "eXIf" && beforeImageData) orientation = tiffOrientation(bytes.subarray(pos + 8, pos + 8 + length));
    pos += 12 + length;
  }
  return { orientation, transparency };
}

/** The Orientation tag (0x0112) of a TIFF structure's first IFD, as EXIF stores it; 1 when absent or out of range. */
function tiffOrientation(tiff: Uint8Array): number {
  if (tiff.length < 8) return 1;
  const view = new DataView(tiff.buffer, tiff.byteOffset, tiff.byteLength);
  const little = tiff[0] === 0x49 && tiff[1] === 0x49;
  if (!little && !(tiff[0] === 0x4d && tiff[1] === 0x4d)) return 1;
  const ifd = view.getUint32(4, little);
  if (ifd + 2 > tiff.length) return 1;
  const entries = view.getUint16(ifd, little);
  for (let i = 0; i < entries; i++) {
    const entry = ifd + 2 + 12 * i;
    if (entry + 12 > tiff.length) return 1;
    if (view.getUint16(entry, little) !== 0x0112) continue;
    const value = view.getUint16(entry + 8, little);
    return value >= 1 && value <= 8 ? value : 1;
  }
  return 1;
}

const SOI = 0xd8;
const EOI = 0xd9;
const SOS = 0xda;
const TEM = 0x01;
const APP1 = 0xe1;
/** "Exif\0\0": an APP1 segment holding EXIF (a TIFF structure) rather than XMP. */
const EXIF_ID = [0x45, 0x78, 0x69, 0x66, 0x00, 0x00];
/** libjpeg keeps each 8×8 block of coefficients as 64 16-bit numbers. */
const BLOCK_BYTES = 128;

/** Frame headers: SOF0–SOF15 except DHT (C4), JPG (C8) and DAC (CC), which share the range. */
function isStartOfFrame(marker: number) {
  return marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
}

/** SOF2, SOF6, SOF10, SOF14. */
function isProgressive(marker: number) {
  return (marker & 0x03) === 0x02;
}

/** Markers without a length field: TEM, RST0–RST7 and SOI. */
function isStandalone(marker: number) {
  return marker === TEM || (marker >= 0xd0 && marker <= SOI);
}

type Frame = { width: number; height: number; progressive: boolean; components: { h: number; v: number }[] };

/**
 * Walk the marker segments after SOI to the frame header (SOFn) and on to
 * the first scan header (SOS), which tells whether the scans are interleaved.
 * Every step moves forward and every read is checked against the end of the
 * buffer, so the walk ends within bytes.length steps whatever the input.
 */
function readJpeg(bytes: Uint8Array): ImageHeader | null {
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== SOI) return null;
  let frame: Frame | null = null;
  let orientation = 1;
  let pos = 2;
  while (pos < bytes.length) {
    if (bytes[pos] !== 0xff) return null;
    // Any number of 0xFF fill bytes may precede a marker.
    while (pos < bytes.length && bytes[pos] === 0xff) pos++;
    if (pos >= bytes.length) return null;
    const marker = bytes[pos++];
    if (isStandalone(marker)) continue;
    // 0x00 (a stuffed byte) or EOI before the first scan: not an image.
    if (marker === 0x00 || marker === EOI) return null;
    if (pos + 2 > bytes.length) return null;
    const length = (bytes[pos] << 8) | bytes[pos + 1];
    if (length < 2 || pos + length > bytes.length) return null;
    const segment = bytes.subarray(pos + 2, pos + length);
    if (marker === APP1 && orientation === 1 && EXIF_ID.every((b, i) => segment[i] === b)) {
      orientation = tiffOrientation(segment.subarray(EXIF_ID.length));
    } else if (isStartOfFrame(marker)) {
      if (frame) return null;
      frame = readFrame(segment, isProgressive(marker));
      if (!frame) return null;
    } else if (marker === SOS) {
      if (!frame || segment.length < 1) return null;
      // A first scan without every component means more scans to merge: libjpeg then buffers the whole image too.
      const buffered = frame.progressive || segment[0] < frame.components.length;
      const { width, height, components } = frame;
      return { type: "jpeg", width, height, bitDepth: 8, channels: components.length, orientation, wholeImageBytes: buffered ? coefficientBytes(frame) : 0 };
    }
    pos += length;
  }
  return null;
}

/** SOFn payload: precision, height, width (2 bytes each), component count, then 3 bytes per component with its sampling factors. */
function readFrame(segment: Uint8Array, progressive: boolean): Frame | null {
  if (segment.length < 6) return null;
  const count = segment[5];
  if (count === 0 || segment.length < 6 + 3 * count) return null;
  const components = [];
  for (let i = 0; i < count; i++) {
    const sampling = segment[7 + 3 * i];
    const [h, v] = [sampling >> 4, sampling & 0x0f];
    if (h < 1 || h > 4 || v < 1 || v > 4) return null;
    components.push({ h, v });
  }
  const height = (segment[1] << 8) | segment[2];
  const width = (segment[3] << 8) | segment[4];
  return { width, height, progressive, components };
}

/** The coefficient buffer libjpeg allocates for a buffered image (jdinput.c, jdcoefct.c). */
function coefficientBytes({ width, height, components }: Frame): number {
  const maxH = Math.max(...components.map((c) => c.h));
  const maxV = Math.max(...components.map((c) => c.v));
  const roundUp = (n: number, multiple: number) => Math.ceil(n / multiple) * multiple;
  const blocks = components.reduce((sum, { h, v }) => {
    const across = roundUp(Math.ceil((width * h) / (maxH * 8)), h);
    const down = roundUp(Math.ceil((height * v) / (maxV * 8)), v);
    return sum + across * down;
  }, 0);
  return blocks * BLOCK_BYTES;
}
