import type { Sharp, SharpOptions } from "sharp";
import { IMAGE_FORMATS, IMAGE_WIDTHS, THUMBNAIL, THUMBNAIL_SIZE, type ImageFormat, type ImageVariant } from "~/lib/images";
import { IMAGE_MAX_PIXELS } from "~/lib/rules";
import { decodePlan, IMAGE_DECODE_SECONDS, needsSecondPass } from "./image-cost.server";
import { readImageHeader } from "./image-header.server";

// Decoding an image and encoding its variants: sharp alone, no store and no
// database, so the build can encode the demo images the way an upload is
// (scripts/build-demo-images.ts).

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

/** An image decoded to 8-bit raw pixels (decodeImage). */
export type DecodedImage = Awaited<ReturnType<typeof decodeImage>>;

/** One variant of an image in one format, encoded: a file of the image store. */
export type EncodedVariant = { variant: ImageVariant; format: ImageFormat; bytes: Buffer };

/** Every width, and the thumbnail (the middle of the image, cropped square), each in every format, encoded one at a time. */
export async function* encodedVariants({ data, info }: DecodedImage): AsyncGenerator<EncodedVariant> {
  const sharp = await loadSharp();
  const raw = { raw: { width: info.width, height: info.height, channels: info.channels } };
  for (const width of IMAGE_WIDTHS) yield* encoded(width, sharp(data, raw).resize({ width, withoutEnlargement: true }));
  yield* encoded(THUMBNAIL, sharp(data, raw).resize(THUMBNAIL_SIZE, THUMBNAIL_SIZE, { fit: "cover" }));
}

/** The thumbnail of an image stored before thumbnails existed, made from one of its stored variants. */
export async function* encodedThumbnail(variant: Buffer): AsyncGenerator<EncodedVariant> {
  const sharp = await loadSharp();
  yield* encoded(THUMBNAIL, sharp(variant).resize(THUMBNAIL_SIZE, THUMBNAIL_SIZE, { fit: "cover" }));
}

async function* encoded(variant: ImageVariant, image: Sharp): AsyncGenerator<EncodedVariant> {
  for (const format of IMAGE_FORMATS) {
    const bytes = await (format === "webp" ? image.clone().webp({ quality: 72 }) : image.clone().jpeg({ quality: 78, progressive: true, mozjpeg: true })).toBuffer();
    yield { variant, format, bytes };
  }
}
