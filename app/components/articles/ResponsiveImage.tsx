import { imageSrcSet, imageUrl, THUMBNAIL } from "~/lib/images";

type Props = {
  imageKey: string;
  width: number;
  height: number;
  alt: string;
  /** The `sizes` attribute: how wide the image is drawn at each viewport. */
  sizes: string;
  /** A media query under which the square thumbnail is drawn instead (the phone's compact cards). */
  thumbnailMedia?: string;
  /** The first visible image: load it at once and first; others wait until near the viewport. */
  priority?: boolean;
  className?: string;
};

/** A stored image as WebP with a JPEG fallback, in the widths the store keeps (or its thumbnail where that is drawn). */
export function ResponsiveImage({ imageKey, width, height, alt, sizes, thumbnailMedia, priority = false, className }: Props) {
  return (
    <picture>
      {/* Without JavaScript a browser loads every image of a page, however far down:
          on a phone the cards ask for the small square, not a 800 px photo. */}
      {thumbnailMedia && <source media={thumbnailMedia} type="image/webp" srcSet={imageUrl(imageKey, THUMBNAIL, "webp")} />}
      {thumbnailMedia && <source media={thumbnailMedia} srcSet={imageUrl(imageKey, THUMBNAIL, "jpg")} />}
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
