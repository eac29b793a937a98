import { randomBytes } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { IMAGE_FORMATS, THUMBNAIL, isImageKey, variantFile, variantFiles } from "~/lib/images";
import { BusyError, createLimiter } from "~/services/platform/concurrency.server";
import { looseImageKeys, markImageLoose, unmarkImageLoose } from "~/models/loose-images.server";
import { imageKeyInUse } from "~/models/posts.server";
import { decodeImage, encodedThumbnail, encodedVariants, type EncodedVariant } from "./image-encoding.server";
import { imageStore } from "./image-store.server";

/**
 * One image at a time for the whole process: decoding takes tens of MB and a
 * core, however many arrive at once. A waiting upload holds only its input
 * (under 2 MB), and the uploads in memory are bounded already (the upload memory
 * of post-upload.server.ts), so the queue has room for all of them; beyond it, BusyError.
 */
const imageJobs = createLimiter("image", { running: 1, waiting: 16 });

export type StoredImage = { key: string; width: number; height: number };

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

async function encodeVariants(input: Buffer): Promise<StoredImage> {
  const decoded = await decodeImage(input);
  return storeVariants(encodedVariants(decoded), decoded.info);
}

/**
 * Store an image's variants, encoded (by storeImage, or beforehand: the demo
 * images, at build time), under a new random key.
 */
export async function storeVariants(variants: AsyncIterable<EncodedVariant> | Iterable<EncodedVariant>, { width, height }: { width: number; height: number }): Promise<StoredImage> {
  const key = randomBytes(12).toString("base64url");
  // Before any file: a crash while they are written leaves them to the start-up clean-up.
  markImageLoose(key);
  await writeVariants(key, variants);
  return { key, width, height };
}

/** Write variants of `key`, one at a time; on any error, none of the files written is left. */
async function writeVariants(key: string, variants: AsyncIterable<EncodedVariant> | Iterable<EncodedVariant>): Promise<void> {
  const store = await imageStore();
  const written: string[] = [];
  try {
    for await (const { variant, format, bytes } of variants) {
      const name = variantFile(key, variant, format);
      // Counted before it is written: a write that fails part-way may still leave an object.
      written.push(name);
      await store.write(name, bytes);
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
      await writeVariants(key, encodedThumbnail(source));
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
