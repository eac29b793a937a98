import { randomBytes } from "node:crypto";
import { constants, crc32, deflateRawSync } from "node:zlib";
import { listSearch, readListState } from "~/lib/links";
import { postExists } from "~/models/posts.server";
import { getCurrentUser } from "./session.server";

/**
 * Rendered pages, kept until anything about the posts changes. React and
 * Remix take milliseconds per page; a cached page takes microseconds.
 *
 * - Only GET pages whose HTML depends on nothing but the URL and who reads it:
 *   the landing page, the list, an article (not in edit mode), the conflicts
 *   page, with no query parameters but `tag` and `limit`; and the two 404
 *   pages (an unknown address, a missing article), which do not depend on
 *   the address, so that asking for random addresses costs what a cached page does.
 * - Keyed by URL and by the reader: visitors share entries; a signed-in user
 *   (with their admin status) has entries of their own, never shown to anyone else.
 * - Emptied by `invalidatePages()`, which every write of posts calls (models/posts.server.ts).
 * - The CSP nonce differs in every response: entries hold the page split at a
 *   placeholder, as text and as independently compressed deflate parts, and
 *   each response splices in its own nonce (gzip allows stored blocks between
 *   compressed ones), so no nonce is ever served twice.
 */

/**
 * Same length as a real nonce (16 bytes in base64), so the page's layout is
 * the same; random for each process, so that nobody can type it into an
 * article and have the response's nonce spliced into their text.
 */
export const NONCE_PLACEHOLDER = `@@${randomBytes(15).toString("base64url")}@@`;
const MAX_ENTRIES = 500;
const MAX_BYTES = 48 * 1024 * 1024;

const CACHEABLE_PATH = /^\/(?:posts(?:\/[\w-]+)?|conflicts)?$/;
const CACHEABLE_PARAMS = new Set(["tag", "limit"]);

type Entry = {
  status: 200 | 404;
  parts: Buffer[];
  deflated: Buffer[];
  /** crc32 of each part alone, and how a running crc32 carries across it (see crcAcross). */
  crcs: number[];
  carries: Uint32Array[];
  contentType: string;
  bytes: number;
};

const entries = new Map<string, Entry>();
let totalBytes = 0;
/** Bumped by every write: a page rendered before a write must not be stored after it. */
let version = 0;

export function invalidatePages(): void {
  version++;
  entries.clear();
  totalBytes = 0;
}

export function pageVersion(): number {
  return version;
}

/** A request the page cache may answer: the entry's key, the status the page has, and the address to render it from. */
export type CachedPage = { key: string; status: 200 | 404; renderUrl: URL; signedIn: boolean };

/** The Remix route an address matches (the deepest), with its parameters. */
export type RouteMatch = { id: string; params: Record<string, string | undefined> };

/**
 * Which cache entry a request may be served from, or null when its page must
 * be rendered afresh. `matchRoute` tells which route of the app answers the
 * address; it is asked only for addresses that are not plainly a cached page
 * (matching costs more than serving one). `signedIn` pages are for that user
 * only (Cache-Control: private).
 */
export async function pageKey(
  method: string,
  url: URL,
  cookie: string | undefined,
  matchRoute: (pathname: string) => RouteMatch | undefined,
): Promise<CachedPage | null> {
  if (method !== "GET" && method !== "HEAD") return null;
  let page = cacheablePage(url, matchRoute);
  if (!page) return null;
  const signedIn = Boolean(cookie?.includes("dejiny_session="));
  const user = signedIn ? await getCurrentUser(new Request(url, { headers: { cookie: cookie! } })) : null;
  const reader = user ? `${user.id}:${user.isAdmin ? "admin" : "user"}` : "visitor";
  // An article whose page is cached exists (every write empties the cache): only a miss asks the database.
  if (page.articleId !== undefined && !entries.has(`${reader} ${page.key}`) && !postExists(page.articleId)) page = missingArticle(url);
  return { key: `${reader} ${page.key}`, status: page.status, renderUrl: page.renderUrl, signedIn };
}

const ARTICLE_PATH = /^\/posts\/([\w-]+)$/;

type Page = Omit<CachedPage, "signedIn"> & { articleId?: string };

/** A missing article's page shows only the list's tag and limit: one entry for each list, whatever id was asked for. */
function missingArticle(url: URL): Page {
  const search = listSearch(readListState(url.searchParams));
  return { key: `404 /posts${search}`, status: 404, renderUrl: new URL(`/posts/-${search}`, url) };
}

function onlyListParams(params: URLSearchParams): boolean {
  for (const name of params.keys()) if (!CACHEABLE_PARAMS.has(name)) return false;
  return true;
}

function cacheablePage(url: URL, matchRoute: (pathname: string) => RouteMatch | undefined): Page | null {
  if (CACHEABLE_PATH.test(url.pathname)) {
    const articleId = ARTICLE_PATH.exec(url.pathname)?.[1];
    // Only canonical addresses (a known tag, a whole number of pages), so
    // junk values can neither fill the cache nor push real pages out of it.
    const list = readListState(url.searchParams);
    const canonical = onlyListParams(url.searchParams) && !list.unknownTag && `?${url.searchParams}` === (listSearch(list) || "?");
    if (canonical) return { key: `${url.pathname}${url.search}`, status: 200, renderUrl: url, articleId };
    return articleId !== undefined && !postExists(articleId) ? missingArticle(url) : null;
  }
  const route = matchRoute(url.pathname);
  // Every unknown address gets the same page.
  if (route?.id === "routes/$") return { key: "404", status: 404, renderUrl: new URL("/404", url) };
  // An article's address written otherwise (%-escapes, a trailing slash).
  if (route?.id === "routes/posts.$postId" && !postExists(route.params.postId ?? "")) return missingArticle(url);
  return null;
}

export function getPage(key: string): Entry | undefined {
  const entry = entries.get(key);
  if (entry) {
    // Most recently used last, so the oldest goes first when the cache is full.
    entries.delete(key);
    entries.set(key, entry);
  }
  return entry;
}

/** Prepare a rendered page for serving; keep it unless a write happened since `renderedAt` (a pageVersion()). */
export function storePage(key: string, html: string, contentType: string, renderedAt: number, status: 200 | 404 = 200): Entry {
  const parts = html.split(NONCE_PLACEHOLDER).map((part) => Buffer.from(part));
  // Each part ends byte-aligned and not final, so parts and stored blocks can follow one another.
  const deflated = parts.map((part) => deflateRawSync(part, { level: 9, finishFlush: constants.Z_FULL_FLUSH }));
  const crcs = parts.map((part) => crc32(part, 0));
  const carries = parts.map((part, i) => Uint32Array.from({ length: 32 }, (_, bit) => (crc32(part, 2 ** bit) ^ crcs[i]) >>> 0));
  const entry = { status, parts, deflated, crcs, carries, contentType, bytes: parts.reduce((n, p) => n + p.length, 0) * 2 };
  if (renderedAt !== version) return entry;
  entries.set(key, entry);
  totalBytes += entry.bytes;
  for (const [oldest, old] of entries) {
    if (entries.size <= MAX_ENTRIES && totalBytes <= MAX_BYTES) break;
    entries.delete(oldest);
    totalBytes -= old.bytes;
  }
  return entry;
}

const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);
const FINAL_EMPTY_BLOCK = Buffer.from([0x01, 0x00, 0x00, 0xff, 0xff]);

/** A deflate stored block (not final) holding `bytes` (< 64 KB). */
function storedBlock(bytes: Buffer): Buffer {
  const header = Buffer.from([0x00, 0, 0, 0, 0]);
  header.writeUInt16LE(bytes.length, 1);
  header.writeUInt16LE(~bytes.length & 0xffff, 3);
  return Buffer.concat([header, bytes]);
}

/**
 * crc32(part, crc) without reading the part again: CRC-32 is linear, so
 * crc32(part, v) = crc32(part, 0) XOR carry(v), where carry is fixed by the
 * part and was worked out bit by bit when the page was stored.
 */
function crcAcross(entry: Entry, i: number, crc: number): number {
  let result = entry.crcs[i];
  const carry = entry.carries[i];
  for (let bit = 0; crc !== 0; bit++, crc >>>= 1) if (crc & 1) result ^= carry[bit];
  return result >>> 0;
}

/** The page with this response's nonce, gzipped or not. */
export function renderPage(entry: Entry, nonce: string, gzip: boolean): Buffer {
  const nonceBytes = Buffer.from(nonce);
  if (!gzip) return Buffer.concat(entry.parts.flatMap((part, i) => (i === 0 ? [part] : [nonceBytes, part])));
  const chunks: Buffer[] = [GZIP_HEADER];
  const nonceBlock = storedBlock(nonceBytes);
  let crc = 0;
  let size = 0;
  entry.parts.forEach((part, i) => {
    if (i > 0) {
      chunks.push(nonceBlock);
      crc = crc32(nonceBytes, crc);
      size += nonceBytes.length;
    }
    chunks.push(entry.deflated[i]);
    crc = crcAcross(entry, i, crc);
    size += part.length;
  });
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc >>> 0, 0);
  trailer.writeUInt32LE(size >>> 0, 4);
  chunks.push(FINAL_EMPTY_BLOCK, trailer);
  return Buffer.concat(chunks);
}
