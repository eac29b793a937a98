import { describe, expect, it } from "vitest";
import { sqlite } from "~/db/connection.server";
import { countPosts, insertPost } from "~/models/posts.server";
import { createUser } from "~/models/users.server";
import { SITE_PAGES, sitemap } from "~/services/articles/sitemap.server";

const locs = (body: string) => [...body.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);

describe("the sitemap of a large site", () => {
  it("becomes an index of numbered files that together list every article once", () => {
    const author = createUser({ displayName: "Mapár", email: `sitemap-${Date.now()}@example.com`, passwordHash: null })!;
    for (let i = 0; i < 5; i++) {
      insertPost({ title: `Článok ${i}`, content: "<p>x</p>", excerpt: "x", image: { key: "k", width: 8, height: 5 }, authorId: author.id, tags: ["Ostatné"] });
    }
    const size = 2;
    const files = Math.ceil(countPosts() / size);
    const index = sitemap(null, size)!;
    expect(index.body).toContain("<sitemapindex");
    expect(locs(index.body)).toEqual(Array.from({ length: files }, (_, i) => `http://localhost:3000/sitemap.xml?page=${i + 1}`));
    const listed = Array.from({ length: files }, (_, i) => locs(sitemap(i + 1, size)!.body)).flat();
    expect(listed.slice(0, 5)).toEqual(["/", "/posts", "/timeline", "/conflicts", "/moderation"].map((path) => `http://localhost:3000${path}`));
    // Every article once, but the hidden ones (other tests of this database hide some).
    expect(listed.length - SITE_PAGES.length).toBe(sqlite.prepare("SELECT count(*) FROM posts WHERE hidden_at IS NULL").pluck().get());
    expect(new Set(listed).size).toBe(listed.length);
    expect(sitemap(files + 1, size)).toBeNull();
    expect(sitemap(0, size)).toBeNull();
  });
});
