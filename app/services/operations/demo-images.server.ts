import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { ImageFormat, ImageVariant } from "~/lib/images";
import { DEMO_IMAGES_BUILT, projectPath } from "~/config/paths.server";
import { storeImage, storeVariants, type StoredImage } from "~/services/images/images.server";

/** A demo image's variants as the build encoded them: its size, the source file's SHA-256, each variant's file. */
export type BuiltDemoImage = { width: number; height: number; sha256: string; files: { variant: ImageVariant; format: ImageFormat; name: string }[] };

/**
 * Store the demo image `file` (in demo/images/) as an upload is stored: its
 * variants as the build encoded them when they were made from this very
 * file, else encoded now (a build without them, or an image changed since).
 */
export async function storeDemoImage(file: string, built = DEMO_IMAGES_BUILT): Promise<StoredImage> {
  const bytes = await readFile(projectPath(`demo/images/${file}`));
  const folder = path.join(built, file);
  const image: BuiltDemoImage | null = await readFile(path.join(folder, "image.json"), "utf8").then(JSON.parse, () => null);
  if (!image || image.sha256 !== createHash("sha256").update(bytes).digest("hex")) return storeImage(bytes);
  const variants = await Promise.all(image.files.map(async ({ variant, format, name }) => ({ variant, format, bytes: await readFile(path.join(folder, name)) })));
  return storeVariants(variants, image);
}
