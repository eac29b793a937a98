import type { IncomingMessage, ServerResponse } from "node:http";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { createPageCache, NONCE_PLACEHOLDER, PageStore, renderPage } from "../../server/page-cache";

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
  it("splices each response's nonce into the page, gzipped or not", () => {
    const entry = storePage("visitor /posts", html(500), "text/html; charset=utf-8", pageVersion());
    for (const nonce of ["AAAAAAAAAAAAAAAAAAAAAA==", "b+/9zzzzzzzzzzzzzzzzzz=="]) {
      const expected = html(500).replaceAll(NONCE_PLACEHOLDER, nonce);
      expect(renderPage(entry, nonce, false).toString()).toBe(expected);
      const gzipped = renderPage(entry, nonce, true);
      expect(gunzipSync(gzipped).toString()).toBe(expected);
      expect(gzipped.length).toBeLessThan(Buffer.byteLength(expected) / 5);
    }
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

describe("searches in the page cache", () => {
  // The cache in front of a stand-in app that counts its renderings of each address.
  const renders = new Map<string, number>();
  const cache = createPageCache({
    pages: { dataStamp: () => 0, articleExists: () => true, readerOf: async () => "visitor" },
    render: async (request) => {
      const { pathname, search } = new URL(request.url);
      renders.set(`${pathname}${search}`, (renders.get(`${pathname}${search}`) ?? 0) + 1);
      return new Response(html(20), { headers: { "content-type": "text/html; charset=utf-8" } });
    },
    matchRoute: () => undefined,
    publicUrl: "http://dejiny.test",
  });
  async function get(url: string) {
    const request = { url, method: "GET", headers: {}, socket: { remoteAddress: "127.0.0.1" } } as unknown as IncomingMessage;
    const response = { statusCode: 0, setHeader: () => undefined, end: () => undefined } as unknown as ServerResponse;
    expect(await cache.serve(request, response, "AAAAAAAAAAAAAAAAAAAAAA==")).toBe(true);
  }

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
});
