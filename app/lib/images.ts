/** Widths of the stored variants of every image, and how to address them. */
export const IMAGE_WIDTHS = [400, 800, 1200] as const;
export const IMAGE_FORMATS = ["webp", "jpg"] as const;

export type ImageWidth = (typeof IMAGE_WIDTHS)[number];
export type ImageFormat = (typeof IMAGE_FORMATS)[number];

export function imageUrl(key: string, width: ImageWidth, format: ImageFormat): string {
  return `/images/${key}-${width}.${format}`;
}

export function imageSrcSet(key: string, format: ImageFormat): string {
  return IMAGE_WIDTHS.map((w) => `${imageUrl(key, w, format)} ${w}w`).join(", ");
}

/** File name of a variant, as the store writes it and /images/ serves it. */
export const VARIANT_FILE = /^([A-Za-z0-9_-]{16})-(400|800|1200)\.(webp|jpg)$/;
