import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { NONCE_PLACEHOLDER, PageStore, renderPage } from "../../server/page-cache";

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
