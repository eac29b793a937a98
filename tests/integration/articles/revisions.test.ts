import { describe, expect, inject, it } from "vitest";
import { REVISION_MESSAGES } from "~/lib/revisions";
import { POST_MESSAGES } from "~/lib/rules";
import { Client, registerUser } from "../../../scripts/lib/client";
import { publish, saveEdit } from "../../../scripts/lib/publish";
import { expectFieldRefused, readDatabase } from "../../support/http";
import { unrelatedText } from "../../support/unrelated-text";

const base = inject("baseUrl");
const databasePath = inject("databasePath");

type Revision = { id: string; number: number; sources: string; title: string; content: string; tags: string; editor_id: string | null; editor_name: string; summary: string; size: number };

const revisionsOf = (postId: string) =>
  readDatabase(databasePath, (db) => db.prepare("SELECT * FROM revisions WHERE post_id = ? ORDER BY number").all(postId) as Revision[]);
const userId = (email: string) => readDatabase(databasePath, (db) => db.prepare("SELECT id FROM users WHERE email = ?").pluck().get(email) as string);
const stamp = () => readDatabase(databasePath, (db) => db.prepare("SELECT stamp FROM page_data WHERE id = 1").pluck().get());

async function article(title = "Revízie: Bitka pri Lipanoch") {
  const author = await registerUser(base);
  const id = (await publish(author.client, title, ["Stredovek", "Morava"], "Prvá verzia textu."))!;
  expect(id).not.toBeNull();
  return { ...author, id };
}

const save = (client: Client, id: string, fields: Record<string, string>) =>
  saveEdit(client, id, { title: "Revízie: Bitka pri Lipanoch", content: "Prvá verzia textu.", ...fields }, `/posts/${id}?edit`);

/** The history page's rows as a reader sees them: number, editor, summary, size change. */
async function historyRows(client: Client, path: string) {
  const { response, doc } = await client.get(path);
  expect(response.status).toBe(200);
  const rows = doc.querySelectorAll(".history-table tbody tr").map((row) => {
    const cell = (label: string) => row.querySelector(`[data-label="${label}"]`)!.text.trim();
    return { number: cell("Verzia"), editor: cell("Kto"), summary: cell("Popis zmeny"), change: cell("Znaky") };
  });
  return { rows, doc };
}

describe("revisions", () => {
  it("records a new article as revision 1 by its author, with its tags and size", async () => {
    const { id, email } = await article();
    const [first, ...more] = revisionsOf(id);
    expect(more).toEqual([]);
    expect(first).toMatchObject({ number: 1, title: "Revízie: Bitka pri Lipanoch", tags: '["Stredovek","Morava"]', editor_id: userId(email), summary: "" });
    expect(first.size).toBe("Revízie: Bitka pri Lipanoch".length + first.content.length);
  });

  it("gives every demo article its revision 1", () => {
    const missing = readDatabase(databasePath, (db) =>
      db.prepare("SELECT count(*) FROM posts p WHERE NOT EXISTS (SELECT 1 FROM revisions r WHERE r.post_id = p.id AND r.number = 1)").pluck().get(),
    );
    expect(missing).toBe(0);
  });

  it("records an edit with its editor, summary and size change, and an admin's edit as the admin's", async () => {
    const { id, client, email } = await article();
    const before = stamp();
    const edited = await save(client, id, { content: "Prvá verzia textu, doplnená.", summary: "  Doplnený text  " });
    expect(edited.response.status).toBe(303);
    // The revision is written with the article: the page cache's stamp moved.
    expect(stamp()).not.toBe(before);
    const admin = await registerUser(base);
    readDatabase(databasePath, (db) => db.prepare("UPDATE users SET is_admin = 1 WHERE email = ?").run(admin.email), true);
    expect((await save(admin.client, id, { title: "Revízie: Lipany 1434", content: "Prvá verzia." })).response.status).toBe(303);

    const revisions = revisionsOf(id);
    expect(revisions.map(({ number, editor_id, summary }) => ({ number, editor_id, summary }))).toEqual([
      { number: 1, editor_id: userId(email), summary: "" },
      { number: 2, editor_id: userId(email), summary: "Doplnený text" },
      { number: 3, editor_id: userId(admin.email), summary: "" },
    ]);
    expect(revisions[1].size - revisions[0].size).toBe(", doplnená".length);

    const { rows } = await historyRows(new Client(base), `/posts/${id}/history`);
    expect(rows.map(({ number, summary, change }) => ({ number, summary, change }))).toEqual([
      { number: "3.", summary: "bez popisu", change: `−${revisions[1].size - revisions[2].size}` },
      { number: "2.", summary: "Doplnený text", change: "+10" },
      { number: "1.", summary: "Uverejnenie", change: `+${revisions[0].size}` },
    ]);
    expect(rows[0].editor).toBe(revisions[2].editor_name);
    expect(rows[2].editor).toBe(revisions[0].editor_name);
  });

  it("refuses a summary over 200 characters with its message, changing nothing and keeping what was typed", async () => {
    const { id, client } = await article();
    const summary = "x".repeat(201);
    const refused = await save(client, id, { title: "Nový nadpis", content: "Nový text", summary });
    expectFieldRefused(refused, "summary", POST_MESSAGES.summaryTooLong, summary);
    expect(POST_MESSAGES.summaryTooLong).toBe("Popis zmeny („Čo ste zmenili?“) môže mať najviac 200 znakov.");
    expect(refused.doc.querySelector('input[name="title"]')?.getAttribute("value")).toBe("Nový nadpis");
    expect(refused.doc.querySelector('textarea[name="content"]')?.text).toBe("Nový text");
    expect(revisionsOf(id)).toHaveLength(1);
    expect(readDatabase(databasePath, (db) => db.prepare("SELECT title FROM posts WHERE id = ?").pluck().get(id))).toBe("Revízie: Bitka pri Lipanoch");
    // Exactly 200 is fine.
    expect((await save(client, id, { summary: "y".repeat(200) })).response.status).toBe(303);
    expect(revisionsOf(id).map((r) => r.summary.length)).toEqual([0, 200]);
    // A label the form names as the issue asks.
    const { doc } = await client.get(`/posts/${id}?edit`);
    expect(doc.querySelector('label[for="field-summary"]')?.text).toBe("Čo ste zmenili?");
    expect(doc.querySelector("#field-summary")?.getAttribute("maxlength")).toBe("200");
  });

  it("shows the edit count on the article page only after an edit, linking to the history", async () => {
    const { id, client } = await article();
    const visitor = new Client(base);
    const link = async () => (await visitor.get(`/posts/${id}`)).doc.querySelector(`a[href="/posts/${id}/history"]`);
    expect(await link()).toBeNull();
    await save(client, id, { content: "Druhá verzia." });
    expect((await link())?.text).toMatch(/^Upravené \d{1,2}\. \p{L}+ \d{4} · 1 úprava$/u);
    await save(client, id, { content: "Tretia verzia." });
    expect((await link())?.text).toMatch(/ · 2 úpravy$/);
  });

  it("pages the history with plain links, 50 a page, and answers unknown articles and pages with 404", async () => {
    const { id, client } = await article();
    for (let i = 2; i <= 52; i++) expect((await save(client, id, { content: `Verzia ${i}.`, summary: `Úprava ${i}` })).response.status).toBe(303);
    const visitor = new Client(base);
    const first = await historyRows(visitor, `/posts/${id}/history`);
    expect(first.rows).toHaveLength(50);
    expect(first.rows[0]).toMatchObject({ number: "52.", summary: "Úprava 52" });
    expect(first.rows[49].number).toBe("3.");
    // The last row of a page still knows the revision before it.
    expect(first.rows[49].change).toBe("0");
    expect(first.doc.querySelector('.pager a[rel="next"]')?.getAttribute("href")).toBe(`/posts/${id}/history?page=2`);
    const second = await historyRows(visitor, `/posts/${id}/history?page=2`);
    expect(second.rows.map((row) => row.number)).toEqual(["2.", "1."]);
    expect(second.doc.querySelector('.pager a[rel="prev"]')?.getAttribute("href")).toBe(`/posts/${id}/history?page=1`);
    for (const path of [`/posts/${id}/history?page=3`, `/posts/${id}/history?page=0`, `/posts/${id}/history?page=x`, `/posts/${id}/history?page=1e1`, "/posts/neexistuje/history"]) {
      expect((await visitor.get(path)).response.status, path).toBe(404);
    }
  });

  it("dates the feed's <updated>, the article's dateModified and the sitemap's <lastmod> by the last revision, and searches only the current text", async () => {
    const { id, client } = await article("Revízie: Kremnická mincovňa");
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect((await save(client, id, { title: "Revízie: Kremnická mincovňa", content: "Nová verzia o dukátoch." })).response.status).toBe(303);
    const last = revisionsOf(id).at(-1)!;
    const lastAt = readDatabase(databasePath, (db) => db.prepare("SELECT created_at FROM revisions WHERE id = ?").pluck().get(last.id) as number);
    const created = readDatabase(databasePath, (db) => db.prepare("SELECT created_at FROM posts WHERE id = ?").pluck().get(id) as number);
    expect(lastAt).toBeGreaterThan(created);
    const iso = new Date(lastAt).toISOString();

    const feed = await (await fetch(`${base}/feed.xml`)).text();
    const entry = feed.split("<entry>").find((part) => part.includes(`/posts/${id}<`))!;
    expect(entry).toContain(`<updated>${iso}</updated>`);
    const { doc } = await new Client(base).get(`/posts/${id}`);
    const jsonLd = JSON.parse(doc.querySelector('script[type="application/ld+json"]')!.text);
    expect(jsonLd.dateModified).toBe(iso);
    const sitemap = await (await fetch(`${base}/sitemap.xml`)).text();
    expect(sitemap).toMatch(new RegExp(`/posts/${id}</loc>\\s*<lastmod>${iso.slice(0, 10)}</lastmod>`));

    const found = async (words: string) =>
      (await new Client(base).get(`/posts?q=${encodeURIComponent(words)}`)).doc.querySelectorAll(".card a").some((link) => link.getAttribute("href")?.includes(id));
    expect(await found("dukátoch")).toBe(true);
    // "Prvá verzia textu." was revision 1's text only.
    expect(await found("Kremnická textu")).toBe(false);
  });

  it("removes an article's revisions with it", async () => {
    const { id, client } = await article();
    await save(client, id, { content: "Druhá verzia.", summary: "Oprava" });
    expect(revisionsOf(id)).toHaveLength(2);
    expect((await client.post(`/posts/${id}`, { intent: "delete", confirm: "yes" })).response.status).toBe(303);
    expect(revisionsOf(id)).toEqual([]);
    expect((await new Client(base).get(`/posts/${id}/history`)).response.status).toBe(404);
  });
});

describe("comparing, viewing and restoring revisions", () => {
  const history = (id: string, query = "") => `/posts/${id}/history${query}`;
  const diffMarks = (doc: Awaited<ReturnType<Client["get"]>>["doc"], tag: "ins" | "del") => doc.querySelectorAll(`.diff-text ${tag}`).map((mark) => mark.text);
  const postRow = (id: string) => readDatabase(databasePath, (db) => db.prepare("SELECT title, content, sources FROM posts WHERE id = ?").get(id));
  const logOf = (postId: string) =>
    readDatabase(databasePath, (db) => db.prepare("SELECT actor_id, action, target_post_title, detail FROM moderation_log WHERE target_post_id = ? ORDER BY id").all(postId));

  it("compares two revisions chosen in a plain GET form, a changed word in <del> and <ins> with words that say so", async () => {
    const { id, client } = await article();
    await save(client, id, { content: "Druhá verzia textu.", summary: "Oprava" });
    const [first, second] = revisionsOf(id);
    const visitor = new Client(base);
    const list = (await visitor.get(history(id))).doc;
    const form = list.querySelector(`form[method="get"][action="/posts/${id}/history"]`);
    expect(form).not.toBeNull();
    // The newest two are chosen at first; each row links to its revision.
    expect(form!.querySelector('input[name="to"][checked]')?.getAttribute("value")).toBe(second.id);
    expect(form!.querySelector('input[name="from"][checked]')?.getAttribute("value")).toBe(first.id);
    expect(form!.querySelector(`a[href="/posts/${id}/history?revision=${first.id}"]`)?.text).toBe("1.");

    const { response, doc } = await visitor.get(history(id, `?from=${first.id}&to=${second.id}`));
    expect(response.status).toBe(200);
    expect(diffMarks(doc, "del")).toEqual(["[odstránené: Prvá]"]);
    expect(diffMarks(doc, "ins")).toEqual(["[pridané: Druhá]"]);
    expect(doc.querySelector('section[aria-labelledby="diff-nadpis"] p')?.text).toBe("Bez zmeny.");
    expect(doc.querySelector('meta[name="robots"]')?.getAttribute("content")).toBe("noindex");
  });

  it("answers 404 for unknown, malformed and another article's revision ids, and shows from > to oldest first", async () => {
    const { id, client } = await article();
    await save(client, id, { content: "Druhá verzia textu." });
    const [first, second] = revisionsOf(id);
    const other = await article("Revízie: iný článok");
    const [foreign] = revisionsOf(other.id);
    const visitor = new Client(base);
    for (const query of [
      `?from=${first.id}&to=nezname12345`,
      `?from=${first.id}&to=${foreign.id}`,
      `?from=${first.id}`,
      `?to=${second.id}`,
      `?from=${"x".repeat(100)}&to=${second.id}`,
      `?from=%00&to=${second.id}`,
      `?revision=${foreign.id}`,
      "?revision=",
      `?revision=${encodeURIComponent("' OR 1=1 --")}`,
    ]) {
      expect((await visitor.get(history(id, query))).response.status, query).toBe(404);
    }
    expect((await visitor.get(history(other.id, `?revision=${foreign.id}`))).response.status).toBe(200);

    const swapped = await visitor.get(history(id, `?from=${second.id}&to=${first.id}`));
    expect(swapped.response.status).toBe(200);
    expect(swapped.html).toContain(REVISION_MESSAGES.swapped);
    expect(diffMarks(swapped.doc, "del")).toEqual(["[odstránené: Prvá]"]);
  });

  it("answers the worst comparison, two unrelated 30,000-character revisions, in under a second, saying plainly it is too large", async () => {
    const { id, client } = await article();
    for (const seed of [1, 2]) expect((await save(client, id, { content: unrelatedText(seed, 30_000) })).response.status).toBe(303);
    const [, second, third] = revisionsOf(id);
    const started = performance.now();
    const { response, doc } = await new Client(base).get(history(id, `?from=${second.id}&to=${third.id}`));
    const elapsed = performance.now() - started;
    console.log(`the worst comparison over HTTP: ${elapsed.toFixed(0)} ms`);
    expect(response.status).toBe(200);
    expect(elapsed).toBeLessThan(1000);
    expect(doc.querySelector('section[aria-labelledby="diff-text"] .revision-notice')?.text).toMatch(
      /^Rozdiel je príliš veľký na zobrazenie po slovách: verzia 2 má 30\s000 znakov, verzia 3 má 30\s000 znakov\.$/,
    );
  });

  // That the diffs leave the event loop free for readers meanwhile is tests/unit/articles/revision-diff.test.ts's (timed there without HTTP's noise).
  it("answers a burst of costly comparisons 'busy' (503, Retry-After) beyond what waits", async () => {
    const { id, client } = await article();
    for (const seed of [3, 4, 5]) expect((await save(client, id, { content: unrelatedText(seed, 30_000) })).response.status).toBe(303);
    const [, second, third, fourth] = revisionsOf(id);
    const pairs = [`?from=${second.id}&to=${third.id}`, `?from=${third.id}&to=${fourth.id}`, `?from=${second.id}&to=${fourth.id}`];
    const visitor = new Client(base);
    const burst = Array.from({ length: 30 }, (_, i) => visitor.get(history(id, pairs[i % 3])));
    const answers = await Promise.all(burst);
    const statuses = answers.map(({ response }) => response.status);
    console.log(`30 worst comparisons at once: ${statuses.filter((s) => s === 200).length} compared, ${statuses.filter((s) => s === 503).length} busy`);
    expect(statuses.every((status) => status === 200 || status === 503)).toBe(true);
    expect(statuses.filter((status) => status === 503).length).toBeGreaterThan(0);
    expect(statuses.filter((status) => status === 200).length).toBeGreaterThanOrEqual(9);
    const refused = answers.find(({ response }) => response.status === 503)!;
    expect(refused.response.headers.get("retry-after")).toBe("5");
    expect(refused.doc.querySelector("h1")?.text).toBe("Server je preťažený");
  });

  it("shows an old revision as readers saw it, marked as old, linked to the current article, not indexed", async () => {
    const { id, client } = await article();
    await save(client, id, { title: "Revízie: Lipany 1434", content: "Druhá verzia textu.", sources: "Kronika https://example.org/kronika" });
    const [first] = revisionsOf(id);
    const { response, doc } = await new Client(base).get(history(id, `?revision=${first.id}`));
    expect(response.status).toBe(200);
    expect(doc.querySelector('meta[name="robots"]')?.getAttribute("content")).toBe("noindex");
    expect(doc.querySelector(".revision-article h1")?.text).toBe("Revízie: Bitka pri Lipanoch");
    expect(doc.querySelector(".revision-article .post-content")?.text).toBe("Prvá verzia textu.");
    expect(doc.querySelector(".revision-article .post-sources")).toBeNull();
    expect(doc.querySelectorAll(".revision-article .post-tags li").map((tag) => tag.text)).toEqual(["Stredovek", "Morava"]);
    expect(doc.querySelector(".revision-notice")?.text).toMatch(/^Staršia verzia z \d{1,2}\.\s\d{1,2}\.\s\d{4},?\s\d{1,2}:\d{2} \(verzia 1, /);
    expect(doc.querySelector(`.revision-notice a[href="/posts/${id}"]`)).not.toBeNull();
    // A visitor is offered no restore.
    expect(doc.querySelector('input[name="intent"][value="restore"]')).toBeNull();
  });

  it("restores an old revision for its author, after a confirmation step, as revision n+1 with the old text", async () => {
    const { id, client, email } = await article();
    await save(client, id, { title: "Revízie: Lipany 1434", content: "Druhá verzia textu.", sources: "Kronika https://example.org/kronika", summary: "Prepis" });
    const [first, second] = revisionsOf(id);
    const page = history(id, `?revision=${first.id}`);
    expect((await client.get(page)).doc.querySelector('form[method="post"] input[name="intent"][value="restore"]')).not.toBeNull();

    // Without JavaScript the first press asks.
    const asked = await client.post(page, { intent: "restore", revision: first.id });
    expect(asked.response.status).toBe(200);
    expect(asked.doc.querySelector("#confirm-restore-text")?.text).toBe(REVISION_MESSAGES.confirmRestore);
    expect(asked.doc.querySelector('form[method="post"] input[name="confirm"]')?.getAttribute("value")).toBe("yes");
    expect(revisionsOf(id)).toHaveLength(2);

    const before = stamp();
    const restored = await client.post(page, { intent: "restore", revision: first.id, confirm: "yes", baseRevision: "2" });
    expect(restored.response.status).toBe(303);
    expect(restored.response.headers.get("location")).toBe(history(id));
    const revisions = revisionsOf(id);
    // History is never rewritten: the restore is a new revision.
    expect(revisions.slice(0, 2)).toEqual([first, second]);
    expect(revisions[2]).toMatchObject({ number: 3, title: first.title, content: first.content, sources: first.sources, editor_id: userId(email) });
    expect(revisions[2].summary).toMatch(/^Obnovená verzia z \d{1,2}\.\s\d{1,2}\.\s\d{4},?\s\d{1,2}:\d{2}$/);
    expect(postRow(id)).toEqual({ title: first.title, content: first.content, sources: first.sources });
    expect(readDatabase(databasePath, (db) => db.prepare("SELECT body FROM post_texts WHERE post_id = ?").pluck().get(id))).toBe("Prvá verzia textu.");
    expect(stamp()).not.toBe(before);
    expect((await new Client(base).get(`/posts/${id}`)).doc.querySelector(".post-content")?.text).toBe("Prvá verzia textu.");
    // The author's own restore is no moderation.
    expect(logOf(id)).toEqual([]);

    // The current revision has nothing to restore.
    const again = await client.post(history(id, `?revision=${revisions[2].id}`), { intent: "restore", revision: revisions[2].id, confirm: "yes" });
    expect(again.response.status).toBe(400);
    expect(again.doc.querySelector(".form-error")?.text).toBe(REVISION_MESSAGES.alreadyCurrent);
    expect(revisionsOf(id)).toHaveLength(3);
  });

  it("refuses a restore by anyone but the author or an admin, and another article's revision, changing nothing", async () => {
    const { id, client } = await article();
    await save(client, id, { content: "Druhá verzia textu." });
    const [first] = revisionsOf(id);
    const page = history(id, `?revision=${first.id}`);
    const stranger = await registerUser(base);
    expect((await stranger.client.get(page)).doc.querySelector('input[name="intent"][value="restore"]')).toBeNull();
    for (const who of [stranger.client, new Client(base)]) {
      expect((await who.post(page, { intent: "restore", revision: first.id, confirm: "yes" })).response.status).toBe(403);
    }
    const other = await article("Revízie: cudzí článok");
    const foreign = revisionsOf(other.id)[0].id;
    expect((await client.post(page, { intent: "restore", revision: foreign, confirm: "yes" })).response.status).toBe(404);
    expect((await client.post(page, { intent: "restore", revision: foreign })).response.status).toBe(404);
    expect(revisionsOf(id)).toHaveLength(2);
    expect(postRow(id)).toMatchObject({ content: "Druhá verzia textu." });
  });

  it("writes an admin's restore of someone else's article in the moderation log", async () => {
    const title = "Revízie: obnova administrátorom";
    const { id, client } = await article(title);
    await save(client, id, { title, content: "Poškodený text." });
    const [first] = revisionsOf(id);
    const admin = await registerUser(base);
    readDatabase(databasePath, (db) => db.prepare("UPDATE users SET is_admin = 1 WHERE email = ?").run(admin.email), true);
    const restored = await admin.client.post(history(id, `?revision=${first.id}`), { intent: "restore", revision: first.id, confirm: "yes", baseRevision: "2" });
    expect(restored.response.status).toBe(303);
    expect(revisionsOf(id)[2]).toMatchObject({ number: 3, content: first.content, editor_id: userId(admin.email) });
    expect(logOf(id)).toEqual([{ actor_id: userId(admin.email), action: "restoreArticle", target_post_title: title, detail: "verzia 1" }]);
  });
});
