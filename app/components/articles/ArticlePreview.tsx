import { useEffect, useRef } from "react";
import { PREVIEW_LABEL, type ArticlePreview as Preview } from "~/lib/drafts";
import { ArticleBody } from "./ArticleBody";
import { PostPeriod } from "./PostPeriod";
import { ResponsiveImage } from "./ResponsiveImage";

/**
 * "Náhľad": the article as readers will see it, with the readers' own
 * components, in a region that says it is not published. It comes above
 * the form; with JavaScript it also takes focus, so the reader lands on it.
 */
export function ArticlePreview({ preview }: { preview: Preview }) {
  const region = useRef<HTMLElement>(null);
  useEffect(() => {
    region.current?.scrollIntoView({ block: "start" });
    region.current?.focus();
  }, [preview]);
  return (
    <section className="article-preview" id="nahlad" aria-labelledby="preview-label" tabIndex={-1} ref={region}>
      <p className="article-preview-label" id="preview-label">
        {PREVIEW_LABEL}
      </p>
      {preview.image && (
        <ResponsiveImage
          className="article-preview-image"
          imageKey={preview.image.key}
          width={preview.image.width}
          height={preview.image.height}
          alt=""
          sizes="(min-width: 920px) 880px, 100vw"
        />
      )}
      <h2 className="article-preview-title">{preview.title}</h2>
      <PostPeriod period={preview.period} className="post-period" />
      <ArticleBody content={preview.content} sources={preview.sources} tags={preview.tags} />
    </section>
  );
}
