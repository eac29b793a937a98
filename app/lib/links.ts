import { PAGE_SIZE, parseListLimit } from "./rules";
import { isTag } from "./tags";

export type ListState = { tag: string | null; limit: number };

/** The list state a URL asks for; a tag that is not one of the 30 is dropped and reported. */
export function readListState(searchParams: URLSearchParams): ListState & { unknownTag: string | null } {
  const raw = searchParams.get("tag");
  const tag = isTag(raw) ? raw : null;
  return { tag, limit: parseListLimit(searchParams.get("limit")), unknownTag: raw && !tag ? raw : null };
}

/** The query string of a list state, leaving out defaults: "", "?tag=…", "?tag=…&limit=18". */
export function listSearch({ tag, limit }: ListState): string {
  const params = new URLSearchParams();
  if (tag) params.set("tag", tag);
  if (limit > PAGE_SIZE) params.set("limit", String(limit));
  const search = params.toString();
  return search ? `?${search}` : "";
}

export function listHref(state: ListState): string {
  return `/posts${listSearch(state)}`;
}

/** An article's address, keeping the list's tag and limit so "Go back" returns to the same list. */
export function postHref(id: string, state: ListState): string {
  return `/posts/${encodeURIComponent(id)}${listSearch(state)}`;
}
