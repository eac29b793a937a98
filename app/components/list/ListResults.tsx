import { Link } from "@remix-run/react";
import { ListLink } from "~/components/list/ListLink";
import { PostCard } from "~/components/list/PostCard";
import { listHref, type ListState } from "~/lib/links";
import { PAGE_SIZE } from "~/lib/rules";
import type { PostCard as PostCardData } from "~/lib/types";

type Props = {
  posts: PostCardData[];
  /** The first article of the next page ("Načítaj viac"), or null. */
  next: string | null;
  list: Required<Pick<ListState, "tag" | "limit" | "q" | "period">>;
  /** The words of a search, marked in the cards. */
  terms: string[];
  /** An article is open over the list (its first card then does not load first). */
  covered: boolean;
  /** With JavaScript: another list is on its way (said at the top), or the next cards (in place of the button). */
  loadingOther: boolean;
  loadingMore: boolean;
  /** "Načítaj viac" was followed: the first card it brings (focused when it arrives). */
  onLoadMore: (next: string) => void;
};

/**
 * The part of the list that a search changes: what it found (said first), the
 * cards or why there are none, and "Načítaj viac". One component, so that a
 * new search's page can be made from a kept page of the list and this part
 * rendered alone (server/search-pages.ts), the same bytes as the whole page.
 */
export function ListResults({ posts, next, list, terms, covered, loadingOther, loadingMore, onLoadMore }: Props) {
  const { tag, limit, q, period } = list;
  return (
    <>
      {q && <SearchSummary q={q} tag={tag} found={posts.length > 0} />}
      {loadingOther && (
        <p className="loading" role="status">
          Loading...
        </p>
      )}
      {posts.length > 0 ? (
        <ul className="card-grid">
          {posts.map((post, index) => (
            <PostCard key={post.id} post={post} index={index} list={list} priority={index === 0 && !covered} highlight={terms} />
          ))}
        </ul>
      ) : (
        !q && (
          <p className="empty">
            {period ? "V tomto období zatiaľ nie je žiadny článok." : tag ? "S týmto tagom zatiaľ nie je žiadny článok." : "Zatiaľ tu nie sú žiadne články."}
          </p>
        )
      )}
      {next &&
        (loadingMore ? (
          <p className="load-more" role="status">
            Loading...
          </p>
        ) : (
          // Lands at the first card it brings; with JavaScript, focus moves there.
          <ListLink className="button load-more" to={listHref({ ...list, limit: limit + PAGE_SIZE })} at={next} onClick={() => onLoadMore(next)}>
            Načítaj viac
          </ListLink>
        ))}
    </>
  );
}

/** What a search found, said where a screen reader hears it as the results change, with the way out of the search. */
function SearchSummary({ q, tag, found }: { q: string; tag: string | null; found: boolean }) {
  const where = tag ? ` s tagom „${tag}“` : "";
  return (
    <p className={found ? "search-summary" : "search-summary empty"} role="status">
      {found ? `Najlepšie zhody pre „${q}“${where}.` : `Pre „${q}“ sme nenašli žiadny článok${where}.`}{" "}
      <Link to={listHref({ tag, limit: PAGE_SIZE })}>Zrušiť hľadanie</Link>
    </p>
  );
}
