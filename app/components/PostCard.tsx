import { Link } from "@remix-run/react";
import { postHref, type ListState } from "~/lib/links";
import type { PostCard as PostCardData } from "~/lib/types";
import { cardColourClass } from "~/lib/rules";
import { ResponsiveImage } from "./ResponsiveImage";

/** Card image widths: the grid has 1 column on phones, 2 from 600 px, 3 from 896 px (max 1200 px). */
const CARD_SIZES = "(min-width: 1232px) 376px, (min-width: 896px) calc((100vw - 5rem) / 3), (min-width: 600px) calc((100vw - 3.5rem) / 2), calc(100vw - 2rem)";

/** `priority`: the first card a reader sees (not when an article covers the list). */
type Props = { post: PostCardData; index: number; list: ListState; priority: boolean };

export function PostCard({ post, index, list, priority }: Props) {
  return (
    <li className={`card ${cardColourClass(index)}`}>
      <Link to={postHref(post.id, list)} preventScrollReset className="card-link">
        <ResponsiveImage
          className="card-image"
          imageKey={post.image}
          width={post.imageWidth}
          height={post.imageHeight}
          alt=""
          sizes={CARD_SIZES}
          priority={priority}
        />
        <h2 className="card-title">{post.title}</h2>
        <p className="card-excerpt">{post.excerpt}</p>
        <span className="card-more" aria-hidden="true">
          Zistiť viac →
        </span>
      </Link>
    </li>
  );
}
