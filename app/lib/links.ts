import { periodFilterParams, readPeriodFilter, type PeriodFilter } from "~/lib/time/periods";
import { PAGE_SIZE, parseListLimit } from "./rules";
import { SEARCH_MAX_LENGTH } from "./search";
import { isTag } from "./tags";

/** What a list shows: a tag, how many cards, a search ("" for none), and a period (~/lib/time/periods; null for none). */
export type ListState = { tag: string | null; limit: number; q?: string; period?: PeriodFilter | null };

/** The list state a URL asks for; a tag that is not one of the 30 is dropped and reported. */
export function readListState(searchParams: URLSearchParams): Required<ListState> & { unknownTag: string | null } {
  const raw = searchParams.get("tag");
  const tag = isTag(raw) ? raw : null;
  const q = (searchParams.get("q") ?? "").trim().slice(0, SEARCH_MAX_LENGTH);
  const period = readPeriodFilter(searchParams);
  return { tag, limit: parseListLimit(searchParams.get("limit")), q, period, unknownTag: raw && !tag ? raw : null };
}

/** The query string of a list state, leaving out defaults: "", "?tag=…", "?q=…&tag=…&century=9&limit=18". */
export function listSearch({ tag, limit, q, period = null }: ListState): string {
  const params = new URLSearchParams();
  if (q) params.set("q", q);
  if (tag) params.set("tag", tag);
  for (const [name, value] of periodFilterParams(period)) params.set(name, value);
  if (limit > PAGE_SIZE) params.set("limit", String(limit));
  const search = params.toString();
  return search ? `?${search}` : "";
}

export function listHref(state: ListState): string {
  return `/posts${listSearch(state)}`;
}

/** The Atom feed of the newest articles, or of those with a tag. */
export function feedHref(tag: string | null): string {
  return `/feed.xml${tag ? `?tag=${encodeURIComponent(tag)}` : ""}`;
}

/** The id of an article's card in the list: the anchor (`#card-…`) that lands on it. */
export function cardId(postId: string): string {
  return `card-${postId}`;
}

/** An article's address, keeping the list's search, tag and limit so "Go back" returns to the same list. */
export function postHref(id: string, state: ListState): string {
  return `/posts/${encodeURIComponent(id)}${listSearch(state)}`;
}

const SITE = "http://dejiny.invalid";
/** Characters browsers drop or read as "/" in a URL (tabs, newlines, backslashes): never in a redirect. */
const UNSAFE_IN_REDIRECT = /[\p{Cc}\\]/u;

function decodedPath(target: string): string {
  const path = target.split(/[?#]/, 1)[0];
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/**
 * Where to go after signing in: a path on this site only, never another host,
 * however it is encoded. Checked after the URL parser has normalised it
 * (`/./`, `/../`, `%2e`), and once more with its %-escapes decoded, so that
 * neither a browser nor a proxy can read the result as `//host`.
 */
export function safeRedirect(to: unknown, fallback = "/"): string {
  if (typeof to !== "string" || !to.startsWith("/") || UNSAFE_IN_REDIRECT.test(to)) return fallback;
  let target: string;
  try {
    const url = new URL(to, SITE);
    if (url.origin !== SITE) return fallback;
    target = `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return fallback;
  }
  const path = decodedPath(target);
  if (!target.startsWith("/") || target.startsWith("//") || path.startsWith("//") || UNSAFE_IN_REDIRECT.test(path)) return fallback;
  return target;
}
