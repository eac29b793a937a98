import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { readImageHeader } from "~/services/images/image-header.server";
import { decodeImage } from "~/services/images/image-encoding.server";

/** An asymmetric picture (a dark corner top left, a bar along the top, a dot right of centre), `width`×`height`. */
function picture(width: number, height: number) {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <rect width="100%" height="100%" fill="#d9c8a0"/><rect width="${width / 3}" height="${height / 4}" fill="#201810"/>
    <rect y="${height / 8}" width="${width}" height="${height / 20}" fill="#a03020"/><circle cx="${width * 0.7}" cy="${height / 2}" r="${height / 6}" fill="#3050a0"/></svg>`;
  return sharp(Buffer.from(svg));
}

/** What the decoder made before: libvips oriented the image by its EXIF, then shrank it to 1200 px wide. */
function before(input: Buffer) {
  return sharp(input).rotate().resize({ width: 1200, withoutEnlargement: true }).raw().toBuffer({ resolveWithObject: true });
}

/** Mean difference per sample of two raw images of the same sides. */
function meanDifference(a: Buffer, b: Buffer): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs(a[i] - b[i]);
  return sum / a.length;
}

describe("decodeImage turns the image by its EXIF orientation after shrinking it", () => {
  it.each([1, 2, 3, 4, 5, 6, 7, 8])("orientation %i: the same pixels as before (PNG eXIf, no shrink)", async (orientation) => {
    const input = await picture(300, 200).withMetadata({ orientation }).png().toBuffer();
    expect(readImageHeader(input)?.orientation).toBe(orientation);
    const [old, now] = await Promise.all([before(input), decodeImage(input)]);
    expect([now.info.width, now.info.height, now.info.channels]).toEqual([old.info.width, old.info.height, old.info.channels]);
    expect(now.data.equals(old.data)).toBe(true);
  });

  it.each([1, 2, 3, 4, 5, 6, 7, 8])("orientation %i: the same picture as before (JPEG APP1, shrunk)", async (orientation) => {
    const input = await picture(3000, 1800).withMetadata({ orientation }).jpeg().toBuffer();
    expect(readImageHeader(input)?.orientation).toBe(orientation);
    const [old, now] = await Promise.all([before(input), decodeImage(input)]);
    expect([now.info.width, now.info.height, now.info.channels]).toEqual([old.info.width, old.info.height, old.info.channels]);
    expect(meanDifference(now.data, old.data)).toBeLessThan(1.5);
  });
});
