/** Widths of the stored variants of every image, and how to address them. */
export const IMAGE_WIDTHS = [400, 800, 1200] as const;
export const IMAGE_FORMATS = ["webp", "jpg"] as const;
/**
 * Besides the widths, a square thumbnail for the phone's compact cards
 * (drawn 6.5rem wide: 240 px is enough at 2x). A list of nine of them weighs
 * what one 800 px card image does.
 */
export const THUMBNAIL = "thumb" as const;
export const THUMBNAIL_SIZE = 240;
export const IMAGE_VARIANTS = [...IMAGE_WIDTHS, THUMBNAIL] as const;

export type ImageWidth = (typeof IMAGE_WIDTHS)[number];
export type ImageVariant = (typeof IMAGE_VARIANTS)[number];
export type ImageFormat = (typeof IMAGE_FORMATS)[number];

/** The name of a variant's file in the image store: what VARIANT_FILE matches. */
export function variantFile(key: string, variant: ImageVariant, format: ImageFormat): string {
  return `${key}-${variant}.${format}`;
}

/** Every file name an image's variants have. */
export function variantFiles(key: string): string[] {
  return IMAGE_VARIANTS.flatMap((variant) => IMAGE_FORMATS.map((format) => variantFile(key, variant, format)));
}

export function imageUrl(key: string, variant: ImageVariant, format: ImageFormat): string {
  return `/images/${variantFile(key, variant, format)}`;
}

export function imageSrcSet(key: string, format: ImageFormat): string {
  return IMAGE_WIDTHS.map((w) => `${imageUrl(key, w, format)} ${w}w`).join(", ");
}

/** An image's key, as the upload makes it (12 random bytes, base64url): nothing else names an image's files. */
const KEY = "[A-Za-z0-9_-]{16}";
const IMAGE_KEY = new RegExp(`^${KEY}$`);

/** A key of this site's shape; a database from elsewhere (a backup) may hold anything, even a number or bytes. */
export function isImageKey(key: unknown): key is string {
  return typeof key === "string" && IMAGE_KEY.test(key);
}

/** File name of a variant, as the store writes it and /images/ serves it: [, key, variant, format]. */
export const VARIANT_FILE = new RegExp(`^(${KEY})-(400|800|1200|thumb)\\.(webp|jpg)$`);
