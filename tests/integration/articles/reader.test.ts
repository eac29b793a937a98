import { readFileSync, renameSync } from "node:fs";
import path from "node:path";
import { describe, expect, inject, it } from "vitest";
import { TAGS } from "~/lib/tags";
import { getPage, INTERNALS, readDatabase } from "../../support/http";

const base = inject("baseUrl");
const databasePath = inject("databasePath");
const uploadsDir = inject("uploadsDir");

type Row = { id: string; title: string };
const newest = (limit: number) =>
  readDatabase(databasePath, (db) => db.prepare("SELECT id, title FROM posts WHERE hidden_at IS NULL ORDER BY created_at DESC, id LIMIT ?").all(limit) as Row[]);
const newestWithTag = (tag: string) =>
  readDatabase(
    databasePath,
    (db) =>
      db
        .prepare("SELECT p.id, p.title FROM posts p JOIN post_tags t ON t.post_id = p.id WHERE t.tag = ? AND p.hidden_at IS NULL ORDER BY p.created_at DESC, p.id")
        .all(tag) as Row[],
  );
const cardIds = (doc: ReturnType<typeof Object>) =>
  doc.querySelectorAll(".card a").map((a: { getAttribute(n: string): string }) => a.getAttribute("href").split("?")[0].slice("/posts/".length));

describe("the landing page", () => {
  it("shows the banner, the tagline and the way to the articles", async () => {
    const { response, doc } = await getPage(`${base}/`);
    expect(response.status).toBe(200);
    expect(doc.querySelector("html")?.getAttribute("lang")).toBe("sk");
    expect(doc.querySelector("h1")?.text).toBe("Učíme históriu, nie mýty");
    expect(doc.querySelector(".banner a.button")?.getAttribute("href")).toBe("/posts");
    expect(doc.querySelector("title")?.text).toContain("Dejiny");
    expect(doc.querySelector('meta[name="description"]')?.getAttribute("content")).toBeTruthy();
  });

  it("has the shared header with the menu, social links and entries", async () => {
    const { doc } = await getPage(`${base}/`);
    const header = doc.querySelector("header.site-header")!;
    // The menu toggle names the one navigation it shows.
    const toggle = header.querySelector("details.mobile-menu > summary")!;
    expect(toggle.text).toBe("Menu");
    expect(toggle.getAttribute("aria-controls")).toBe("site-nav");
    expect(header.querySelectorAll("nav")).toHaveLength(1);
    expect(header.querySelector("nav#site-nav")?.getAttribute("aria-label")).toBe("Hlavná navigácia");
    expect(header.querySelectorAll(".nav-entries a").map((a) => a.getAttribute("href"))).toEqual(["/posts", "/timeline", "/conflicts", "/signinsignup"]);
    // The profiles the owner configured (tests/support/accounts-env.ts), no others, each named in words.
    expect(header.querySelectorAll(".social-links a").map((a) => [a.getAttribute("href"), a.text])).toEqual([
      ["https://www.facebook.com/dejiny.test", "Dejiny na sieti Facebook"],
      ["https://www.youtube.com/@dejiny.test", "Dejiny na YouTube"],
    ]);
    const footer = doc.querySelector("footer.site-footer")!;
    expect(footer.text).toContain("Dejiny – Učíme históriu, nie mýty");
    expect(footer.querySelector('a[href="/feed.xml"]')).not.toBeNull();
    expect(footer.querySelector('a[href="mailto:redakcia@dejiny.test"]')?.text).toBe("redakcia@dejiny.test");
  });
});

describe("the article list", () => {
  it("shows the newest nine as cards, with cycling colours and a load-more link", async () => {
    const { response, doc } = await getPage(`${base}/posts`);
    expect(response.status).toBe(200);
    const expected = newest(10);
    expect(cardIds(doc)).toEqual(expected.slice(0, 9).map((p) => p.id));
    const cards = doc.querySelectorAll("li.card");
    cards.forEach((card, i) => expect(card.classList.contains(`card-c${i % 4}`)).toBe(true));
    expect(cards[0].querySelector(".card-title")?.text).toBe(expected[0].title);
    expect(cards[0].querySelector(".card-more")?.text).toContain("Zistiť viac");
    const more = doc.querySelector("a.load-more");
    expect(more?.text).toBe("Načítaj viac");
    // Without JavaScript the next page opens at its first new card, the tenth.
    expect(more?.getAttribute("href")).toBe(`/posts?limit=18#card-${expected[9].id}`);
    expect(cards[0].getAttribute("id")).toBe(`card-${expected[0].id}`);
  });

  it("sizes every image and loads only the first eagerly", async () => {
    const { doc } = await getPage(`${base}/posts`);
    const images = doc.querySelectorAll(".card img");
    for (const img of images) {
      expect(Number(img.getAttribute("width"))).toBeGreaterThan(0);
      expect(Number(img.getAttribute("height"))).toBeGreaterThan(0);
      expect(img.getAttribute("alt")).toBeDefined();
      expect(img.getAttribute("srcset")).toMatch(/-400\.jpg 400w/);
    }
    expect(images[0].getAttribute("fetchpriority")).toBe("high");
    expect(images.slice(1).every((img) => img.getAttribute("loading") === "lazy")).toBe(true);
  });

  it("preloads its background, its largest paint, as the stylesheet draws it at each width", async () => {
    const { doc } = await getPage(`${base}/posts?tag=Morava`);
    const preloads = doc.querySelectorAll('link[rel="preload"][as="image"]');
    expect(preloads.map((link) => [link.getAttribute("media"), link.getAttribute("href"), link.getAttribute("type"), link.getAttribute("fetchpriority")])).toEqual([
      ["(max-width: 599px)", "/img/posts-bg-800.webp", "image/webp", "high"],
      ["(min-width: 600px)", "/img/posts-bg.webp", "image/webp", "high"],
    ]);
    // The files the stylesheet names (app.css .posts-page).
    const css = await (await fetch(`${base}${doc.querySelector('link[rel="stylesheet"]')!.getAttribute("href")}`)).text();
    for (const link of preloads) expect(css).toContain(`url(${link.getAttribute("href")})`);
  });

  it("shows excerpts as plain text cut on a word boundary", async () => {
    const { doc } = await getPage(`${base}/posts`);
    for (const excerpt of doc.querySelectorAll(".card-excerpt")) {
      expect(excerpt.innerHTML).not.toMatch(/<|&lt;br/);
      expect(excerpt.text.length).toBeLessThanOrEqual(161);
    }
  });

  it("grows by nine per page and hides the button when nothing more exists", async () => {
    const total = newest(1000).length;
    expect(total).toBeGreaterThan(9);
    const { doc } = await getPage(`${base}/posts?limit=18`);
    expect(cardIds(doc)).toEqual(newest(18).map((p) => p.id));
    const all = Math.ceil(total / 9) * 9;
    const last = await getPage(`${base}/posts?limit=${all}`);
    expect(last.doc.querySelectorAll(".card")).toHaveLength(total);
    expect(last.doc.querySelector(".load-more")).toBeNull();
    if (total === all) return;
    const fewer = await getPage(`${base}/posts?limit=${all - 9}`);
    expect(fewer.doc.querySelector("a.load-more")?.getAttribute("href")).toBe(`/posts?limit=${all}#card-${newest(all)[all - 9].id}`);
  });

  it("filters by tag, newest first, and offers to remove the filter", async () => {
    const counts = TAGS.map((tag) => [tag, newestWithTag(tag).length] as const).filter(([, n]) => n > 0);
    expect(counts.length).toBeGreaterThan(10);
    for (const [tag] of counts.slice(0, 6)) {
      const { response, doc } = await getPage(`${base}/posts?tag=${encodeURIComponent(tag)}`);
      expect(response.status).toBe(200);
      expect(cardIds(doc)).toEqual(newestWithTag(tag).slice(0, 9).map((p) => p.id));
      expect(doc.querySelector("h1")?.text).toBe(tag);
      expect(doc.querySelector(".tag-dropdown > summary")?.text).toBe(tag);
      const removes = doc.querySelectorAll("a.remove-filter");
      expect(removes).toHaveLength(2);
      expect(removes.every((a) => a.text === "Odstrániť filter" && a.getAttribute("href") === "/posts")).toBe(true);
    }
  });

  it("offers every tag in both the modal and the dropdown", async () => {
    const { doc } = await getPage(`${base}/posts`);
    expect(doc.querySelector(".filter-modal h2")?.text).toBe("Vyber tag");
    expect(doc.querySelector(".tag-dropdown > summary")?.text).toBe("Vyber tag");
    expect(doc.querySelectorAll(".filter-modal .tag-options a").map((a) => a.text)).toEqual([...TAGS]);
    expect(doc.querySelectorAll(".tag-dropdown .tag-options a").map((a) => a.text)).toEqual([...TAGS]);
    expect(doc.querySelector(".remove-filter")).toBeNull();
  });

  it("answers an unknown tag with the whole list and a note", async () => {
    const { response, doc } = await getPage(`${base}/posts?tag=${encodeURIComponent("<script>Atlantída</script>")}`);
    expect(response.status).toBe(200);
    expect(doc.querySelector(".note")?.text).toContain("<script>Atlantída</script>");
    expect(cardIds(doc)).toEqual(newest(9).map((p) => p.id));
  });

  it("takes junk limits without an error", async () => {
    for (const limit of ["-1", "abc", "1e99", "99999999999999999999", "9.5", ""]) {
      const { response, doc } = await getPage(`${base}/posts?limit=${encodeURIComponent(limit)}`);
      expect(response.status).toBe(200);
      expect(doc.querySelectorAll(".card").length).toBeGreaterThan(0);
    }
  });
});

describe("an article", () => {
  it("opens over the list with image, title, content and a way back to the same list", async () => {
    const [post] = newestWithTag("Dejiny Slovenska");
    const { response, doc, html } = await getPage(`${base}/posts/${post.id}?tag=${encodeURIComponent("Dejiny Slovenska")}&limit=18`);
    expect(response.status).toBe(200);
    const overlay = doc.querySelector(".overlay [role=dialog]")!;
    expect(overlay.querySelector("h1")?.text).toBe(post.title);
    // The title follows the image at once: the image does not name it again.
    expect(overlay.querySelector("img")?.getAttribute("alt")).toBe("");
    expect(overlay.querySelector(".post-content")?.text.length).toBeGreaterThan(100);
    // Back to the same list, at the article's card (without JavaScript); the arrow prints words.
    const back = overlay.querySelector('a[aria-label="Go back"]');
    expect(back?.getAttribute("href")).toBe(`/posts?tag=Dejiny+Slovenska&limit=18#card-${post.id}`);
    expect(back?.text).toBe("Späť na zoznam");
    // The article is the page's content: first in the one <main>, the skip link's target.
    const main = doc.querySelectorAll("main");
    expect(main).toHaveLength(1);
    expect(main[0].firstElementChild?.classList.contains("overlay")).toBe(true);
    expect(main[0].hasAttribute("id")).toBe(false);
    expect(overlay.getAttribute("id")).toBe("obsah");
    expect(doc.querySelectorAll("#obsah")).toHaveLength(1);
    // The list is still there after it, inert.
    const list = main[0].querySelector(":scope > div:not(.overlay)")!;
    expect(list.getAttribute("inert")).toBe("");
    expect(list.getAttribute("aria-hidden")).toBe("true");
    expect(list.querySelectorAll(".card").length).toBeGreaterThan(0);
    expect(doc.querySelector('meta[property="og:title"]')?.getAttribute("content")).toBe(post.title);
    expect(doc.querySelector('meta[property="og:image"]')?.getAttribute("content")).toMatch(/^http.*\/images\/.*-1200\.jpg$/);
    expect(html).not.toMatch(/<script(?![^>]*(type="module"|nonce|src=))[^>]*>[^<]*alert/);
  });

  it("asks for its largest paint with the page: the article's image preloaded, not the list's background", async () => {
    const [post] = newest(1);
    const { doc } = await getPage(`${base}/posts/${post.id}`);
    const image = doc.querySelector(".overlay picture source[type='image/webp']")!;
    const preloads = doc.querySelectorAll('link[rel="preload"][as="image"]');
    expect(preloads.map((link) => [link.getAttribute("imagesrcset"), link.getAttribute("imagesizes"), link.getAttribute("type"), link.getAttribute("fetchpriority")])).toEqual([
      [image.getAttribute("srcset"), image.getAttribute("sizes"), "image/webp", "high"],
    ]);
  });

  it("answers an unknown id with a Slovak 404", async () => {
    const { response, doc, html } = await getPage(`${base}/posts/neexistuje`);
    expect(response.status).toBe(404);
    expect(doc.querySelector(".overlay h1")?.text).toBe("Článok sa nenašiel");
    expect(html).not.toMatch(INTERNALS);
  });
});

describe("other routes", () => {
  it("serves the conflicts page", async () => {
    const { response, doc } = await getPage(`${base}/conflicts`);
    expect(response.status).toBe(200);
    expect(doc.querySelector("h1")?.text).toBe("Aktuálne konflikty");
    expect(doc.querySelector("main")?.text.length).toBeGreaterThan(200);
  });

  it("serves the 30 tags as JSON", async () => {
    const response = await fetch(`${base}/tags.json`);
    expect(response.headers.get("content-type")).toMatch(/application\/json/);
    expect(await response.json()).toEqual([...TAGS]);
  });

  it("serves stored images with long-lived caching", async () => {
    const { doc } = await getPage(`${base}/posts`);
    const src = doc.querySelector(".card source")!.getAttribute("srcset")!.split(" ")[0];
    const response = await fetch(`${base}${src}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/webp");
    expect(response.headers.get("cache-control")).toMatch(/max-age=31536000.*immutable/);
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    const jpeg = await fetch(`${base}${src.replace(".webp", ".jpg")}`);
    expect(jpeg.headers.get("content-type")).toBe("image/jpeg");
  });

  it("gives phones the square thumbnail of each card, and a stand-in while an older image has none yet", async () => {
    const { doc } = await getPage(`${base}/posts`);
    const sources = doc.querySelectorAll(".card picture")[0].querySelectorAll("source");
    expect(sources.map((source) => [source.getAttribute("media"), source.getAttribute("type")])).toEqual([
      ["(max-width: 599px)", "image/webp"],
      ["(max-width: 599px)", undefined],
      [undefined, "image/webp"],
    ]);
    // Valid HTML: every candidate has a width and every source its sizes, the thumbnail's (one width) too.
    expect(sources.map((source) => [source.getAttribute("srcset")!.split(", ").every((candidate) => / \d+w$/.test(candidate)), source.getAttribute("sizes")])).toEqual([
      [true, "6.5rem"],
      [true, "6.5rem"],
      [true, expect.stringContaining("376px")],
    ]);
    const [thumbnail, width] = sources[0].getAttribute("srcset")!.split(" ");
    expect(width).toBe("240w");
    const [, key] = /^\/images\/(.+)-thumb\.webp$/.exec(thumbnail)!;
    expect((await fetch(`${base}${thumbnail}`)).headers.get("cache-control")).toMatch(/immutable/);

    // An image stored before thumbnails existed (until the start-up's background work makes it): its 400 px variant, not cached for long.
    const file = path.join(uploadsDir, `${key}-thumb.webp`);
    renameSync(file, `${file}.aside`);
    try {
      const response = await fetch(`${base}${thumbnail}`);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("image/webp");
      expect(response.headers.get("cache-control")).toBe("public, max-age=0");
      expect(Buffer.from(await response.arrayBuffer()).equals(readFileSync(path.join(uploadsDir, `${key}-400.webp`)))).toBe(true);
    } finally {
      renameSync(`${file}.aside`, file);
    }
  });

  it("serves nothing outside the image store", async () => {
    for (const path of [
      "/images/../package.json",
      "/images/..%2Fpackage.json",
      "/images/..%2F..%2Fdata%2Fdejiny.db",
      "/images/%2e%2e%2fserver.js",
      "/images/.gitkeep",
      "/images/AAAAAAAAAAAAAAAA-400.webp",
      "/images/AAAAAAAAAAAAAAAA-401.webp",
      "/images/AAAAAAAAAAAAAAAA-thumb.webp",
      "/images/",
    ]) {
      const response = await fetch(`${base}${path}`);
      expect([404, 400], path).toContain(response.status);
      expect(await response.text()).not.toMatch(INTERNALS);
    }
  });

  it("answers health checks", async () => {
    const response = await fetch(`${base}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("ok");
  });

  it("answers unknown pages with a Slovak 404 and no internals", async () => {
    const { response, doc, html } = await getPage(`${base}/toto-neexistuje`);
    expect(response.status).toBe(404);
    expect(doc.querySelector("h1")?.text).toBe("Stránka sa nenašla");
    expect(html).not.toMatch(INTERNALS);
  });
});
