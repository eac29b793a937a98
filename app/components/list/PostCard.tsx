import { Link } from "@remix-run/react";
import { cardId, postHref, type ListState } from "~/lib/links";
import type { PostCard as PostCardData } from "~/lib/types";
import { cardColourClass } from "~/lib/rules";
import { highlight as highlightWords } from "~/lib/search";
import { PostPeriod } from "~/components/articles/PostPeriod";
import { ResponsiveImage } from "~/components/articles/ResponsiveImage";

/** Card image widths: the grid has 2 columns from 600 px, 3 from 896 px (max 1200 px). */
const CARD_SIZES = "(min-width: 1232px) 376px, (min-width: 896px) calc((100vw - 5rem) / 3), calc((100vw - 3.5rem) / 2)";
/** Below 600 px cards are compact rows with a square thumbnail, 6.5rem wide (app.css). */
const COMPACT_CARDS = { media: "(max-width: 599px)", size: "6.5rem" };

/** `priority`: the first card a reader sees (not when an article covers the list); `highlight`: the words of a search, marked. */
type Props = { post: PostCardData; index: number; list: ListState; priority: boolean; highlight?: string[] };

export function PostCard({ post, index, list, priority, highlight = [] }: Props) {
  return (
    // The id is the anchor that "Načítaj viac" and an article's "Go back" land on.
    <li className={`card ${cardColourClass(index)}`} id={cardId(post.id)}>
      <Link to={postHref(post.id, list)} preventScrollReset className="card-link">
        <ResponsiveImage
          className="card-image"
          imageKey={post.image}
          width={post.imageWidth}
          height={post.imageHeight}
          alt=""
          sizes={CARD_SIZES}
          thumbnail={COMPACT_CARDS}
          priority={priority}
        />
        <h2 className="card-title">
          <Marked text={post.title} terms={highlight} />
        </h2>
        <PostPeriod period={post.period} className="card-period" />
        <p className="card-excerpt">
          <Marked text={post.excerpt} terms={highlight} />
        </p>
        <span className="card-more" aria-hidden="true">
          Zistiť viac →
        </span>
      </Link>
    </li>
  );
}

function Marked({ text, terms }: { text: string; terms: string[] }) {
  if (terms.length === 0) return text;
  return highlightWords(text, terms).map((segment, i) => (segment.mark ? <mark key={i}>{segment.text}</mark> : segment.text));
}
