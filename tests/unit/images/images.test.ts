import { randomUUID } from "node:crypto";
import { readdir, rm } from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { BUSY_MESSAGE, MESSAGES, POST_MESSAGES, QUOTAS } from "~/lib/rules";
import { THUMBNAIL_SIZE } from "~/lib/images";
import { env } from "~/config/env.server";
import { addMissingThumbnails } from "~/services/images/images.server";
import { acceptImage } from "~/services/articles/posts.server";
import { makeImage, makePngBomb } from "../../../scripts/lib/images";
import { jpegHeader, pngHeader } from "../../support/image-bytes";

/** Files in UPLOADS_DIR (a temporary folder for the unit tests). */
async function uploads(): Promise<string[]> {
  return readdir(env.uploadsDir).catch(() => []);
}

/** acceptImage's answer when it refuses. */
const refused = (error: string, status: number) => ({ ok: false, status, error, invalid: ["image"] });

/** A new author each time, so the upload quota of one does not matter here. */
const author = () => randomUUID();

/** What acceptImage leaves in UPLOADS_DIR, and its answer. */
async function accept(bytes: Uint8Array) {
  const before = new Set(await uploads());
  const result = await acceptImage(author(), bytes);
  const added = (await uploads()).filter((name) => !before.has(name));
  return { result, added };
}

describe("acceptImage refuses before decoding", () => {
  it("a 155 KB PNG declaring 5 × 9,999,999 px, at once, leaving no file", async () => {
    const bomb = await makePngBomb(5, 9_999_999);
    expect(bomb.length).toBeLessThan(200_000);
    const started = performance.now();
    const { result, added } = await accept(bomb);
    expect(performance.now() - started).toBeLessThan(250);
    expect(result).toEqual(refused(POST_MESSAGES.imageTooLarge, 400));
    expect(added).toEqual([]);
  });

  it.each([
    ["a PNG 10,001 px wide", pngHeader(10_001, 10)],
    ["a PNG of 49 megapixels", pngHeader(7_000, 7_000)],
    ["a JPEG 10,001 px tall", jpegHeader(10, 10_001)],
  ])("%s", async (_, bytes) => {
    expect(await accept(bytes)).toEqual({ result: refused(POST_MESSAGES.imageTooLarge, 400), added: [] });
  });

  it("a progressive JPEG too big to hold whole", async () => {
    expect(await accept(jpegHeader(8_000, 5_000, { sof: 0xc2 }))).toEqual({ result: refused(POST_MESSAGES.imageTooLargeWhole, 400), added: [] });
  });

  it.each([
    ["a header that cannot be read", Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00])],
    ["a PNG 0 px wide", pngHeader(0, 10)],
    ["a readable header with nothing decodable after it", pngHeader(100, 100)],
  ])("%s as not an image", async (_, bytes) => {
    expect(await accept(bytes)).toEqual({ result: refused(MESSAGES.imageType, 400), added: [] });
  });
});

describe("acceptImage stores", () => {
  it("an image exactly at the side limit, as its eight variants", async () => {
    const png = await makeImage("png", 10_000, 100);
    const { result, added } = await accept(png);
    expect(result).toMatchObject({ ok: true, image: { width: 1200, height: 12 } });
    const key = (result as { image: { key: string } }).image.key;
    expect(added.sort()).toEqual(
      ["1200.jpg", "1200.webp", "400.jpg", "400.webp", "800.jpg", "800.webp", "thumb.jpg", "thumb.webp"].map((suffix) => `${key}-${suffix}`),
    );
    // The thumbnail is the middle of the image, square.
    for (const format of ["jpg", "webp"]) {
      expect(await sharp(path.join(env.uploadsDir, `${key}-thumb.${format}`)).metadata()).toMatchObject({ width: THUMBNAIL_SIZE, height: THUMBNAIL_SIZE });
    }
  });

  it("gives an image stored before thumbnails existed its thumbnail, once", async () => {
    const { result } = await accept(await makeImage("jpeg", 1600, 1000));
    const key = (result as { image: { key: string } }).image.key;
    const thumbnails = ["jpg", "webp"].map((format) => path.join(env.uploadsDir, `${key}-thumb.${format}`));
    await Promise.all(thumbnails.map((file) => rm(file)));
    // An image whose files are gone altogether is skipped, not an error.
    expect(await addMissingThumbnails([key, "AAAAAAAAAAAAAAAA"])).toEqual({ made: 1, failed: 0 });
    for (const file of thumbnails) expect(await sharp(file).metadata()).toMatchObject({ width: THUMBNAIL_SIZE, height: THUMBNAIL_SIZE });
    expect(await addMissingThumbnails([key])).toEqual({ made: 0, failed: 0 });
  });

  it("one image at a time with sixteen waiting; past that, answers busy at once", async () => {
    const jpeg = await makeImage("jpeg", 64, 48);
    const results = await Promise.all(Array.from({ length: 18 }, () => acceptImage(author(), jpeg)));
    expect(results.filter((result) => result.ok)).toHaveLength(17);
    expect(results.at(-1)).toEqual(refused(BUSY_MESSAGE, 503));
  });
});

describe("acceptImage counts an author's uploads", () => {
  it(`refuses the ${QUOTAS.uploadsPerHour + 1}th image within an hour with the quota message, and counts only images that reach the decoder`, async () => {
    const jpeg = await makeImage("jpeg", 32, 24);
    const id = author();
    expect(await acceptImage(id, Buffer.from("not an image"))).toEqual(refused(MESSAGES.imageType, 400));
    for (let i = 0; i < QUOTAS.uploadsPerHour; i++) expect(await acceptImage(id, jpeg)).toMatchObject({ ok: true });
    expect(await acceptImage(id, jpeg)).toEqual(refused(POST_MESSAGES.uploadQuota, 429));
    expect(await acceptImage(author(), jpeg)).toMatchObject({ ok: true });
  }, 30_000);
});
