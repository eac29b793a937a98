import { describe, expect, inject, it } from "vitest";
import { POST_MESSAGES } from "~/lib/rules";
import { Client, registerUser } from "../../scripts/lib/client";
import { publish } from "../../scripts/lib/publish";
import { expectFieldRefused, readDatabase } from "../support/http";

const base = inject("baseUrl");
const databasePath = inject("databasePath");

type Revision = { number: number; title: string; content: string; tags: string; editor_id: string | null; editor_name: string; summary: string; size: number };

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
  client.post(`/posts/${id}?edit`, { intent: "save", title: "Revízie: Bitka pri Lipanoch", content: "Prvá verzia textu.", ...fields });

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

  it("removes an article's revisions with it", async () => {
    const { id, client } = await article();
    await save(client, id, { content: "Druhá verzia.", summary: "Oprava" });
    expect(revisionsOf(id)).toHaveLength(2);
    expect((await client.post(`/posts/${id}`, { intent: "delete", confirm: "yes" })).response.status).toBe(303);
    expect(revisionsOf(id)).toEqual([]);
    expect((await new Client(base).get(`/posts/${id}/history`)).response.status).toBe(404);
  });
});
