import { randomUUID } from "node:crypto";
import { readdir } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { BUSY_MESSAGE, MESSAGES, POST_MESSAGES, QUOTAS } from "~/lib/rules";
import { env } from "~/config/env.server";
import { acceptImage } from "~/services/publishing.server";
import { jpegHeader, pngHeader } from "../support/image-bytes";
import { makeImage, makePngBomb } from "../support/images";

/** Files in UPLOADS_DIR (a temporary folder for the unit tests). */
async function uploads(): Promise<string[]> {
  return readdir(env.uploadsDir).catch(() => []);
}

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
    expect(result).toEqual({ error: POST_MESSAGES.imageTooLarge, status: 400 });
    expect(added).toEqual([]);
  });

  it.each([
    ["a PNG 10,001 px wide", pngHeader(10_001, 10)],
    ["a PNG of 49 megapixels", pngHeader(7_000, 7_000)],
    ["a JPEG 10,001 px tall", jpegHeader(10, 10_001)],
  ])("%s", async (_, bytes) => {
    expect(await accept(bytes)).toEqual({ result: { error: POST_MESSAGES.imageTooLarge, status: 400 }, added: [] });
  });

  it("a progressive JPEG too big to hold whole", async () => {
    expect(await accept(jpegHeader(8_000, 5_000, { sof: 0xc2 }))).toEqual({ result: { error: POST_MESSAGES.imageTooLargeWhole, status: 400 }, added: [] });
  });

  it.each([
    ["a header that cannot be read", Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00])],
    ["a PNG 0 px wide", pngHeader(0, 10)],
    ["a readable header with nothing decodable after it", pngHeader(100, 100)],
  ])("%s as not an image", async (_, bytes) => {
    expect(await accept(bytes)).toEqual({ result: { error: MESSAGES.imageType, status: 400 }, added: [] });
  });
});

describe("acceptImage stores", () => {
  it("an image exactly at the side limit, as its six variants", async () => {
    const png = await makeImage("png", 10_000, 100);
    const { result, added } = await accept(png);
    expect(result).toMatchObject({ width: 1200, height: 12 });
    const key = (result as { key: string }).key;
    expect(added.sort()).toEqual(["1200.jpg", "1200.webp", "400.jpg", "400.webp", "800.jpg", "800.webp"].map((suffix) => `${key}-${suffix}`));
  });

  it("one image at a time with sixteen waiting; past that, answers busy at once", async () => {
    const jpeg = await makeImage("jpeg", 64, 48);
    const results = await Promise.all(Array.from({ length: 18 }, () => acceptImage(author(), jpeg)));
    expect(results.filter((result) => "key" in result)).toHaveLength(17);
    expect(results.at(-1)).toEqual({ error: BUSY_MESSAGE, status: 503 });
  });
});

describe("acceptImage counts an author's uploads", () => {
  it(`refuses the ${QUOTAS.uploadsPerHour + 1}th image within an hour with the quota message, and counts only images that reach the decoder`, async () => {
    const jpeg = await makeImage("jpeg", 32, 24);
    const id = author();
    expect(await acceptImage(id, Buffer.from("not an image"))).toEqual({ error: MESSAGES.imageType, status: 400 });
    for (let i = 0; i < QUOTAS.uploadsPerHour; i++) expect(await acceptImage(id, jpeg)).toHaveProperty("key");
    expect(await acceptImage(id, jpeg)).toEqual({ error: POST_MESSAGES.uploadQuota, status: 429 });
    expect(await acceptImage(author(), jpeg)).toHaveProperty("key");
  }, 30_000);
});
