import { describe, expect, inject, it } from "vitest";
import { storedToEditable } from "~/lib/text/article-markup";
import { Client, registerUser } from "../../../scripts/lib/client";
import { publish, saveEdit } from "../../../scripts/lib/publish";
import { readDatabase } from "../../support/http";

const base = inject("baseUrl");
const databasePath = inject("databasePath");

type DemoRevision = { post_id: string; title: string; number: number; summary: string; created_at: number; post_created_at: number };

/** Revisions of the demo author's articles, oldest first. */
const demoRevisions = () =>
  readDatabase(databasePath, (db) =>
    db
      .prepare(
        `SELECT r.post_id, p.title, r.number, r.summary, r.created_at, p.created_at AS post_created_at
         FROM revisions r JOIN posts p ON p.id = r.post_id JOIN users u ON u.id = r.editor_id
         WHERE u.email = 'demo@dejiny.invalid' ORDER BY r.post_id, r.number`,
      )
      .all() as DemoRevision[],
  );

describe("long-form demo articles", () => {
  it("have two or three revisions with summaries, saved by the demo author at earlier times, oldest first", () => {
    const byPost = new Map<string, DemoRevision[]>();
    for (const revision of demoRevisions()) byPost.set(revision.post_id, [...(byPost.get(revision.post_id) ?? []), revision]);
    const edited = [...byPost.values()].filter((revisions) => revisions.length > 1);
    expect(edited.length).toBeGreaterThanOrEqual(3);
    for (const revisions of edited) {
      expect(revisions.length, revisions[0].title).toBeGreaterThanOrEqual(3);
      expect(revisions.length, revisions[0].title).toBeLessThanOrEqual(4);
      expect(revisions[0].created_at).toBe(revisions[0].post_created_at);
      for (const [i, revision] of revisions.entries()) {
        expect(revision.number).toBe(i + 1);
        if (i === 0) continue;
        expect(revision.summary, revision.title).toMatch(/^\p{Lu}\p{Ll}+ .{5,}/u);
        expect(revision.created_at).toBeGreaterThan(revisions[i - 1].created_at);
        expect(revision.created_at).toBeLessThan(Date.now());
      }
    }
  });

  it("show sections, a list and a quoted source with its cite line, their sources, and 'Upravené … · n úpravy' linking to the history", async () => {
    const reader = new Client(base);
    const moha = demoRevisions().filter((revision) => revision.title.startsWith("Moháč"));
    expect(moha.map((revision) => revision.summary)).toEqual(["", "Opravený dátum bitky", "Doplnené zdroje a citát biskupa Perényiho", "Text rozčlenený na časti"]);
    const id = moha[0].post_id;

    const { response, doc } = await reader.get(`/posts/${id}`);
    expect(response.status).toBe(200);
    const content = doc.querySelector(".post-content")!;
    expect(content.querySelectorAll("h2").map((h) => h.text)).toEqual(["Dve nerovné armády", "Dve hodiny boja", "Krajina s dvoma kráľmi", "Čo Moháč znamenal pre Slovensko"]);
    expect(content.querySelector("blockquote cite")?.text).toMatch(/^Biskup František Perényi/);
    expect(content.text).toContain("29. augusta 1526");
    expect(content.querySelector("br")).toBeNull(); // paragraphs and blocks only: no stray line break beside a heading
    // Its outline: the title is the one h1 readers reach (the list under the open article is hidden from them), its sections h2.
    expect(doc.querySelectorAll("h1").filter((h1) => !h1.closest('[aria-hidden="true"]')).map((h1) => h1.text)).toEqual([moha[3].title]);
    expect(doc.querySelectorAll(".post-sources li")).toHaveLength(3);
    expect(doc.querySelector(`a[href="/posts/${id}/history"]`)?.text).toMatch(/ · 3 úpravy$/);

    const stefanik = demoRevisions().find((revision) => revision.title.startsWith("Milan Rastislav Štefánik"))!;
    const page = (await reader.get(`/posts/${stefanik.post_id}`)).doc.querySelector(".post-content")!;
    expect(page.querySelectorAll("ul > li").map((li) => li.text.slice(0, 4))).toEqual(["1905", "1907", "1910"]);
    expect(page.querySelector("h3")?.text).toBe("Československé légie");

    const history = await reader.get(`/posts/${id}/history`);
    expect(history.response.status).toBe(200);
    const summaries = history.doc.querySelectorAll('.history-table [data-label="Popis zmeny"]').map((cell) => cell.text.trim());
    expect(summaries).toEqual(["Text rozčlenený na časti", "Doplnené zdroje a citát biskupa Perényiho", "Opravený dátum bitky", "Uverejnenie"]);
    // The first correction, compared word by word.
    const [first, second] = moha;
    const compared = await reader.get(`/posts/${id}/history?from=${revisionId(id, first.number)}&to=${revisionId(id, second.number)}`);
    expect(compared.doc.querySelectorAll("del").map((del) => del.text)).toEqual(["[odstránené: 30]"]);
    expect(compared.doc.querySelectorAll("ins").map((ins) => ins.text)).toEqual(["[pridané: 29]"]);
  });

  it("are edited as their author wrote them, or, saved before Markdown, with each block on a line of its own; saving them unchanged changes nothing", async () => {
    const stefanik = demoRevisions().find((revision) => revision.title.startsWith("Milan Rastislav Štefánik"))!;
    const { content: stored, source } = readDatabase(databasePath, (db) =>
      db.prepare("SELECT content, content_source AS source FROM posts WHERE id = ?").get(stefanik.post_id),
    ) as { content: string; source: string };
    const admin = await registerUser(base);
    readDatabase(databasePath, (db) => db.prepare("UPDATE users SET is_admin = 1 WHERE email = ?").run(admin.email), true);
    const written = (await admin.client.get(`/posts/${stefanik.post_id}?edit`)).doc;
    expect(written.querySelector('textarea[name="content"]')!.text).toBe(source);
    expect(written.querySelector("#edit-content-hint")?.text).toContain("## Príčiny");
    // As an article last saved before Markdown: no source.
    readDatabase(databasePath, (db) => db.prepare("UPDATE posts SET content_source = NULL WHERE id = ?").run(stefanik.post_id), true);
    const form = (await admin.client.get(`/posts/${stefanik.post_id}?edit`)).doc;
    const typed = form.querySelector('textarea[name="content"]')!.text;
    expect(typed).toBe(storedToEditable(stored));
    expect(typed).toContain("\n<ul>\n<li>1905 – úplné zatmenie Slnka v Španielsku</li>\n<li>1907");
    const title = form.querySelector('input[name="title"]')!.getAttribute("value")!;
    const sources = form.querySelector('textarea[name="sources"]')!.text;
    const saved = await saveEdit(admin.client, stefanik.post_id, { title, content: typed, sources, summary: "" }, `/posts/${stefanik.post_id}?edit`);
    expect(saved.response.status).toBe(303);
    expect(readDatabase(databasePath, (db) => db.prepare("SELECT content FROM posts WHERE id = ?").pluck().get(stefanik.post_id))).toBe(stored);
  });
});

describe("a long article written through the form", () => {
  it("is stored with its headings from h2, its lists and its quotation, no attributes, and no line break between list items", async () => {
    const author = await registerUser(base);
    const typed = '<h1>Úvod</h1>\nText.\n<ul class="x">\n<li>Pribina</li>\n<li onclick="alert(1)">Koceľ</li>\n</ul>\n<h4>Koniec</h4>\n<cite>Mimo citátu</cite>';
    const id = (await publish(author.client, "Dlhý článok", ["Stredovek"], typed))!;
    expect(id).not.toBeNull();
    const stored = readDatabase(databasePath, (db) => db.prepare("SELECT content, excerpt FROM posts WHERE id = ?").get(id)) as { content: string; excerpt: string };
    expect(stored).toEqual({ content: "<h2>Úvod</h2>Text.<ul><li>Pribina</li><li>Koceľ</li></ul><h3>Koniec</h3>Mimo citátu", excerpt: "Text. Pribina Koceľ Mimo citátu" });
    // Found by the second item's word: not run together with the first's.
    const search = await author.client.get(`/posts?q=${encodeURIComponent("koceľ")}`);
    expect(search.doc.querySelectorAll(".card-title").map((title) => title.text.trim())).toEqual(["Dlhý článok"]);
  });
});

describe("an article written in Markdown", () => {
  it("is stored as the allowed tags, edited as written, and compared as written", async () => {
    const author = await registerUser(base);
    const typed = "Úvod s **dôrazom** [1].\n\n## Príčiny\n\n- 862\n- 863\n\n> Citát z kroniky\n> — Kosmas";
    const id = (await publish(author.client, "Článok v Markdowne", ["Stredovek"], typed))!;
    expect(id).not.toBeNull();
    const row = () => readDatabase(databasePath, (db) => db.prepare("SELECT content, content_source AS source FROM posts WHERE id = ?").get(id)) as { content: string; source: string };
    expect(row()).toEqual({
      content: "Úvod s <strong>dôrazom</strong> [1].<h2>Príčiny</h2><ul><li>862</li><li>863</li></ul><blockquote>Citát z kroniky<cite>Kosmas</cite></blockquote>",
      source: typed,
    });
    const page = (await author.client.get(`/posts/${id}`)).doc.querySelector(".post-content")!;
    expect(page.querySelector("h2")?.text).toBe("Príčiny");
    expect(page.querySelector("blockquote cite")?.text).toBe("Kosmas");
    // The edit form gives back the Markdown; a changed mark is what the comparison shows.
    expect((await author.client.get(`/posts/${id}?edit`)).doc.querySelector('textarea[name="content"]')!.text).toBe(typed);
    const edited = typed.replace("**dôrazom**", "*dôrazom*");
    expect((await saveEdit(author.client, id, { title: "Článok v Markdowne", content: edited, sources: "", summary: "" }, `/posts/${id}?edit`)).response.status).toBe(303);
    expect(row()).toEqual({ content: expect.stringContaining("<em>dôrazom</em>"), source: edited });
    const compared = await author.client.get(`/posts/${id}/history?from=${revisionId(id, 1)}&to=${revisionId(id, 2)}`);
    // Bold made italic: one asterisk less on each side, in the text as written (on the stored text, nothing but tags changed).
    expect(compared.doc.querySelectorAll("del, ins").map((change) => change.text)).toEqual(["[odstránené: *]", "[odstránené: *]"]);
  });
});

/** A revision's id by its number (the history's links name revisions by id). */
function revisionId(postId: string, number: number): string {
  return readDatabase(databasePath, (db) => db.prepare("SELECT id FROM revisions WHERE post_id = ? AND number = ?").pluck().get(postId, number) as string);
}
