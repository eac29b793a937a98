import { describe, expect, inject, it } from "vitest";
import { Client, registerUser } from "../../../scripts/lib/client";
import { publish, saveEdit } from "../../../scripts/lib/publish";
import { PAGE_SIZE } from "~/lib/rules";
import { getPage, INTERNALS } from "../../support/http";

const base = inject("baseUrl");
const search = (query: string, extra = "") => getPage(`${base}/posts?q=${encodeURIComponent(query)}${extra}`);
const cardTitles = (doc: Awaited<ReturnType<typeof getPage>>["doc"]) => doc.querySelectorAll(".card-title").map((h) => h.text);

describe("search on the list", () => {
  it("is a plain GET form with a label screen readers announce, keeping the tag", async () => {
    const { doc } = await getPage(`${base}/posts?tag=Osobnosti`);
    const form = doc.querySelector('form[role="search"]')!;
    expect(form.getAttribute("method")).toBe("get");
    expect(form.getAttribute("action")).toBe("/posts");
    const input = form.querySelector('input[name="q"]')!;
    expect(doc.querySelector(`label[for="${input.getAttribute("id")}"]`)?.text).toBe("Hľadať v článkoch");
    expect(form.querySelector('input[type="hidden"][name="tag"]')?.getAttribute("value")).toBe("Osobnosti");
  });

  it("finds Štefánik without diacritics and by a word's beginning, marks the words, and keeps the search in the cards' links", async () => {
    for (const query of ["stefanik", "STEFAN", "Štefánik"]) {
      const { response, doc } = await search(query);
      expect(response.status).toBe(200);
      expect(cardTitles(doc)[0]).toContain("Štefánik");
      expect(doc.querySelector(".card-title mark")?.text).toBe("Štefánik");
      expect(doc.querySelector(".card-excerpt mark")).not.toBeNull();
      expect(doc.querySelector(".search-summary")?.getAttribute("role")).toBe("status");
      expect(doc.querySelector("h1")?.text).toBe("Hľadanie");
      expect(doc.querySelector('meta[name="robots"]')?.getAttribute("content")).toBe("noindex, follow");
      expect(doc.querySelector(".card a")?.getAttribute("href")).toMatch(new RegExp(`\\?q=${encodeURIComponent(query)}$`));
    }
  });

  it("combines with a tag, and pages with Načítaj viac keeping the search", async () => {
    const all = await search("a");
    expect(cardTitles(all.doc)).toHaveLength(PAGE_SIZE);
    const [more, anchor] = all.doc.querySelector("a.load-more")!.getAttribute("href")!.split("#");
    expect(more).toBe(`/posts?q=a&limit=${PAGE_SIZE * 2}`);
    const next = await getPage(`${base}${more}`);
    expect(cardTitles(next.doc).slice(0, PAGE_SIZE)).toEqual(cardTitles(all.doc));
    // Without JavaScript the next page opens at its first new card.
    expect(next.doc.querySelectorAll(".card")[PAGE_SIZE].getAttribute("id")).toBe(anchor);
    expect(cardTitles(next.doc).length).toBeGreaterThan(PAGE_SIZE);

    const withTag = await search("a", "&tag=Stredovek");
    const titles = cardTitles(withTag.doc);
    expect(titles.length).toBeGreaterThan(0);
    expect(titles.length).toBeLessThan(cardTitles(next.doc).length);
    expect(withTag.doc.querySelector(".search-summary")?.text).toContain("s tagom „Stredovek“");
    // Each found article has the tag.
    for (const href of withTag.doc.querySelectorAll(".card a").map((a) => a.getAttribute("href")!)) {
      expect(href).toMatch(/\?q=a&tag=Stredovek$/);
      const article = await getPage(`${base}${href}`);
      expect(article.doc.querySelectorAll(".post-tags a, .post-tags li").map((t) => t.text.trim())).toContain("Stredovek");
    }
  });

  it("says when nothing is found and offers the way out; hostile input is only text", async () => {
    for (const query of ['<script>alert("x")</script>', '"*(NEAR OR', "žžžqqq", "!!!"]) {
      const { response, html, doc } = await search(query);
      expect(response.status).toBe(200);
      expect(html).not.toContain("<script>alert");
      expect(html).not.toMatch(INTERNALS);
      expect(doc.querySelectorAll(".card")).toHaveLength(0);
      const summary = doc.querySelector(".search-summary")!;
      expect(summary.text).toContain(`Pre „${query}“ sme nenašli žiadny článok.`);
      expect(summary.querySelector("a")?.getAttribute("href")).toBe("/posts");
    }
    const long = await search("dlhé ".repeat(200));
    expect(long.response.status).toBe(200);
    expect(long.doc.querySelector('input[name="q"]')?.getAttribute("value")?.length).toBeLessThanOrEqual(100);
  });

  it("sends an empty search to the plain list at its one address", async () => {
    for (const [asked, list] of [["/posts?q=", "/posts"], ["/posts?q=+&tag=Osobnosti", "/posts?tag=Osobnosti"]]) {
      const response = await fetch(`${base}${asked}`, { redirect: "manual" });
      expect(response.status).toBe(302);
      expect(response.headers.get("location")).toBe(list);
    }
  });

  it("follows an article's publishing, editing and deleting", async () => {
    const { client } = await registerUser(base);
    const id = (await publish(client, "Hradný archív Zvolena", ["Stredovek"], "Pergamen zo Zvolenského zámku."))!;
    expect(id).toBeTruthy();
    expect(cardTitles((await search("zvolen")).doc)).toEqual(["Hradný archív Zvolena"]);
    expect(cardTitles((await search("pergamen", "&tag=Stredovek")).doc)).toEqual(["Hradný archív Zvolena"]);

    const saved = await saveEdit(client, id, { title: "Hradný archív Bojníc", content: "Listina z Bojnického zámku." });
    expect(saved.response.status).toBe(303);
    expect(cardTitles((await search("zvolen")).doc)).toEqual([]);
    expect(cardTitles((await search("listina bojnic")).doc)).toEqual(["Hradný archív Bojníc"]);

    // Deleted from the search's results, the author is back at the search.
    const deleted = await client.post(`/posts/${id}?q=bojnic`, { intent: "delete", confirm: "yes" });
    expect(deleted.response.status).toBe(303);
    expect(deleted.response.headers.get("location")).toBe("/posts?q=bojnic");
    expect(cardTitles((await search("bojnic")).doc)).toEqual([]);
  });

  it("goes back from an article to the same search", async () => {
    const { doc } = await search("stefanik");
    const card = doc.querySelector(".card")!;
    const article = await new Client(base).get(card.querySelector("a")!.getAttribute("href")!);
    expect(article.doc.querySelector("a.back-button")?.getAttribute("href")).toBe(`/posts?q=stefanik#${card.getAttribute("id")}`);
  });
});
