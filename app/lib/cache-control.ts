/** How long a browser may keep an anonymous page; see pageCacheControl. */
const ANONYMOUS_PAGE_MAX_AGE = 60;

/**
 * Caching of pages, the same for pages the app renders and pages the
 * server's page cache serves. A signed-in reader's pages, and anything but
 * a plain 200 answer to a GET, are never kept. An anonymous page may be
 * kept for a minute: by any cache (a proxy in front too) when it is the same
 * for everyone — a page from the page cache, whose CSP names its scripts by
 * hash; by the reader's own browser only (`private`) when it was rendered
 * for one response, with a nonce a shared cache would hand to everyone.
 * `routeSays` is what the route itself asked for (e.g. no-store for the page
 * with a reset token).
 */
export function pageCacheControl(page: { signedIn: boolean; method: string; status: number; routeSays?: string | null; sameForEveryone?: boolean }): string {
  if (page.signedIn || page.status !== 200 || (page.method !== "GET" && page.method !== "HEAD")) return "private, no-store";
  return page.routeSays ?? `${page.sameForEveryone ? "public" : "private"}, max-age=${ANONYMOUS_PAGE_MAX_AGE}`;
}
