import type { AppLoadContext } from "@remix-run/node";
import type { IncomingMessage, ServerResponse } from "node:http";
import { createHash, randomBytes } from "node:crypto";
import { gzipSync } from "node:zlib";
import { pageCacheControl } from "~/lib/cache-control";
import { dayOfYear } from "~/lib/time/dates";
import { listSearch, readListState } from "~/lib/links";
import { readCentury } from "~/lib/time/periods";
import { PUBLIC_LOG_PATH } from "~/lib/moderation/public-log";
import { REVISION_ID } from "~/lib/revisions";
import { readTimelineAfter, timelineAfterParam } from "~/lib/time/timeline-after";
import { isTag } from "~/lib/tags";
import type { AppForServer } from "~/server-interface.server";
import { clientAddress } from "./data-answers";
import { contentSecurityPolicy } from "./security";

/**
 * Rendered pages, kept until anything they show changes. React and Remix
 * take milliseconds per page; a cached page takes microseconds.
 *
 * - Only GET pages whose HTML depends on nothing but the URL and who reads it:
 *   the landing page, the list, an article (not in edit mode), the conflicts
 *   page, with no query parameters but `q`, `tag`, `limit` and the filter by
 *   time (`century`, `from`, `to`); the landing page keyed by the day in
 *   Europe/Bratislava ("Na dnešný deň"), the timeline from its start, from
 *   a century and after an article (as its "Ďalej v čase" link writes it);
 *   and the two 404
 *   pages (an unknown address, a missing article), which do not depend on
 *   the address, so that asking for random addresses costs what a cached page does.
 * - An article's history, by its `page` alone: rendering one is a table of
 *   50 rows, milliseconds each time. An old revision (`revision`) and a
 *   comparison (`from` and `to`) by those alone, whatever else the address
 *   has: they never change (but by a write, which empties the cache), and
 *   rendering one costs a large text or a diff. They are kept with the
 *   searches: there is an address for every pair of revisions. A history
 *   page is sent `private`: a proxy in front keeps no copy that could show
 *   a part moderation has since hidden.
 * - Never a hidden article's page or history (only its author and admins
 *   read it, rendered each time): a visitor gets the missing article's page.
 * - The public moderation log (/moderation), by its `page` alone: the route
 *   redirects any other spelling of a page, and a page past the last, to
 *   the page it shows, and a redirect is not kept.
 * - The forms a visitor opens, the same for every visitor (VISITOR_FORMS):
 *   kept for visitors only — a signed-in reader is sent on from them or gets
 *   a form of their own, and a page with a token (a reset link) is never one.
 * - The Atom feeds (the site's, a known tag's) and the sitemap (not its
 *   numbered files of a large site, up to a megabyte each): the same for
 *   every reader, signed in or not, so one entry each, served with the
 *   headers and validators their routes gave them.
 * - Keyed by URL and by the reader: visitors share entries; a signed-in user
 *   (with their admin status) has entries of their own, never shown to anyone else.
 * - Pages of a search (`q`) are kept apart, in a smaller store: searches are
 *   as many as anyone cares to type, and a stream of new ones pushes out only
 *   other searches, never the site's pages. So are the lists filtered by time
 *   (as many as the years) and the timeline's pages after an article (as
 *   many as the articles).
 * - Emptied as soon as the app's data stamp changes, which any write to what
 *   pages show does, whoever writes (app/db/changes.server.ts): no writer has
 *   to remember the cache.
 * - Each entry has a weak ETag: a browser that revalidates a page it has
 *   gets 304 and no body.
 * - The same bytes for everyone who shares an entry, so a proxy in front may
 *   keep anonymous pages too: instead of a nonce, which would be handed to
 *   everyone, the Content-Security-Policy of a kept page names its inline
 *   scripts by their SHA-256 hashes (computed once, when it is stored). Only
 *   the scripts the app rendered are hashed — those that carry the
 *   placeholder nonce — so a script an author managed to put into a page has
 *   no hash in the policy and does not run, as it would not with a nonce.
 *   Pages rendered for one response (forms, the account, admin) keep a fresh
 *   nonce each.
 */

/**
 * The nonce a kept page is rendered with, removed before it is stored. Random
 * for each process, so nobody can type it into an article and have it taken
 * for an attribute.
 */
export const NONCE_PLACEHOLDER = `@@${randomBytes(15).toString("base64url")}@@`;
/** How much a store keeps before it lets the least recently used pages go. */
type StoreLimits = { maxEntries: number; maxBytes: number };
// Bytes as held (each page plain and gzipped): about what the cache took before it kept pages this way.
const PAGE_LIMITS: StoreLimits = { maxEntries: 500, maxBytes: 30 * 1024 * 1024 };
const SEARCH_LIMITS: StoreLimits = { maxEntries: 200, maxBytes: 5 * 1024 * 1024 };

const CACHEABLE_PATH = /^\/(?:posts(?:\/[\w-]+)?|conflicts)?$/;
const CACHEABLE_PARAMS = new Set(["q", "tag", "limit", "century", "from", "to"]);
const ARTICLE_PATH = /^\/posts\/([\w-]+)$/;
const HISTORY_PATH = /^\/posts\/([\w-]+)\/history$/;
// Page numbers as the history and the public log write them; a page past the last answers 404 (the history) or a redirect (the log), and is not kept.
const PAGE_SEARCH = /^(?:\?page=[1-9]\d{0,5})?$/;
// Exactly as the site's links write them: any other spelling is rendered each time.
const VISITOR_FORMS = new Set(["/signinsignup", "/signinsignup?mode=register", "/signinsignup?forgot", "/signinsignup?redirectTo=/create-post", "/reset-password"]);
// Pages a visitor is sent on from (to sign in first): the redirect is kept, as the app answered it.
const VISITOR_REDIRECTS = new Set(["/create-post"]);
// Answers of resource routes, the same for every reader (resourcePage).
const RESOURCE_PATHS = new Set(["/feed.xml", "/sitemap.xml"]);

export type Entry = {
  status: 200 | 302 | 404;
  plain: Buffer;
  gzipped: Buffer;
  /** The page's own Content-Security-Policy: its inline scripts by hash. */
  csp: string;
  contentType: string;
  bytes: number;
  /** A weak validator (the same page, gzipped or not). */
  etag: string;
  /** Where a kept redirect sends the visitor (it has no body, and no headers of a page). */
  location?: string;
  /** A feed's or the sitemap's own Cache-Control, ETag and Last-Modified, sent instead of a page's. */
  resourceHeaders?: Record<string, string>;
  /** Only the reader's own browser may keep it, never a proxy: an article's history, whose parts moderation may hide at any moment. */
  privateToReader?: boolean;
};

const INLINE_SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script>/g;

/**
 * The CSP sources of the inline scripts the app rendered into a page (those
 * with the placeholder nonce; any other script gets none and will not run):
 * each script's text as the browser hashes it, its line ends made \n as the
 * HTML parser does.
 */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const [, attributes, text] of html.matchAll(INLINE_SCRIPT)) {
    if (!attributes.includes(` nonce="${NONCE_PLACEHOLDER}"`) || /\bsrc=/.test(attributes)) continue;
    hashes.add(`'sha256-${createHash("sha256").update(text.replace(/\r\n?/g, "\n")).digest("base64")}'`);
  }
  return [...hashes];
}

/** The stored pages, emptied whenever `dataStamp()` changes. */
export class PageStore {
  private entries = new Map<string, Entry>();
  private totalBytes = 0;
  private stamp: unknown;
  /** Bumped by every change of the data: a page rendered before one must not be stored after it. */
  private changes = 0;

  constructor(
    private readonly dataStamp: (options?: { fresh?: boolean }) => unknown,
    private readonly limits: StoreLimits = PAGE_LIMITS,
  ) {
    this.stamp = dataStamp({ fresh: true });
  }

  /** How many changes of the data this store has seen; empties it if there is a new one (`fresh`: asking the database now). */
  version({ fresh = false } = {}): number {
    const stamp = this.dataStamp({ fresh });
    if (stamp !== this.stamp) {
      this.stamp = stamp;
      this.changes++;
      this.entries.clear();
      this.totalBytes = 0;
    }
    return this.changes;
  }

  has(key: string): boolean {
    this.version();
    return this.entries.has(key);
  }

  get(key: string): Entry | undefined {
    this.version();
    const entry = this.entries.get(key);
    if (entry) {
      // Most recently used last, so the oldest goes first when the cache is full.
      this.entries.delete(key);
      this.entries.set(key, entry);
    }
    return entry;
  }

  /** Prepare a rendered page for serving; keep it unless the data changed since `renderedAt` (a version()). */
  store(
    key: string,
    html: string,
    contentType: string,
    renderedAt: number,
    status: Entry["status"] = 200,
    { resourceHeaders, location, privateToReader }: Pick<Entry, "resourceHeaders" | "location" | "privateToReader"> = {},
  ): Entry {
    const csp = contentSecurityPolicy(inlineScriptHashes(html));
    const plain = Buffer.from(html.replaceAll(` nonce="${NONCE_PLACEHOLDER}"`, ""));
    const gzipped = gzipSync(plain, { level: 9 });
    const etag = `W/"${createHash("sha256").update(plain).digest("base64url").slice(0, 22)}"`;
    const entry = { status, plain, gzipped, csp, contentType, bytes: plain.length + gzipped.length, etag, resourceHeaders, location, privateToReader };
    // Asked afresh: a write by any process while the page was rendered keeps it out.
    if (renderedAt !== this.version({ fresh: true })) return entry;
    this.entries.set(key, entry);
    this.totalBytes += entry.bytes;
    for (const [oldest, old] of this.entries) {
      if (this.entries.size <= this.limits.maxEntries && this.totalBytes <= this.limits.maxBytes) break;
      this.entries.delete(oldest);
      this.totalBytes -= old.bytes;
    }
    return entry;
  }
}

/** The Remix route an address matches (the deepest), with its parameters. */
export type RouteMatch = { id: string; params: Record<string, string | undefined> };

/** A request the page cache may answer: the entry's key, the status the page has, the address to render it from, and whether it is kept with the searches. */
type Page = {
  key: string;
  status: Entry["status"];
  renderUrl: URL;
  articleId?: string;
  searched?: boolean;
  visitorsOnly?: boolean;
  resource?: boolean;
  /** The day of the year a page that shows "Na dnešný deň" is kept for (the landing page): in its key, and the same when it was rendered. */
  day?: number;
  /** A list at its canonical address, not a search: which page it is follows from the address alone. */
  listAddress?: boolean;
};
/** How many list addresses are remembered (pageOfTarget); past it, they are forgotten all at once. */
const LIST_ADDRESSES_REMEMBERED = 1_000;

type PageCacheOptions = {
  pages: Pick<AppForServer["pages"], "dataStamp" | "articleState" | "readerOf" | "knownReader">;
  /** Renders a page of the app, as the Remix handler does. */
  render: (request: Request, context: AppLoadContext) => Promise<Response>;
  /** Which route of the app answers an address; asked only for addresses that are not plainly a cached page (matching costs more than serving one). */
  matchRoute: (pathname: string) => RouteMatch | undefined;
  publicUrl: string;
  /** A visitor's page of a search made from a kept page of its list (server/search-pages.ts); null when it must be rendered whole. */
  searchPage?: (url: URL, context: AppLoadContext) => Promise<string | null>;
  /** The headers the server gives every answer (server/security.ts); a kept page's own policy replaces theirs. */
  securityHeaders: Record<string, string>;
  /** Whether the client's address is the proxy's X-Forwarded-For (a page is rendered for whoever asked first). */
  trustProxy?: boolean;
};

/** The whole header lists of one entry for one kind of reader, made once: a 304, and the page gzipped or plain. */
type EntryHeaders = { notModified: string[]; gzipped: string[]; plain: string[] };

/**
 * The page cache in front of the app: `serve` answers a request from it
 * (rendering and keeping the page first if need be), or returns false when
 * the app must handle the request itself.
 */
export function createPageCache({ pages, render, matchRoute, publicUrl, searchPage, securityHeaders, trustProxy = false }: PageCacheOptions) {
  const pageStore = new PageStore(pages.dataStamp);
  const searchStore = new PageStore(pages.dataStamp, SEARCH_LIMITS);
  const storeOf = (page: Page) => (page.searched ? searchStore : pageStore);
  const filling = new Map<string, Promise<Entry | null>>();

  /**
   * A missing article's page shows only the list's tag and limit (its way back
   * leaves out a search, which would make an entry per search): one entry for
   * each list, whatever id was asked for.
   */
  function missingArticle(url: URL): Page {
    const search = listSearch({ ...readListState(url.searchParams), q: "" });
    return { key: `404 /posts${search}`, status: 404, renderUrl: new URL(`/posts/-${search}`, url) };
  }

  /** A feed or the sitemap, by its canonical address (a tag's feed however its tag is %-escaped). */
  function resourcePage(url: URL): Page | null {
    const resource = (key: string): Page => ({ key, status: 200, renderUrl: url, resource: true });
    if (url.pathname === "/sitemap.xml") return url.search === "" ? resource(url.pathname) : null;
    const params = [...url.searchParams];
    if (params.length === 0) return resource(url.pathname);
    const [[name, tag]] = params;
    return params.length === 1 && name === "tag" && isTag(tag) ? resource(`/feed.xml?tag=${encodeURIComponent(tag)}`) : null;
  }

  function cacheablePage(url: URL): Page | null {
    if (CACHEABLE_PATH.test(url.pathname)) {
      const articleId = ARTICLE_PATH.exec(url.pathname)?.[1];
      // Only canonical addresses (a known tag, a whole number of pages), so
      // junk values can neither fill the cache nor push real pages out of it.
      const list = readListState(url.searchParams);
      const search = listSearch(list);
      const canonical = onlyListParams(url.searchParams) && !list.unknownTag && `?${url.searchParams}` === (search || "?");
      // The landing page shows today's articles ("Na dnešný deň"): a new day is a new entry.
      if (url.pathname === "/" && url.search === "") {
        const day = dayOfYear(Date.now());
        return { key: `/ ${day}`, status: 200, renderUrl: url, day };
      }
      // Keyed by the canonical form too: the same list spelt with other %-escapes is one entry. A list
      // filtered by time is kept with the searches: its addresses are as many as the years.
      const searched = list.q !== "" || list.period !== null;
      if (canonical) return { key: `${url.pathname}${search}`, status: 200, renderUrl: url, articleId, searched, listAddress: !searched && articleId === undefined };
      return articleId !== undefined && pages.articleState(articleId) === "missing" ? missingArticle(url) : null;
    }
    if (RESOURCE_PATHS.has(url.pathname)) return resourcePage(url);
    if (url.pathname === "/timeline") {
      // The timeline from its start or from a century.
      if (url.search === "" || `?century=${readCentury(url.searchParams.get("century"))}` === url.search) return { key: `${url.pathname}${url.search}`, status: 200, renderUrl: url };
      // A page after an article, as its "Ďalej v čase" link writes it: kept with the searches, as many as the articles.
      const after = readTimelineAfter(url.searchParams.get("after"));
      if (after && url.search === `?after=${timelineAfterParam({ periodStart: after.start, id: after.id })}`) {
        return { key: `${url.pathname}${url.search}`, status: 200, renderUrl: url, searched: true };
      }
      return null;
    }
    const address = `${url.pathname}${url.search}`;
    if (VISITOR_FORMS.has(address)) return { key: address, status: 200, renderUrl: url, visitorsOnly: true };
    if (VISITOR_REDIRECTS.has(address)) return { key: address, status: 302, renderUrl: url, visitorsOnly: true };
    const historyOf = HISTORY_PATH.exec(url.pathname)?.[1];
    if (historyOf !== undefined) {
      if (pages.articleState(historyOf) !== "shown") return null;
      if (PAGE_SEARCH.test(url.search)) return { key: `${url.pathname}${url.search}`, status: 200, renderUrl: url };
      const version = versionQuery(url.searchParams);
      return version ? { key: `${url.pathname}${version}`, status: 200, renderUrl: new URL(`${url.pathname}${version}`, url), searched: true } : null;
    }
    // Its route redirects a page number written otherwise (or past the last): only real pages are kept.
    if (url.pathname === PUBLIC_LOG_PATH) return PAGE_SEARCH.test(url.search) ? { key: `${url.pathname}${url.search}`, status: 200, renderUrl: url } : null;
    const route = matchRoute(url.pathname);
    // Every unknown address gets the same page.
    if (route?.id === "routes/$") return { key: "404", status: 404, renderUrl: new URL("/404", url) };
    // An article's address written otherwise (%-escapes, a trailing slash).
    if (route?.id === "routes/posts.$postId" && pages.articleState(route.params.postId ?? "") === "missing") return missingArticle(url);
    return null;
  }

  /**
   * The lists' addresses, read once: reading one (its URL, its parameters,
   * their canonical spelling) cost more than sending its kept page (a list
   * by a tag answered a quarter fewer requests than /posts). Not articles'
   * addresses: as many as anyone makes up, they would push the lists out.
   */
  const addressPages = new Map<string, Page>();

  /** cacheablePage of a request's target (its path and query), remembered for a list's address. */
  function pageOfTarget(target: string): Page | null {
    const remembered = addressPages.get(target);
    if (remembered) return remembered;
    const page = cacheablePage(new URL(target, publicUrl));
    if (page?.listAddress) {
      if (addressPages.size >= LIST_ADDRESSES_REMEMBERED) addressPages.clear();
      addressPages.set(target, page);
    }
    return page;
  }

  /** The page a request may be served from, and whether a reader's own (signed in) or everyone's; null when it must be rendered afresh. */
  function candidatePage(method: string, target: string, cookie: string | undefined): { page: Page; signedIn: boolean } | null {
    if (method !== "GET" && method !== "HEAD") return null;
    // The word after an action is this reader's, once (app/services/platform/notice.server.ts): rendered afresh.
    if (cookie?.includes("dejiny_notice=")) return null;
    const page = pageOfTarget(target);
    if (!page) return null;
    const signedIn = !page.resource && Boolean(cookie?.includes("dejiny_session="));
    return page.visitorsOnly && signedIn ? null : { page, signedIn };
  }

  /** Which entry a candidate page is for `reader` (readerOf), or null when its page must be rendered afresh. */
  function readersPage({ page, signedIn }: { page: Page; signedIn: boolean }, reader: string): (Page & { signedIn: boolean }) | null {
    if (page.resource) return { ...page, key: `anyone ${page.key}`, signedIn };
    // An article whose page is cached exists and is shown (any change empties the cache): only a miss asks the database.
    if (page.articleId !== undefined && !storeOf(page).has(`${reader} ${page.key}`)) {
      const state = pages.articleState(page.articleId);
      // A hidden article is its author's and the admins' only: the app answers a signed-in reader each time (and
      // nothing keeps its page); a visitor gets the very page of an article that does not exist.
      if (state === "hidden" && signedIn) return null;
      if (state !== "shown") page = missingArticle(page.renderUrl);
    }
    return { ...page, key: `${reader} ${page.key}`, signedIn };
  }

  /** Which entry a request may be served from (`signedIn` pages are for that user only), or null when its page must be rendered afresh. */
  async function pageFor(method: string, target: string, cookie: string | undefined): Promise<(Page & { signedIn: boolean }) | null> {
    const candidate = candidatePage(method, target, cookie);
    return candidate && readersPage(candidate, candidate.signedIn ? await pages.readerOf(cookie!) : "visitor");
  }

  /** answerKept's entry, nothing sent yet; undefined when there is none, or the database could not be asked. */
  function keptFor(req: IncomingMessage): { page: Page & { signedIn: boolean }; entry: Entry; userId: string | null } | undefined {
    try {
      const candidate = candidatePage(req.method!, req.url!, req.headers.cookie);
      const known = candidate && (candidate.signedIn ? pages.knownReader(req.headers.cookie!) : { reader: "visitor", userId: null });
      const page = known && readersPage(candidate, known.reader);
      const entry = page ? storeOf(page).get(page.key) : undefined;
      return page && entry && !entry.location && !entry.resourceHeaders ? { page, entry, userId: known!.userId } : undefined;
    } catch {
      return undefined;
    }
  }

  const entryHeaders = new WeakMap<Entry, { visitor?: EntryHeaders; signedIn?: EntryHeaders }>();

  /** An entry's headers for a visitor or a signed-in reader (whose copy no one may keep), in the order they were always sent. */
  function headersOf(entry: Entry, signedIn: boolean): EntryHeaders {
    const kept = entryHeaders.get(entry) ?? {};
    const reader = signedIn ? "signedIn" : "visitor";
    if (kept[reader]) return kept[reader];
    const notModified = Object.entries({
      ...securityHeaders,
      "Content-Security-Policy": entry.csp,
      "Cache-Control": pageCacheControl({ signedIn, method: "GET", status: entry.status, sameForEveryone: !entry.privateToReader }),
      Vary: "Accept-Encoding, Cookie",
      ...(entry.status === 200 ? { ETag: entry.etag } : {}),
    }).flat();
    const withBody = (body: Buffer, encoding: string[]) => [...notModified, "Content-Type", entry.contentType, "Content-Length", String(body.length), ...encoding];
    kept[reader] = { notModified, gzipped: withBody(entry.gzipped, ["Content-Encoding", "gzip"]), plain: withBody(entry.plain, []) };
    entryHeaders.set(entry, kept);
    return kept[reader];
  }

  /** A kept page in one write: a 304 when the reader has it, gzipped when asked. */
  function sendPage(req: IncomingMessage, res: ServerResponse, page: { signedIn: boolean }, entry: Entry): void {
    const headers = headersOf(entry, page.signedIn);
    if (entry.status === 200 && matchesEtag(req.headers["if-none-match"], entry.etag)) {
      res.writeHead(304, headers.notModified);
      res.end();
      return;
    }
    const gzip = acceptsGzip(req.headers["accept-encoding"]);
    res.writeHead(entry.status, gzip ? headers.gzipped : headers.plain);
    res.end(req.method === "HEAD" ? undefined : gzip ? entry.gzipped : entry.plain);
  }

  async function fill(page: Page & { signedIn: boolean }, req: IncomingMessage): Promise<Entry | null> {
    const store = storeOf(page);
    const renderedAt = store.version();
    const context = { clientAddress: clientAddress(req, trustProxy), cspNonce: NONCE_PLACEHOLDER };
    // A signed-in reader's search is rendered whole: their pages show who they are.
    const searched = page.searched && !page.signedIn && searchPage ? await searchPage(page.renderUrl, context) : null;
    if (searched !== null) return store.store(page.key, searched, "text/html; charset=utf-8", renderedAt);
    const request = new Request(page.renderUrl, { headers: { cookie: req.headers.cookie ?? "", "user-agent": "dejiny-page-cache" } });
    const response = await render(request, context);
    const html = await response.text();
    // A page that is not what its key says (e.g. the article was just deleted, or the day changed while it was rendered) is rendered afresh instead.
    if (response.status !== page.status || response.headers.has("set-cookie")) return null;
    if (page.day !== undefined && dayOfYear(Date.now()) !== page.day) return null;
    const resourceHeaders = page.resource ? pickHeaders(response.headers, ["Cache-Control", "ETag", "Last-Modified"]) : undefined;
    const location = response.headers.get("location") ?? undefined;
    const privateToReader = HISTORY_PATH.test(page.renderUrl.pathname);
    return store.store(page.key, html, response.headers.get("content-type") ?? "text/html; charset=utf-8", renderedAt, page.status, { resourceHeaders, location, privateToReader });
  }

  return {
    /** Serve the request from the page cache if it can be; false when the app must handle it. */
    async serve(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
      const page = await pageFor(req.method!, req.url!, req.headers.cookie);
      if (!page) return false;
      let entry = storeOf(page).get(page.key);
      if (!entry) {
        // Concurrent first requests for a page share one rendering.
        if (!filling.has(page.key)) filling.set(page.key, fill(page, req).finally(() => filling.delete(page.key)));
        entry = (await filling.get(page.key)) ?? undefined;
        if (!entry) return false;
      }
      if (entry.location) {
        res.writeHead(entry.status, { Location: entry.location });
        res.end();
        return true;
      }
      if (entry.resourceHeaders) {
        sendKept(req, res, entry, entry.resourceHeaders);
        return true;
      }
      sendPage(req, res, page, entry);
      return true;
    },

    /**
     * `serve` for a page already kept, when who reads it is known at once
     * (knownReader): answered synchronously, before the server sets a header,
     * with header lists made once per entry. False, having done nothing, for
     * anything else (a page to render, a redirect, a feed, a reader to look
     * up, or the database failing to say): `serve` then answers, and meets
     * any such failure itself. `noteReader` gets the user for the log line.
     */
    answerKept(req: IncomingMessage, res: ServerResponse, noteReader: (userId: string | null) => void): boolean {
      const kept = keptFor(req);
      if (!kept) return false;
      noteReader(kept.userId);
      sendPage(req, res, kept.page, kept.entry);
      return true;
    },
  };
}

/** Those of `names` the response has. */
function pickHeaders(headers: Headers, names: string[]): Record<string, string> {
  return Object.fromEntries(names.flatMap((name) => (headers.has(name) ? [[name, headers.get(name)!]] : [])));
}

/** Whether the reader's copy is current: If-None-Match (compared weakly) wins over If-Modified-Since (RFC 9110, 13.2.2). */
export function readerHasIt(req: IncomingMessage, etag: string, lastModified: string | undefined): boolean {
  const ifNoneMatch = req.headers["if-none-match"];
  if (ifNoneMatch) return matchesEtag(ifNoneMatch, etag);
  const since = Date.parse(req.headers["if-modified-since"] ?? "");
  // HTTP dates have whole seconds.
  return lastModified !== undefined && !Number.isNaN(since) && Math.floor(Date.parse(lastModified) / 1000) * 1000 <= since;
}

/** A kept body that is not a page (a feed, robots.txt, …) with its own headers: 304 when the reader has it, gzipped when asked. */
export function sendKept(req: IncomingMessage, res: ServerResponse, body: { plain: Buffer; gzipped: Buffer | null; contentType: string }, headers: Record<string, string>): void {
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  // As the compression middleware said of every compressible type, compressed or not.
  res.setHeader("Vary", "Accept-Encoding");
  if (headers.ETag && readerHasIt(req, headers.ETag, headers["Last-Modified"])) {
    res.statusCode = 304;
    res.end();
    return;
  }
  const gzip = body.gzipped !== null && acceptsGzip(req.headers["accept-encoding"]);
  const sent = gzip ? body.gzipped! : body.plain;
  res.setHeader("Content-Type", body.contentType);
  res.setHeader("Content-Length", sent.length);
  if (gzip) res.setHeader("Content-Encoding", "gzip");
  res.end(req.method === "HEAD" ? undefined : sent);
}

/** An old revision's or a comparison's query as the history route reads it (`revision` first), the rest of the address left out; null for anything else. */
export function versionQuery(params: URLSearchParams): string | null {
  const revision = params.get("revision");
  if (revision !== null) return REVISION_ID.test(revision) ? `?revision=${revision}` : null;
  const [from, to] = [params.get("from"), params.get("to")];
  return from !== null && to !== null && REVISION_ID.test(from) && REVISION_ID.test(to) ? `?from=${from}&to=${to}` : null;
}

function onlyListParams(params: URLSearchParams): boolean {
  for (const name of params.keys()) if (!CACHEABLE_PARAMS.has(name)) return false;
  return true;
}

/** If-None-Match names this entry (compared weakly, as RFC 9110 asks for If-None-Match). */
export function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, "");
  return header.split(",").some((tag) => tag.trim() === "*" || opaque(tag) === opaque(etag));
}

export function acceptsGzip(header = ""): boolean {
  return header.split(",").some((part) => {
    const [coding, ...params] = part.trim().split(";");
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    return coding.trim() === "gzip" && (!q || Number(q.slice(2)) > 0);
  });
}
