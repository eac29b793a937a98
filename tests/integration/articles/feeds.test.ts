import { describe, expect, inject, it } from "vitest";
import { registerUser } from "../../../scripts/lib/client";
import { makeImage } from "../../../scripts/lib/images";
import { postForm } from "../../../scripts/lib/publish";
import { parseFeed } from "../../support/feeds";
import { getPage, readDatabase } from "../../support/http";

const base = inject("baseUrl");
const databasePath = inject("databasePath");

const newestIds = (limit: number, tag?: string) =>
  readDatabase(databasePath, (db) =>
    (tag
      ? db.prepare("SELECT p.id FROM posts p JOIN post_tags t ON t.post_id = p.id WHERE t.tag = ? AND p.hidden_at IS NULL ORDER BY p.created_at DESC, p.id LIMIT ?").all(tag, limit)
      : db.prepare("SELECT id FROM posts WHERE hidden_at IS NULL ORDER BY created_at DESC, id LIMIT ?").all(limit)
    ).map((row) => (row as { id: string }).id),
  );

describe("the Atom feed", () => {
  it("carries the newest 20 articles whole, with absolute addresses, and parses in a feed reader", async () => {
    const { client } = await registerUser(base);
    // A control character (allowed in a text) may not appear in XML at all, not even escaped.
    const form = postForm("Feed: Bitka pri Rozhanovciach", 'Text [1] s <a href="https://sav.sk/">odkazom</a> & <b>tučným</b>.\u0007', await makeImage("jpeg", 480, 300), { tags: ["Stredovek"] });
    form.append("sources", "Kronika https://example.org/kronika");
    const created = await client.request("/create-post", { method: "POST", body: form, headers: { Origin: base } });
    const id = created.headers.get("location")!.split("/").pop()!;

    const response = await fetch(`${base}/feed.xml`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/atom+xml; charset=utf-8");
    const body = await response.text();
    // eslint-disable-next-line no-control-regex -- what XML 1.0 forbids
    expect(body).not.toMatch(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/);
    const { meta, items } = await parseFeed(body);
    expect(meta.title).toBe("Dejiny");
    expect(meta.link).toMatch(/^http:\/\/[^/]+\/posts$/);
    expect(items.map((item) => item.link.split("/").pop())).toEqual(newestIds(20));
    const mine = items.find((item) => item.link.endsWith(`/posts/${id}`))!;
    expect(mine.title).toBe("Feed: Bitka pri Rozhanovciach");
    expect(mine.categories).toEqual(["Stredovek"]);
    expect(mine.author).toBe(mine.author.trim());
    expect(mine.description).toMatch(/<img src="http:\/\/[^"]+\/images\/[\w-]+-800\.jpg"/);
    expect(mine.description).toContain('<a href="https://sav.sk/" rel="nofollow ugc noopener">odkazom</a> &amp; <b>tučným</b>');
    // The citation leads to the article page's source; the sources follow the text.
    expect(mine.description).toContain(`<a href="${mine.link}#zdroj-1" id="zmienka-1"`);
    expect(mine.description).toContain('<h2>Zdroje</h2><ol><li><a href="https://example.org/kronika" rel="nofollow ugc noopener">Kronika</a></li></ol>');
    expect(mine.summary).toBe("Text s odkazom & tučným.");
  });

  it("has a feed per tag, announced on that tag's list and linked from it; an unknown tag is 404", async () => {
    const response = await fetch(`${base}/feed.xml?tag=${encodeURIComponent("Dejiny Slovenska")}`);
    const { meta, items } = await parseFeed(await response.text());
    expect(meta.title).toBe("Dejiny: Dejiny Slovenska");
    expect(items.map((item) => item.link.split("/").pop())).toEqual(newestIds(20, "Dejiny Slovenska"));
    expect((await fetch(`${base}/feed.xml?tag=Atlant%C3%ADda`)).status).toBe(404);

    const { doc } = await getPage(`${base}/posts?tag=${encodeURIComponent("Dejiny Slovenska")}`);
    const feeds = doc.querySelectorAll('link[rel="alternate"][type="application/atom+xml"]').map((link) => link.getAttribute("href"));
    expect(feeds.sort()).toEqual(["/feed.xml", "/feed.xml?tag=Dejiny%20Slovenska"]);
    // And offered on the page itself, beside its heading.
    expect(doc.querySelector(".posts-head a.list-feed")?.getAttribute("href")).toBe("/feed.xml?tag=Dejiny%20Slovenska");
    expect((await getPage(`${base}/posts`)).doc.querySelector("a.list-feed")).toBeNull();
  });

  it("answers a feed reader that has the current version with 304 and no body, and a changed feed in full", async () => {
    const first = await fetch(`${base}/feed.xml`);
    await first.text();
    const etag = first.headers.get("etag")!;
    const lastModified = first.headers.get("last-modified")!;
    expect(etag).toMatch(/^"[\w-]{22}"$/);
    const revalidations: Record<string, string>[] = [{ "If-None-Match": etag }, { "If-Modified-Since": lastModified }, { "If-None-Match": `"x", W/${etag}` }];
    for (const headers of revalidations) {
      const again = await fetch(`${base}/feed.xml`, { headers });
      expect(again.status, JSON.stringify(headers)).toBe(304);
      expect(await again.text()).toBe("");
      expect(again.headers.get("etag")).toBe(etag);
    }
    expect((await fetch(`${base}/feed.xml`, { headers: { "If-None-Match": '"stare"' } })).status).toBe(200);
    // A new article: a new version.
    const { client } = await registerUser(base);
    await client.request("/create-post", { method: "POST", body: postForm("Feed: nová verzia", "Text", await makeImage("jpeg", 480, 300)), headers: { Origin: base } });
    const changed = await fetch(`${base}/feed.xml`, { headers: { "If-None-Match": etag } });
    expect(changed.status).toBe(200);
    expect(changed.headers.get("etag")).not.toBe(etag);
  });
});

describe("Last-Modified of the feed and the sitemap", () => {
  it("moves forward when the newest article is deleted, so a reader's If-Modified-Since copy is not kept", async () => {
    const { client } = await registerUser(base);
    const created = await client.request("/create-post", { method: "POST", body: postForm("Feed: zmažem ma", "Text", await makeImage("jpeg", 480, 300)), headers: { Origin: base } });
    const id = created.headers.get("location")!.split("/").pop()!;
    const readers = ["/feed.xml", "/sitemap.xml"];
    const seen = await Promise.all(readers.map(async (path) => (await fetch(`${base}${path}`)).headers.get("last-modified")!));
    // HTTP dates have whole seconds: delete in a later second than the publication.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await client.post(`/posts/${id}`, { intent: "delete", confirm: "yes" })).response.status).toBe(303);
    for (const [i, path] of readers.entries()) {
      const after = await fetch(`${base}${path}`, { headers: { "If-Modified-Since": seen[i] } });
      expect(after.status, path).toBe(200);
      expect(Date.parse(after.headers.get("last-modified")!), path).toBeGreaterThan(Date.parse(seen[i]));
      expect(await after.text()).not.toContain(id);
    }
  });
});

describe("sitemap and robots.txt", () => {
  it("lists the reader's pages and every article with its last change, and robots.txt names the sitemap", async () => {
    const response = await fetch(`${base}/sitemap.xml`);
    expect(response.headers.get("content-type")).toBe("application/xml; charset=utf-8");
    const xml = await response.text();
    const locs = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
    const all = readDatabase(databasePath, (db) => db.prepare("SELECT id, updated_at FROM posts WHERE hidden_at IS NULL ORDER BY created_at DESC, id").all() as { id: string; updated_at: number }[]);
    expect(locs.slice(5).map((loc) => loc.split("/").pop())).toEqual(all.map((post) => post.id));
    // The reader's own pages first: each answers 200.
    expect(locs.slice(0, 5).map((loc) => new URL(loc).pathname)).toEqual(["/", "/posts", "/timeline", "/conflicts", "/moderation"]);
    for (const loc of locs.slice(0, 5)) expect((await fetch(`${base}${new URL(loc).pathname}`)).status, loc).toBe(200);
    const lastmods = [...xml.matchAll(/<lastmod>([^<]+)<\/lastmod>/g)].map((m) => m[1]);
    expect(lastmods).toEqual(all.map((post) => new Date(post.updated_at).toISOString().slice(0, 10)));
    expect((await fetch(`${base}/sitemap.xml`, { headers: { "If-None-Match": response.headers.get("etag")! } })).status).toBe(304);
    for (const page of ["2", "0", "x", "-1"]) expect((await fetch(`${base}/sitemap.xml?page=${page}`)).status, page).toBe(404);

    const robots = await (await fetch(`${base}/robots.txt`)).text();
    expect(robots).toMatch(/^User-agent: \*$/m);
    expect(robots).toMatch(/^Disallow: \/admin$/m);
    expect(robots).toMatch(new RegExp(`^Sitemap: http://[^/]+/sitemap.xml$`, "m"));
  });
});
