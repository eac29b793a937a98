import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { IMAGE_MAX_PIXELS, IMAGE_MAX_SIDE, imageSizeProblem, POST_MESSAGES } from "~/lib/rules";
import { readImageHeader } from "~/services/images/image-header.server";
import { makePng } from "../../../scripts/lib/images";
import { jpegHeader, jpegSegment, pngHeader } from "../../support/image-bytes";

const photo = () => sharp({ create: { width: 123, height: 45, channels: 3, background: "#8f8868" } });

describe("readImageHeader on images made by sharp", () => {
  it("reads a PNG", async () => {
    const png = await photo().png().toBuffer();
    expect(readImageHeader(png)).toMatchObject({ type: "png", width: 123, height: 45, wholeImageBytes: 0 });
  });

  it("counts the pixels an interlaced PNG is decoded into", async () => {
    const png = await photo().png({ progressive: true }).toBuffer();
    expect(readImageHeader(png)).toMatchObject({ type: "png", width: 123, height: 45, wholeImageBytes: 123 * 45 * 3 });
  });

  it("reads a baseline JPEG", async () => {
    const jpeg = await photo().jpeg().toBuffer();
    expect(readImageHeader(jpeg)).toMatchObject({ type: "jpeg", width: 123, height: 45, wholeImageBytes: 0 });
  });

  it("reads a progressive JPEG and counts its coefficient buffer", async () => {
    const jpeg = await photo().jpeg({ progressive: true }).toBuffer();
    expect(readImageHeader(jpeg)).toMatchObject({ type: "jpeg", width: 123, height: 45 });
    expect(readImageHeader(jpeg)!.wholeImageBytes).toBeGreaterThan(0);
  });

  it("walks past EXIF and ICC segments to the frame header, and reads the sides as declared, not as rotated", async () => {
    const jpeg = await photo().jpeg().withMetadata({ orientation: 6 }).withIccProfile("srgb").toBuffer();
    expect(jpeg.indexOf("Exif\0\0")).toBeGreaterThan(0);
    expect(jpeg.indexOf("ICC_PROFILE")).toBeGreaterThan(0);
    expect(readImageHeader(jpeg)).toEqual({ type: "jpeg", width: 123, height: 45, bitDepth: 8, channels: 3, orientation: 6, wholeImageBytes: 0 });
  });
});

describe("readImageHeader: what decoding will cost", () => {
  it.each([
    [0, 8, 1],
    [0, 16, 1],
    [2, 16, 3],
    [3, 8, 4],
    [4, 16, 2],
    [6, 16, 4],
  ])("a PNG of colour type %i, %i bits: %i samples a pixel as decoded", (colourType, bitDepth, channels) => {
    expect(readImageHeader(pngHeader(10_000, 4_000, { colourType, bitDepth }))).toMatchObject({ bitDepth: bitDepth === 16 ? 16 : 8, channels, orientation: 1 });
  });

  it.each([
    [0, 2],
    [2, 4],
  ])("counts a tRNS chunk as the alpha channel it decodes to: colour type %i, %i samples, as libvips decodes it", async (colourType, channels) => {
    const png = await makePng({ width: 30, height: 20, bitDepth: 16, colourType, interlaced: true, transparent: true });
    expect(readImageHeader(png)).toMatchObject({ channels, wholeImageBytes: 30 * 20 * channels * 2 });
    expect((await sharp(png).metadata()).channels).toBe(channels);
  });

  it("counts an interlaced 16-bit RGBA PNG at 8 bytes a pixel", () => {
    expect(readImageHeader(pngHeader(1_000, 600, { colourType: 6, bitDepth: 16, interlaced: true }))?.wholeImageBytes).toBe(1_000 * 600 * 8);
  });

  it.each([1, 2, 3, 4, 5, 6, 7, 8])("reads EXIF orientation %i from a PNG's eXIf chunk before the image data, as libvips does", async (orientation) => {
    const before = await makePng({ width: 30, height: 20, orientation });
    expect(readImageHeader(before)?.orientation).toBe(orientation);
    expect(await sharp(before).metadata()).toMatchObject({ orientation });
    // After IDAT libvips ignores it, and so must the header (the decoder turns the image by what the header says).
    const at = before.indexOf("eXIf") - 4;
    const chunk = before.subarray(at, at + 12 + before.readUInt32BE(at));
    const iend = before.length - 12;
    const after = Buffer.concat([before.subarray(0, at), before.subarray(at + chunk.length, iend), chunk, before.subarray(iend)]);
    expect(after.indexOf("eXIf")).toBeGreaterThan(after.indexOf("IDAT"));
    expect(readImageHeader(after)?.orientation).toBe(1);
    expect((await sharp(after).metadata()).orientation).toBeUndefined();
  });

  it("reads a little-endian EXIF orientation in a JPEG and ignores values out of range", () => {
    const exif = (value: number) => Buffer.from([...Buffer.from("Exif\0\0II*\0", "latin1"), 8, 0, 0, 0, 1, 0, 0x12, 0x01, 3, 0, 1, 0, 0, 0, value, 0, 0, 0, 0, 0, 0, 0]);
    expect(readImageHeader(jpegHeader(100, 50, { before: [jpegSegment(0xe1, exif(7))] }))?.orientation).toBe(7);
    expect(readImageHeader(jpegHeader(100, 50, { before: [jpegSegment(0xe1, exif(9))] }))?.orientation).toBe(1);
    expect(readImageHeader(jpegHeader(100, 50, { before: [jpegSegment(0xe1, exif(0).subarray(0, 12))] }))?.orientation).toBe(1);
  });
});

describe("readImageHeader on hand-made headers", () => {
  it.each([
    [5, 9_999_999],
    [10_001, 10],
    [7_000, 7_000],
    [65_535, 65_535],
  ])("reads the declared %i × %i of a PNG and of a JPEG", (width, height) => {
    expect(readImageHeader(pngHeader(width, height))).toMatchObject({ type: "png", width, height, wholeImageBytes: 0 });
    if (height <= 0xffff) expect(readImageHeader(jpegHeader(width, height))).toMatchObject({ type: "jpeg", width, height, wholeImageBytes: 0 });
  });

  it("reads PNG sides as unsigned 32-bit numbers", () => {
    expect(readImageHeader(pngHeader(0xffffffff, 1))?.width).toBe(0xffffffff);
  });

  it("skips fill bytes, standalone markers and other segments before the frame header", () => {
    const before = [
      Buffer.from([0xff, 0xff, 0xff]),
      Buffer.from([0xff, 0x01, 0xff, 0xd0, 0xff, 0xd7]),
      jpegSegment(0xe0, Buffer.from("JFIF\0")),
      jpegSegment(0xe1, Buffer.alloc(1000, 0xc0)), // looks like SOF0 inside, but is skipped by its length
      jpegSegment(0xc4, [0, ...new Array<number>(16).fill(0)]), // DHT: in the SOF range, but no frame
      jpegSegment(0xcc, [0, 0]), // DAC
      jpegSegment(0xfe, Buffer.from("comment")),
    ];
    expect(readImageHeader(jpegHeader(640, 480, { before }))).toMatchObject({ type: "jpeg", width: 640, height: 480, wholeImageBytes: 0 });
  });

  it.each([0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf].map((sof) => [sof.toString(16), sof]))("reads the sides from frame header 0x%s", (_, sof) => {
    expect(readImageHeader(jpegHeader(321, 123, { sof }))).toMatchObject({ width: 321, height: 123 });
  });

  it("counts libjpeg's coefficient buffer for progressive frames and a first scan without every component", () => {
    // 123 × 45 at 4:2:0: luma 16 × 6 blocks, each chroma 8 × 3; 128 bytes a block.
    const blocks = 16 * 6 + 2 * 8 * 3;
    for (const sof of [0xc2, 0xc6, 0xca, 0xce]) expect(readImageHeader(jpegHeader(123, 45, { sof }))?.wholeImageBytes).toBe(blocks * 128);
    expect(readImageHeader(jpegHeader(123, 45, { scanComponents: 1 }))?.wholeImageBytes).toBe(blocks * 128);
    expect(readImageHeader(jpegHeader(123, 45, { sof: 0xc1 }))?.wholeImageBytes).toBe(0);
    // A grey 8000 × 5000 progressive JPEG: 1000 × 625 blocks.
    expect(readImageHeader(jpegHeader(8000, 5000, { sof: 0xc2, components: [[1, 1]] }))?.wholeImageBytes).toBe(1000 * 625 * 128);
  });

  it("counts an interlaced PNG's pixels by colour type and bit depth", () => {
    const bytes = (colourType: number, bitDepth = 8) => readImageHeader(pngHeader(100, 10, { colourType, bitDepth, interlaced: true }))?.wholeImageBytes;
    expect([bytes(0), bytes(2), bytes(3), bytes(4), bytes(6), bytes(6, 16)]).toEqual([1000, 3000, 4000, 2000, 4000, 8000]);
  });
});

describe("readImageHeader refuses what is not a readable header", () => {
  const png = pngHeader(640, 480);
  const jpeg = jpegHeader(640, 480);

  it.each([
    ["nothing", Buffer.alloc(0)],
    ["text", Buffer.from("<svg xmlns='http://www.w3.org/2000/svg'/>")],
    ["a GIF", Buffer.from("GIF89a\x01\x00\x01\x00\x00\x00\x00", "latin1")],
    ["a PNG signature alone", png.subarray(0, 8)],
    ["a PNG whose first chunk is not IHDR", Buffer.concat([png.subarray(0, 12), Buffer.from("tEXt"), png.subarray(16)])],
    ["a PNG whose IHDR is not 13 bytes", Buffer.concat([png.subarray(0, 11), Buffer.from([12]), png.subarray(12)])],
    ["a PNG with an unknown colour type", pngHeader(640, 480, { colourType: 5 })],
    ["a PNG 0 px wide", pngHeader(0, 480)],
    ["a PNG 0 px tall", pngHeader(640, 0)],
    ["a JPEG 0 px wide", jpegHeader(0, 480)],
    ["a JPEG 0 px tall (height from a DNL marker)", jpegHeader(640, 0)],
    ["SOI alone", Buffer.from([0xff, 0xd8])],
    ["SOI and fill bytes", Buffer.from([0xff, 0xd8, 0xff, 0xff, 0xff])],
    ["EOI before the frame", Buffer.from([0xff, 0xd8, 0xff, 0xd9, ...jpeg.subarray(2)])],
    ["a scan before the frame", Buffer.concat([Buffer.from([0xff, 0xd8]), jpegSegment(0xda, [1, 1, 0, 0, 63, 0]), jpeg.subarray(2)])],
    ["a stuffed zero as a marker", Buffer.from([0xff, 0xd8, 0xff, 0x00, ...jpeg.subarray(2)])],
    ["a byte other than 0xFF where a marker belongs", Buffer.from([0xff, 0xd8, 0x12, ...jpeg.subarray(2)])],
    ["a segment length under 2", Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x01, ...jpeg.subarray(2)])],
    ["a segment longer than the file", Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0xff, 0xff, ...jpeg.subarray(2)])],
    ["a frame header too short for its sides", Buffer.concat([Buffer.from([0xff, 0xd8]), jpegSegment(0xc0, [8, 1, 0, 1])])],
    ["a frame header without components", Buffer.concat([Buffer.from([0xff, 0xd8]), jpegSegment(0xc0, [8, 1, 0, 1, 0, 0]), jpeg.subarray(-10)])],
    ["a sampling factor of 0", jpegHeader(640, 480, { components: [[0, 1]] })],
    ["a frame without a scan", jpeg.subarray(0, jpeg.indexOf(Buffer.from([0xff, 0xda])))],
    ["two frame headers", Buffer.concat([jpeg.subarray(0, jpeg.indexOf(Buffer.from([0xff, 0xda]))), jpeg.subarray(2)])],
  ])("%s", (_, bytes) => {
    expect(readImageHeader(bytes)).toBeNull();
  });

  it("every truncation of a header, never reading past the end", () => {
    for (const whole of [png, jpeg]) {
      const needed = whole === png ? 29 : whole.length;
      for (let length = 0; length < needed; length++) {
        // A copy of just these bytes: a read past the end would find undefined, not the rest of the header.
        expect(readImageHeader(Uint8Array.from(whole.subarray(0, length))), `${length} bytes`).toBeNull();
      }
    }
  });

  it("random bytes after SOI: an answer every time, at once", () => {
    let seed = 42;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) % 256;
    for (let i = 0; i < 2_000; i++) {
      // Mostly 0xFF and marker-like bytes, so the walk goes deep.
      const bytes = Uint8Array.from({ length: 2 + (i % 300) }, (_, j) => (j < 2 ? [0xff, 0xd8][j] : random() < 100 ? 0xff : random()));
      const header = readImageHeader(bytes);
      if (header) expect(header.width * header.height).toBeGreaterThan(0);
    }
  });
});

describe("imageSizeProblem", () => {
  const size = (width: number, height: number, wholeImageBytes = 0) => imageSizeProblem({ width, height, wholeImageBytes });

  it("accepts up to 10,000 px a side and 40 megapixels", () => {
    expect(IMAGE_MAX_SIDE).toBe(10_000);
    expect(IMAGE_MAX_PIXELS).toBe(40_000_000);
    expect(size(10_000, 100)).toBeNull();
    expect(size(100, 10_000)).toBeNull();
    expect(size(10_000, 4_000)).toBeNull();
    expect(size(8_000, 5_000)).toBeNull();
  });

  it.each([
    [5, 9_999_999],
    [10_001, 10],
    [10, 10_001],
    [7_000, 7_000],
    [10_000, 4_001],
  ])("refuses %i × %i", (width, height) => {
    expect(size(width, height)).toBe(POST_MESSAGES.imageTooLarge);
  });

  it("refuses what the decoder would have to hold whole beyond its budget", () => {
    const over = readImageHeader(jpegHeader(6_000, 4_000, { sof: 0xc2 }))!; // 24 MP at 4:2:0: 72 MB of coefficients
    expect(imageSizeProblem(over)).toBe(POST_MESSAGES.imageTooLargeWhole);
    expect(imageSizeProblem(readImageHeader(jpegHeader(4_200, 3_150, { sof: 0xc2 }))!)).toBeNull();
    expect(imageSizeProblem(readImageHeader(jpegHeader(6_000, 4_000))!)).toBeNull();
    expect(size(7_000, 7_000, 1)).toBe(POST_MESSAGES.imageTooLarge);
  });

  it("says the limits in the message", () => {
    expect(POST_MESSAGES.imageTooLarge).toBe("Obrázok je príliš veľký: najviac 10\u00a0000 px na stranu a 40 megapixelov.");
  });
});
