import { imageSrcSet, imageUrl, THUMBNAIL, THUMBNAIL_SIZE, type ImageFormat } from "~/lib/images";

type Props = {
  imageKey: string;
  width: number;
  height: number;
  alt: string;
  /** The `sizes` attribute: how wide the image is drawn at each viewport. */
  sizes: string;
  /** Where the square thumbnail is drawn instead (the phone's compact cards): under `media`, `size` wide. */
  thumbnail?: { media: string; size: string };
  /** The first visible image: load it at once and first; others wait until near the viewport. */
  priority?: boolean;
  className?: string;
};

/** A stored image as WebP with a JPEG fallback, in the widths the store keeps (or its thumbnail where that is drawn). */
export function ResponsiveImage({ imageKey, width, height, alt, sizes, thumbnail, priority = false, className }: Props) {
  // The thumbnail's one width, with its sizes: a source without a width descriptor beside those with one is invalid HTML.
  const thumbnailSrcSet = (format: ImageFormat) => `${imageUrl(imageKey, THUMBNAIL, format)} ${THUMBNAIL_SIZE}w`;
  return (
    <picture>
      {/* Without JavaScript a browser loads every image of a page, however far down:
          on a phone the cards ask for the small square, not a 800 px photo. */}
      {thumbnail && <source media={thumbnail.media} type="image/webp" srcSet={thumbnailSrcSet("webp")} sizes={thumbnail.size} />}
      {thumbnail && <source media={thumbnail.media} srcSet={thumbnailSrcSet("jpg")} sizes={thumbnail.size} />}
      <source type="image/webp" srcSet={imageSrcSet(imageKey, "webp")} sizes={sizes} />
      <img
        className={className}
        src={imageUrl(imageKey, 800, "jpg")}
        srcSet={imageSrcSet(imageKey, "jpg")}
        sizes={sizes}
        width={width}
        height={height}
        alt={alt}
        loading={priority ? "eager" : "lazy"}
        decoding={priority ? "sync" : "async"}
        {...{ fetchpriority: priority ? "high" : "auto" }}
      />
    </picture>
  );
}
