import { imageSrcSet, imageUrl } from "~/lib/images";

type Props = {
  imageKey: string;
  width: number;
  height: number;
  alt: string;
  /** The `sizes` attribute: how wide the image is drawn at each viewport. */
  sizes: string;
  /** The first visible image: load it at once and first; others wait until near the viewport. */
  priority?: boolean;
  className?: string;
};

/** A stored image as WebP with a JPEG fallback, in the widths the store keeps. */
export function ResponsiveImage({ imageKey, width, height, alt, sizes, priority = false, className }: Props) {
  return (
    <picture>
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
