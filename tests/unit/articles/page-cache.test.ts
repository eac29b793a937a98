import type { IncomingMessage, ServerResponse } from "node:http";
import { gunzipSync } from "node:zlib";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createHash } from "node:crypto";
import { createPageCache, inlineScriptHashes, NONCE_PLACEHOLDER, PageStore } from "../../../server/page-cache";

// The database's data stamp, as the app reports it: a write gives it a new value.
let stamp = 0;
const pages = new PageStore(() => stamp);
const invalidatePages = () => stamp++;
const pageVersion = () => pages.version();
const storePage = pages.store.bind(pages);
const getPage = pages.get.bind(pages);

const html = (n: number) =>
  `<!DOCTYPE html><html><head><script nonce="${NONCE_PLACEHOLDER}">a()</script></head><body>${"<p>Veľká Morava</p>".repeat(n)}` +
  `<script nonce="${NONCE_PLACEHOLDER}">b()</script></body></html>`;

describe("page cache", () => {
  const sha256 = (text: string) => `'sha256-${createHash("sha256").update(text).digest("base64")}'`;

  it("keeps one page for everyone: no nonce, and a policy that names its inline scripts by hash", () => {
    const entry = storePage("visitor /posts", html(500), "text/html; charset=utf-8", pageVersion());
    const expected = html(500).replaceAll(` nonce="${NONCE_PLACEHOLDER}"`, "");
    expect(entry.plain.toString()).toBe(expected);
    expect(gunzipSync(entry.gzipped).toString()).toBe(expected);
    expect(entry.gzipped.length).toBeLessThan(entry.plain.length / 5);
    expect(entry.csp).toContain(`script-src 'self' ${sha256("a()")} ${sha256("b()")};`);
    expect(entry.csp).not.toContain("nonce");
  });

  it("hashes the app's inline scripts as a browser does, leaves scripts from files to 'self', and any other script out", () => {
    const nonce = ` nonce="${NONCE_PLACEHOLDER}"`;
    const page = `<script${nonce} type="module">import "a";\r\nx()</script><script${nonce} src="/assets/e.js"></script><script${nonce}>a()</script><script${nonce}>a()</script>`;
    // A script that slipped past the sanitiser (or came with an old row) has no nonce, so no hash: it does not run.
    const smuggled = "<p><script>steal()</script></p>";
    expect(inlineScriptHashes(page + smuggled)).toEqual([sha256('import "a";\nx()'), sha256("a()")]);
    expect(storePage("visitor /smuggled", page + smuggled, "text/html", pageVersion()).csp).not.toContain(sha256("steal()"));
    // Typed by an author, the placeholder of another process (or of old) is text, not an attribute to remove.
    const typed = `<p>@@DEJINY-NONCE-0000000@@ nonce="${NONCE_PLACEHOLDER.replace("@@", "@@x")}"</p>`;
    expect(storePage("visitor /x", typed, "text/html", pageVersion()).plain.toString()).toBe(typed);
  });

  it("keeps pages until a write, and never stores a page rendered before one", () => {
    invalidatePages();
    const before = pageVersion();
    storePage("visitor /", html(1), "text/html", before);
    expect(getPage("visitor /")).toBeDefined();
    invalidatePages();
    expect(getPage("visitor /")).toBeUndefined();
    storePage("visitor /", html(1), "text/html", before);
    expect(getPage("visitor /")).toBeUndefined();
  });
});

/** The cache in front of a stand-in app that counts its renderings of each address (`duringRender` runs in each); `serve` tells whether the cache answered. */
function standInCache(duringRender: () => void = () => {}) {
  const renders = new Map<string, number>();
  const cache = createPageCache({
    pages: { dataStamp: () => 0, articleState: () => "shown" as const, readerOf: async () => "visitor", knownReader: () => ({ reader: "visitor", userId: null }) },
    render: async (request) => {
      const { pathname, search } = new URL(request.url);
      renders.set(`${pathname}${search}`, (renders.get(`${pathname}${search}`) ?? 0) + 1);
      duringRender();
      return new Response(html(20), { headers: { "content-type": "text/html; charset=utf-8" } });
    },
    matchRoute: () => undefined,
    publicUrl: "http://dejiny.test",
    securityHeaders: {},
  });
  async function serve(url: string): Promise<boolean> {
    const request = { url, method: "GET", headers: {}, socket: { remoteAddress: "127.0.0.1" } } as unknown as IncomingMessage;
    const response = { statusCode: 0, setHeader: () => undefined, writeHead: () => undefined, end: () => undefined } as unknown as ServerResponse;
    return cache.serve(request, response);
  }
  return { renders, serve };
}

describe("searches in the page cache", () => {
  const { renders, serve } = standInCache();
  const get = async (url: string) => expect(await serve(url)).toBe(true);

  it("keeps a search's page like the list's, and a stream of new searches never pushes out the site's pages", async () => {
    await get("/posts");
    await get("/posts?tag=Morava");
    await get("/posts?q=stefanik");
    await get("/posts?q=stefanik");
    expect(renders.get("/posts?q=stefanik")).toBe(1);
    for (let i = 0; i < 1_000; i++) await get(`/posts?q=hladanie${i}`);
    await get("/posts");
    await get("/posts?tag=Morava");
    expect(renders.get("/posts")).toBe(1);
    expect(renders.get("/posts?tag=Morava")).toBe(1);
    // The searches pushed out one another.
    await get("/posts?q=stefanik");
    expect(renders.get("/posts?q=stefanik")).toBe(2);
  });

  it("keeps one entry for a list however its address is %-escaped", async () => {
    const spellings = ["/posts?tag=Morava&limit=18", "/posts?tag=Morav%61&limit=18", "/posts?tag=%4Dorava&limit=1%38"];
    for (const url of spellings) await get(url);
    expect(spellings.map((url) => renders.get(url) ?? 0)).toEqual([1, 0, 0]);
  });
});

describe("pages that follow time in the page cache", () => {
  let duringRender = () => {};
  const { renders, serve: get } = standInCache(() => duringRender());
  afterEach(() => {
    vi.useRealTimers();
    duringRender = () => {};
  });

  it("keeps the landing page ('Na dnešný deň') for its day in Bratislava: a new day renders it again", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    // 23:30 in Bratislava (UTC+1 in November).
    vi.setSystemTime(new Date("2026-11-27T22:30:00Z"));
    await get("/");
    await get("/");
    expect(renders.get("/")).toBe(1);
    vi.setSystemTime(new Date("2026-11-27T23:00:00Z"));
    await get("/");
    expect(renders.get("/")).toBe(2);
    await get("/");
    expect(renders.get("/")).toBe(2);
  });

  it("does not keep a landing page whose rendering spanned midnight", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-12-01T22:59:59.990Z"));
    duringRender = () => vi.setSystemTime(new Date("2026-12-01T23:00:00.010Z"));
    await get("/");
    duringRender = () => {};
    await get("/");
    expect(renders.get("/")).toBe(4);
    await get("/");
    expect(renders.get("/")).toBe(4);
  });

  it("keeps the timeline from its start, from a century and after an article as its link writes it, not a junk address", async () => {
    const kept = ["/timeline", "/timeline?century=-1", "/timeline?century=9", "/timeline?after=15260829.abc", "/timeline?after=-430000.x-Y_1"];
    for (let i = 0; i < 2; i++) for (const url of kept) expect(await get(url)).toBe(true);
    expect(kept.map((url) => renders.get(url))).toEqual([1, 1, 1, 1, 1]);
    const junk = ["/timeline?century=09", "/timeline?century=0", "/timeline?x=1", "/timeline?after=015260829.abc", "/timeline?after=15260829%2Eabc", "/timeline?after=x", "/timeline?after=1.a&century=9"];
    for (const url of junk) expect(await get(url), url).toBe(false);
    // Kept with the searches: a stream of them pushes out only one another.
    for (let i = 0; i < 1_000; i++) await get(`/timeline?after=${i}.a`);
    await get("/timeline");
    expect(renders.get("/timeline")).toBe(1);
  });

  it("keeps a list filtered by time with the searches, under its one spelling", async () => {
    await get("/posts?century=9");
    await get("/posts?century=9");
    await get("/posts?from=-500&to=476");
    expect([renders.get("/posts?century=9"), renders.get("/posts?from=-500&to=476")]).toEqual([1, 1]);
    expect(await get("/posts?to=476&from=-500")).toBe(false);
    expect(await get("/posts?century=abc")).toBe(false);
  });
});
