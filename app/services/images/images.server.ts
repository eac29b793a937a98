import { randomBytes } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import type { Sharp, SharpOptions } from "sharp";
import { IMAGE_FORMATS, IMAGE_WIDTHS, THUMBNAIL, THUMBNAIL_SIZE, isImageKey, variantFile, variantFiles, type ImageVariant } from "~/lib/images";
import { IMAGE_MAX_PIXELS } from "~/lib/rules";
import { BusyError, createLimiter } from "~/services/platform/concurrency.server";
import { looseImageKeys, markImageLoose, unmarkImageLoose } from "~/models/loose-images.server";
import { imageKeyInUse } from "~/models/posts.server";
import { decodePlan, IMAGE_DECODE_SECONDS, needsSecondPass } from "./image-cost.server";
import { readImageHeader } from "./image-header.server";
import { imageStore } from "./image-store.server";

/**
 * One image at a time for the whole process: decoding takes tens of MB and a
 * core, however many arrive at once. A waiting upload holds only its input
 * (under 2 MB), and the uploads in memory are bounded already (the upload memory
 * of post-upload.server.ts), so the queue has room for all of them; beyond it, BusyError.
 */
const imageJobs = createLimiter("image", { running: 1, waiting: 16 });

export type StoredImage = { key: string; width: number; height: number };

type SharpModule = (input?: Buffer, options?: SharpOptions) => Sharp;
let sharpModule: Promise<SharpModule> | undefined;

/**
 * sharp (libvips) is loaded on the first upload, not at start: a server that
 * only serves readers stays small. No operation cache (every upload is new
 * input) and one libvips thread per image, to keep its memory low.
 */
function loadSharp() {
  sharpModule ??= import("sharp").then(({ default: sharp }) => {
    sharp.cache(false);
    sharp.concurrency(1);
    return sharp;
  });
  return sharpModule;
}

/** The bytes are not an image sharp can decode (or exceed the pixel limit). */
export class UndecodableImageError extends Error {}
/** Decoding took longer than IMAGE_DECODE_SECONDS and was stopped: too costly, rather than not an image. */
export class DecodeTimeoutError extends UndecodableImageError {}

/**
 * Decode to 8-bit raw pixels at most 1200 px wide once upright, by the
 * plan image-cost.server.ts predicts the cost of: shrink a PNG across
 * while its rows stream from the file (16-bit samples made 8-bit at once;
 * a JPEG shrinks both ways on load), then down, mirror and turn the small
 * result (the EXIF orientation the header
 * declared; libvips is never asked to orient the full image). Each pass is
 * stopped after IMAGE_DECODE_SECONDS.
 */
export async function decodeImage(input: Buffer) {
  const sharp = await loadSharp();
  const header = readImageHeader(input);
  if (!header) throw new UndecodableImageError("not a JPEG or PNG header");
  const plan = decodePlan(header);
  const timeout = { seconds: IMAGE_DECODE_SECONDS };
  try {
    // acceptImage checked the header first; these limits are a second guard. Sequential read
    // (sharp's default, kept on purpose) streams the rows through the shrink.
    let pass1 = sharp(input, { limitInputPixels: IMAGE_MAX_PIXELS, unlimited: false, sequentialRead: true, failOn: "error" }).pipelineColourspace("srgb");
    if (header.type === "jpeg") pass1 = pass1.resize({ width: plan.width, height: plan.height, fit: "fill" });
    else if (plan.across !== null) pass1 = pass1.resize({ width: plan.across, height: header.height, fit: "fill" });
    const across = await pass1.raw({ depth: "uchar" }).timeout(timeout).toBuffer({ resolveWithObject: true });
    if (!needsSecondPass(header, plan)) return across;
    const raw = { raw: { width: across.info.width, height: across.info.height, channels: across.info.channels } };
    let pass2 = sharp(across.data, raw);
    if (across.info.height !== plan.height) pass2 = pass2.resize({ width: plan.width, height: plan.height, fit: "fill" });
    // After a resize sharp mirrors first, then turns: the order ORIENTATIONS is written for.
    return await pass2.flop(plan.flop).rotate(plan.angle).raw().timeout(timeout).toBuffer({ resolveWithObject: true });
  } catch (error) {
    // sharp's message for a pass stopped by .timeout(): "timeout: N% complete".
    throw new (/timeout: \d+% complete/.test((error as Error)?.message) ? DecodeTimeoutError : UndecodableImageError)(String(error));
  }
}

/**
 * Decode an uploaded image and store re-encoded variants under a new random
 * key. Re-encoding drops metadata (EXIF, GPS) and anything after the image
 * data. Throws UndecodableImageError if the bytes are not a decodable image,
 * BusyError if too many images are already waiting; any error leaves no
 * file behind.
 */
export function storeImage(input: Buffer): Promise<StoredImage> {
  return imageJobs.run(() => encodeVariants(input));
}

/** Every width, and the thumbnail (the middle of the image, cropped square), each in every format. */
function variantsOf(sharp: SharpModule, pixels: Buffer, raw: SharpOptions): Variant[] {
  return [
    ...IMAGE_WIDTHS.map((width) => ({ variant: width, image: sharp(pixels, raw).resize({ width, withoutEnlargement: true }) })),
    { variant: THUMBNAIL, image: sharp(pixels, raw).resize(THUMBNAIL_SIZE, THUMBNAIL_SIZE, { fit: "cover" }) },
  ];
}

async function encodeVariants(input: Buffer): Promise<StoredImage> {
  const { data: pixels, info } = await decodeImage(input);
  const sharp = await loadSharp();
  const key = randomBytes(12).toString("base64url");
  // Before any file: a crash while they are written leaves them to the start-up clean-up.
  markImageLoose(key);
  await writeVariants(key, variantsOf(sharp, pixels, { raw: { width: info.width, height: info.height, channels: info.channels } }));
  return { key, width: info.width, height: info.height };
}

type Variant = { variant: ImageVariant; image: Sharp };

/** Encode and write variants of `key` in every format; on any error, none of the files written is left. */
async function writeVariants(key: string, variants: Variant[]): Promise<void> {
  const store = await imageStore();
  const written: string[] = [];
  try {
    for (const { variant, image } of variants) {
      for (const format of IMAGE_FORMATS) {
        const bytes = await (format === "webp"
          ? image.clone().webp({ quality: 72 })
          : image.clone().jpeg({ quality: 78, progressive: true, mozjpeg: true })
        ).toBuffer();
        const name = variantFile(key, variant, format);
        // Counted before it is written: a write that fails part-way may still leave an object.
        written.push(name);
        await store.write(name, bytes);
      }
    }
  } catch (error) {
    await Promise.allSettled(written.map((name) => store.remove(name)));
    throw error;
  }
}

/**
 * Give images stored before thumbnails existed their thumbnail, made from
 * their 800 px JPEG: one at a time through the image queue (waiting while
 * it is full), in the background; until then /images/ answers a missing
 * thumbnail with the 400 px variant. Returns how many were made, and how
 * many could not be (logged; the next start tries them again).
 */
export async function addMissingThumbnails(keys: Iterable<string>): Promise<{ made: number; failed: number }> {
  const store = await imageStore();
  let made = 0;
  let failed = 0;
  for (const key of keys) {
    const makeThumbnail = async () => {
      const present = await Promise.all(IMAGE_FORMATS.map((format) => store.has(variantFile(key, THUMBNAIL, format))));
      if (present.every(Boolean)) return false;
      const source = await store.read(variantFile(key, 800, "jpg"));
      if (!source) return false;
      const sharp = await loadSharp();
      await writeVariants(key, [{ variant: THUMBNAIL, image: sharp(source).resize(THUMBNAIL_SIZE, THUMBNAIL_SIZE, { fit: "cover" }) }]);
      return true;
    };
    for (;;) {
      try {
        if (await imageJobs.run(makeThumbnail)) made++;
        break;
      } catch (error) {
        if (!(error instanceof BusyError)) {
          console.error(`Could not make the thumbnail of image ${key}`, error);
          failed++;
          break;
        }
        await sleep(5_000); // uploads come first
      }
    }
  }
  return { made, failed };
}

/**
 * Remove every variant of an image whose key is marked loose (the upload
 * marked it, or the caller did with the removal of its last reference). A
 * failure is only logged: the key stays marked, and the next start tries again.
 * A key not of the site's shape (a crafted row) names no file of the site's:
 * nothing is touched and its mark is forgotten. True when files were removed.
 */
export async function deleteImage(key: string): Promise<boolean> {
  if (!isImageKey(key)) {
    console.error(`Ignored image key ${JSON.stringify(String(key).slice(0, 80))}: not a key of this site, so no file was touched.`);
    unmarkImageLoose(key);
    return false;
  }
  const store = await imageStore();
  const results = await Promise.allSettled(variantFiles(key).map((name) => store.remove(name)));
  const failures = results.filter((result) => result.status === "rejected");
  for (const failure of failures) console.error("Could not delete image file", failure.reason);
  if (failures.length === 0) unmarkImageLoose(key);
  return failures.length === 0;
}

/**
 * Remove the files of the images marked loose that no post or pending upload
 * uses (an upload or a delete the process died in), and forget the marks of
 * those in use. Run at start-up, before any request can be writing. Returns
 * how many images' files were removed.
 */
export async function removeLooseImages(): Promise<number> {
  let removed = 0;
  for (const key of looseImageKeys()) {
    if (imageKeyInUse(key)) {
      unmarkImageLoose(key);
      continue;
    }
    if (await deleteImage(key)) removed++;
  }
  return removed;
}
