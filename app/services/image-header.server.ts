/**
 * The declared size of a JPEG or PNG, read from its header without decoding
 * a pixel, so an image too large to decode safely is refused before the
 * decoder allocates anything for it. Pure: bytes in, numbers out.
 */

export type ImageHeader = {
  type: "jpeg" | "png";
  width: number;
  height: number;
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
/** Samples per pixel as decoded, by colour type (a palette becomes RGB, or RGBA with transparency). */
const PNG_CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 4, 4: 2, 6: 4 };

/** The signature, then IHDR as the first chunk: length 13, width, height, bit depth, colour type, …, interlace. */
function readPng(bytes: Uint8Array): ImageHeader | null {
  if (bytes.length < 29 || !PNG_SIGNATURE.every((b, i) => bytes[i] === b)) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint32(8) !== 13 || String.fromCharCode(...bytes.subarray(12, 16)) !== "IHDR") return null;
  const [width, height] = [view.getUint32(16), view.getUint32(20)];
  const [bitDepth, channels, interlaced] = [bytes[24], PNG_CHANNELS[bytes[25]], bytes[28] !== 0];
  if (channels === undefined) return null;
  const wholeImageBytes = interlaced ? width * height * channels * (bitDepth === 16 ? 2 : 1) : 0;
  return { type: "png", width, height, wholeImageBytes };
}

const SOI = 0xd8;
const EOI = 0xd9;
const SOS = 0xda;
const TEM = 0x01;
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
    if (isStartOfFrame(marker)) {
      if (frame) return null;
      frame = readFrame(segment, isProgressive(marker));
      if (!frame) return null;
    } else if (marker === SOS) {
      if (!frame || segment.length < 1) return null;
      // A first scan without every component means more scans to merge: libjpeg then buffers the whole image too.
      const buffered = frame.progressive || segment[0] < frame.components.length;
      return { type: "jpeg", width: frame.width, height: frame.height, wholeImageBytes: buffered ? coefficientBytes(frame) : 0 };
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
