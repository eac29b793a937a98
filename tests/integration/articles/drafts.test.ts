import { readdirSync } from "node:fs";
import { parse } from "node-html-parser";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { DRAFT_MESSAGES, DRAFT_NOTICES, DRAFTS_PER_ACCOUNT, PREVIEW_LABEL, PREVIEWS_PER_HOUR } from "~/lib/drafts";
import { CONTENT_MAX_DEPTH, CONTENT_MAX_LENGTH, CONTENT_MAX_TAGS, MESSAGES } from "~/lib/rules";
import { Client, registerUser } from "../../../scripts/lib/client";
import { makeImage } from "../../../scripts/lib/images";
import { publish } from "../../../scripts/lib/publish";
import { pageStatus, readDatabase } from "../../support/http";

const base = inject("baseUrl");
const databasePath = inject("databasePath");
const uploadsDir = inject("uploadsDir");

let jpeg: Buffer;
beforeAll(async () => {
  jpeg = await makeImage("jpeg", 480, 300);
});

type DraftRow = { id: string; author_id: string; post_id: string | null; base_revision: number | null; title: string; content: string; tags: string; summary: string; image_key: string | null };

const db = <T>(query: (db: import("better-sqlite3").Database) => T, write = false) => readDatabase(databasePath, query, write);
const draftRow = (id: string) => db((d) => d.prepare("SELECT * FROM drafts WHERE id = ?").get(id) as DraftRow | undefined);
const draftsOf = (email: string) =>
  db((d) => d.prepare("SELECT d.* FROM drafts d JOIN users u ON u.id = d.author_id WHERE u.email = ? ORDER BY d.created_at").all(email) as DraftRow[]);
const postRow = (id: string) => db((d) => d.prepare("SELECT id, title, content, image FROM posts WHERE id = ?").get(id) as { title: string; content: string; image: string } | undefined);
const revisionsOf = (postId: string) => db((d) => d.prepare("SELECT number, title, summary FROM revisions WHERE post_id = ? ORDER BY number").all(postId) as { number: number; title: string; summary: string }[]);
const filesOf = (key: string) => readdirSync(uploadsDir).filter((name) => name.startsWith(key));
const makeAdmin = (email: string) => db((d) => d.prepare("UPDATE users SET is_admin = 1 WHERE email = ?").run(email), true);

type Fields = { title?: string; content?: string; sources?: string; tags?: string[]; image?: Buffer | null; pendingImage?: string; intent?: string };

/** The create form (or a new article's draft form) as a browser sends it, with the button pressed last. */
function articleForm({ title = "", content = "", sources = "", tags = [], image = null, pendingImage = "", intent = "draft" }: Fields): FormData {
  const form = new FormData();
  form.append("title", title);
  form.append("content", content);
  for (const tag of tags) form.append("tags", tag);
  form.append("sources", sources);
  if (pendingImage) form.append("pendingImage", pendingImage);
  form.append("image", image ? new Blob([new Uint8Array(image)], { type: "image/jpeg" }) : new Blob([]), image ? "obrazok.jpg" : "");
  form.append("intent", intent);
  return form;
}

async function send(client: Client, path: string, fields: Fields) {
  const response = await client.request(path, { method: "POST", body: articleForm(fields), headers: { Origin: client.base } });
  const html = await response.text();
  return { response, html, doc: parse(html) };
}

/** A new article's draft saved from /create-post; its id. */
async function saveDraft(client: Client, fields: Fields): Promise<string> {
  const { response } = await send(client, "/create-post", { intent: "draft", ...fields });
  expect(response.status).toBe(303);
  const id = response.headers.get("location")?.match(/^\/drafts\/([\w-]+)$/)?.[1];
  expect(id).toBeTruthy();
  return id!;
}

/** A form whose article was gone, kept as the draft at `location`: a 303 there, or with JavaScript (a data request) a 202 naming it; the word to say there travels in the notice cookie. */
function expectKeptAt(sent: { response: Response; html: string }, path: string, location: string, label: string) {
  if (path.includes(".data")) {
    expect(sent.response.status, label).toBe(202);
    expect(sent.html, label).toContain(`"${location}"`);
  } else {
    expect(sent.response.status, label).toBe(303);
    expect(sent.response.headers.get("location"), label).toBe(location);
  }
}

describe("saving a draft", () => {
  it("needs only a title; the author finds it on /account and continues it", async () => {
    const { client, email } = await registerUser(base);
    const id = await saveDraft(client, { title: "Koncept: Veľká Morava" });
    expect(draftRow(id)).toMatchObject({ title: "Koncept: Veľká Morava", content: "", tags: "[]", post_id: null, image_key: null });

    const page = await client.get(`/drafts/${id}`);
    expect(page.response.status).toBe(200);
    expect(pageStatus(page.doc)).toBe(DRAFT_NOTICES.draftSaved);
    expect(page.doc.querySelector("#field-title")?.getAttribute("value")).toBe("Koncept: Veľká Morava");
    expect(page.response.headers.get("cache-control")).toBe("private, no-store");
    expect(page.doc.querySelector('meta[name="robots"]')?.getAttribute("content")).toBe("noindex");
    for (const label of ["Uložiť koncept", "Náhľad", "Uverejniť", "Zmazať koncept"]) expect(page.doc.querySelectorAll("button").map((b) => b.text.trim())).toContain(label);

    const account = await client.get("/account");
    const listed = account.doc.querySelector(`.draft-list a[href="/drafts/${id}"]`);
    expect(listed?.text).toBe("Koncept: Veľká Morava");
    expect(listed?.parentNode?.text).toContain("nový článok");

    // Saved again from its page: the same draft, changed.
    const again = await send(client, `/drafts/${id}`, { title: "Koncept: Veľká Morava 863", content: "Príchod Konštantína a Metoda.", tags: ["Stredovek"] });
    expect(again.response.status).toBe(303);
    expect(draftsOf(email)).toHaveLength(1);
    expect(draftRow(id)).toMatchObject({ title: "Koncept: Veľká Morava 863", content: "Príchod Konštantína a Metoda.", tags: '["Stredovek"]' });
  });

  it("refuses a draft without a title with its message, storing nothing and keeping what was typed", async () => {
    const { client, email } = await registerUser(base);
    const refused = await send(client, "/create-post", { title: "   ", content: "Text bez nadpisu", tags: ["Morava"] });
    expect(refused.response.status).toBe(400);
    expect(refused.doc.querySelector(".form-error")?.text).toBe(DRAFT_MESSAGES.titleMissing);
    expect(refused.doc.querySelector("#field-title")?.getAttribute("aria-invalid")).toBe("true");
    expect(refused.doc.querySelector("#field-content")?.text).toBe("Text bez nadpisu");
    expect(refused.doc.querySelector('input[name="tags"][value="Morava"]')).not.toBeNull();
    expect(draftsOf(email)).toEqual([]);
    // The other fields keep the create form's bounds.
    const unknownTag = await send(client, "/create-post", { title: "Nadpis", tags: ["Neexistuje"] });
    expect(unknownTag.response.status).toBe(400);
    expect(draftsOf(email)).toEqual([]);
  });

  it(`keeps at most ${DRAFTS_PER_ACCOUNT} drafts an account`, async () => {
    const { client, email } = await registerUser(base);
    db(
      (d) =>
        d
          .prepare(
            "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?) INSERT INTO drafts (id, author_id, title, created_at, updated_at) SELECT 'q' || hex(randomblob(8)), u.id, 'Starý koncept ' || i, i, i FROM n, users u WHERE u.email = ?",
          )
          .run(DRAFTS_PER_ACCOUNT, email),
      true,
    );
    const refused = await send(client, "/create-post", { title: "Jeden navyše" });
    expect(refused.response.status).toBe(400);
    expect(refused.doc.querySelector(".form-error")?.text).toBe(DRAFT_MESSAGES.tooMany);
    expect(draftsOf(email)).toHaveLength(DRAFTS_PER_ACCOUNT);
    // All of them are listed.
    expect((await client.get("/account")).doc.querySelectorAll(".draft-list li")).toHaveLength(DRAFTS_PER_ACCOUNT);
  });

  it("holds the cap when the last free places are asked for at once, each with an image to decode", async () => {
    const { client, email } = await registerUser(base);
    db(
      (d) =>
        d
          .prepare(
            "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?) INSERT INTO drafts (id, author_id, title, created_at, updated_at) SELECT 'r' || hex(randomblob(8)), u.id, 'Starý koncept ' || i, i, i FROM n, users u WHERE u.email = ?",
          )
          .run(DRAFTS_PER_ACCOUNT - 1, email),
      true,
    );
    const image = await makeImage("jpeg", 480, 300);
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => send(client, "/create-post", { title: `Naraz ${i}`, image })));
    expect(answers.map(({ response }) => response.status).sort()).toEqual([303, 400, 400, 400, 400, 400]);
    expect(draftsOf(email)).toHaveLength(DRAFTS_PER_ACCOUNT);
  });
});

describe("publishing a draft", () => {
  it("applies the create form's rules and messages, keeping the input and the draft; then publishes with the draft's image", async () => {
    const { client, email } = await registerUser(base);
    const id = await saveDraft(client, { title: "Koncept: Bitka pri Moháči", image: jpeg });
    const image = draftRow(id)!.image_key!;
    expect(filesOf(image).length).toBeGreaterThan(0);

    const refused = await send(client, `/drafts/${id}`, { intent: "publish", title: "Bitka pri Moháči", content: "Text", pendingImage: image });
    expect(refused.response.status).toBe(400);
    expect(refused.doc.querySelector(".form-error")?.text).toBe(MESSAGES.createFieldsMissing);
    expect(refused.doc.querySelector("#field-title")?.getAttribute("value")).toBe("Bitka pri Moháči");
    expect(refused.doc.querySelector("#field-content")?.text).toBe("Text");
    // The draft's image is still the form's.
    expect(refused.doc.querySelector('input[name="pendingImage"]')?.getAttribute("value")).toBe(image);
    expect(draftRow(id)?.title).toBe("Koncept: Bitka pri Moháči");

    const published = await send(client, `/drafts/${id}`, { intent: "publish", title: "Bitka pri Moháči", content: "Text o bitke", tags: ["Osobnosti"], pendingImage: image });
    expect(published.response.status).toBe(303);
    const postId = published.response.headers.get("location")!.match(/^\/posts\/([\w-]+)$/)![1];
    expect(postRow(postId)).toMatchObject({ title: "Bitka pri Moháči", image });
    expect(filesOf(image).length).toBeGreaterThan(0);
    expect(draftsOf(email)).toEqual([]);
    expect(revisionsOf(postId)).toHaveLength(1);
    // The draft's address is gone with it.
    expect((await client.get(`/drafts/${id}`)).response.status).toBe(404);
  });

  it("keeps a pending edit as a draft without changing the article; publishing it makes the next revision with its summary", async () => {
    const { client } = await registerUser(base);
    const postId = (await publish(client, "Koncept úpravy: Sámova ríša", ["Stredovek"], "Pôvodný text."))!;
    const saved = await client.post(`/posts/${postId}?edit`, { intent: "draft", title: "Sámova ríša (623)", content: "Upravený text.", sources: "", summary: "Doplnený rok" });
    expect(saved.response.status).toBe(303);
    const id = saved.response.headers.get("location")!.match(/^\/drafts\/([\w-]+)/)![1];
    expect(draftRow(id)).toMatchObject({ post_id: postId, base_revision: 1, summary: "Doplnený rok", title: "Sámova ríša (623)" });

    // Readers see the article as it was.
    const reader = await new Client(base).get(`/posts/${postId}`);
    expect(reader.doc.querySelector("#post-title")?.text).toBe("Koncept úpravy: Sámova ríša");
    expect(reader.html).not.toContain("Upravený text.");
    expect(revisionsOf(postId)).toHaveLength(1);
    const page = await client.get(`/drafts/${id}`);
    expect(page.doc.querySelector("#field-summary")?.getAttribute("value")).toBe("Doplnený rok");
    expect(page.doc.querySelector(`a[href="/posts/${postId}"]`)?.text).toBe("Koncept úpravy: Sámova ríša");

    const published = await client.post(`/drafts/${id}`, { intent: "publish", title: "Sámova ríša (623)", content: "Upravený text.", sources: "", summary: "Doplnený rok" });
    expect(published.response.status).toBe(303);
    expect(published.response.headers.get("location")).toBe(`/posts/${postId}`);
    expect(revisionsOf(postId)).toEqual([
      { number: 1, title: "Koncept úpravy: Sámova ríša", summary: "" },
      { number: 2, title: "Sámova ríša (623)", summary: "Doplnený rok" },
    ]);
    expect(draftRow(id)).toBeUndefined();
  });
  it("outlives its article: deleting the article leaves a pending edit as a new article's draft, never removed unasked", async () => {
    const author = await registerUser(base);
    const postId = (await publish(author.client, "Koncept úpravy: Veľká Morava", ["Stredovek"], "Pôvodný text."))!;
    const admin = await registerUser(base);
    makeAdmin(admin.email);
    const saved = await admin.client.post(`/posts/${postId}?edit`, { intent: "draft", title: "Veľká Morava (833)", content: "Text správcu.", sources: "", summary: "Rok" });
    const id = saved.response.headers.get("location")!.match(/^\/drafts\/([\w-]+)/)![1];
    expect((await author.client.post(`/posts/${postId}`, { intent: "delete", confirm: "yes" })).response.status).toBe(303);
    expect(postRow(postId)).toBeUndefined();
    expect(draftRow(id)).toMatchObject({ post_id: null, title: "Veľká Morava (833)", content: "Text správcu." });
    const listed = (await admin.client.get("/account")).doc.querySelectorAll(".draft-list li").find((item) => item.text.includes("Veľká Morava (833)"));
    expect(listed?.text).toContain("nový článok");
    expect((await admin.client.get(`/drafts/${id}`)).response.status).toBe(200);
  });

  it("keeps what was typed when its article is deleted while the draft's page is open: Save, Preview and Publish (no JavaScript and data requests) make it the new article's draft, with the page saying so", async () => {
    const { client } = await registerUser(base);
    const postId = (await publish(client, "Koncept úpravy: Nitrianske kniežatstvo", ["Stredovek"], "Pôvodný text."))!;
    const saved = await client.post(`/posts/${postId}?edit`, { intent: "draft", title: "Nitrianske kniežatstvo", content: "Text z konceptu.", sources: "", summary: "z konceptu", baseRevision: "1" });
    const id = saved.response.headers.get("location")!.match(/^\/drafts\/([\w-]+)/)![1];
    // The page is open (its form is the pending edit's); the article is deleted meanwhile (in another tab, or by an admin).
    expect((await client.get(`/drafts/${id}`)).doc.querySelector('input[name="summary"]')).not.toBeNull();
    expect((await client.post(`/posts/${postId}`, { intent: "delete", confirm: "yes" })).response.status).toBe(303);

    for (const intent of ["draft", "preview", "publish"]) {
      for (const path of [`/drafts/${id}`, `/drafts/${id}.data`]) {
        const typed = `Text napísaný po zmazaní (${intent}, ${path.endsWith(".data") ? "JavaScript" : "formulár"}).`;
        const sent = await client.post(path, { intent, title: `Nitrianske kniežatstvo ${intent}`, content: typed, sources: "Zobor, 880", summary: "z konceptu" });
        expectKeptAt(sent, path, `/drafts/${id}`, `${intent} ${path}`);
        expect(draftRow(id), `${intent} ${path}`).toMatchObject({ post_id: null, title: `Nitrianske kniežatstvo ${intent}`, content: typed, summary: "" });
        expect(pageStatus((await client.get(`/drafts/${id}`)).doc), `${intent} ${path}`).toBe(DRAFT_NOTICES.articleGone);
      }
    }
    expect(postRow(postId)).toBeUndefined();
    const page = await client.get(`/drafts/${id}`);
    expect(pageStatus(page.doc)).toBeUndefined();
    expect(page.doc.querySelector("h1")?.text).toBe("Koncept článku");
    expect(page.doc.querySelector("#field-content")?.text).toBe("Text napísaný po zmazaní (publish, JavaScript).");
    expect(page.doc.querySelector("#field-sources")?.text).toBe("Zobor, 880");

    // What the draft rules refuse (no title) comes back as typed, saying both what happened and why.
    const refused = await client.post(`/drafts/${id}`, { intent: "publish", title: "", content: "Bez nadpisu.", sources: "", summary: "" });
    expect(refused.response.status).toBe(400);
    expect(refused.doc.querySelector("#create-error")?.text).toBe(`${DRAFT_MESSAGES.articleGoneNotSaved} ${DRAFT_MESSAGES.titleMissing}`);
    expect(refused.doc.querySelector("#field-content")?.text).toBe("Bez nadpisu.");
    expect(draftRow(id)?.content).toBe("Text napísaný po zmazaní (publish, JavaScript).");
  });

  it("keeps what was typed into the edit form of an article deleted meanwhile (save, draft, preview; no JavaScript and data requests) as a new article's draft", async () => {
    const { client, email } = await registerUser(base);
    const postId = (await publish(client, "Úprava zmazaného článku", ["Stredovek"], "Pôvodný text."))!;
    expect((await client.post(`/posts/${postId}`, { intent: "delete", confirm: "yes" })).response.status).toBe(303);
    for (const intent of ["save", "draft", "preview"]) {
      for (const path of [`/posts/${postId}?edit`, `/posts/${postId}.data?edit`]) {
        const before = draftsOf(email).length;
        const typed = `Úprava po zmazaní (${intent}, ${path.includes(".data") ? "JavaScript" : "formulár"}).`;
        const sent = await client.post(path, { intent, title: "Úprava zmazaného článku", content: typed, sources: "", period: "1526", summary: "Oprava", baseRevision: "1" });
        const drafts = draftsOf(email);
        expect(drafts, `${intent} ${path}`).toHaveLength(before + 1);
        const draft = drafts.at(-1)!;
        expect(draft).toMatchObject({ post_id: null, base_revision: null, title: "Úprava zmazaného článku", content: typed, summary: "" });
        expectKeptAt(sent, path, `/drafts/${draft.id}`, `${intent} ${path}`);
        expect(pageStatus((await client.get(`/drafts/${draft.id}`)).doc), `${intent} ${path}`).toBe(DRAFT_NOTICES.articleGone);
      }
    }
    const page = await client.get(`/drafts/${draftsOf(email).at(-1)!.id}`);
    expect(page.doc.querySelector("#field-period")?.getAttribute("value")).toBe("1526");

    // Refused by the draft rules: the article's page is gone, so its error page gives the text back in the new article's form.
    const before = draftsOf(email).length;
    const refused = await client.post(`/posts/${postId}?edit`, { intent: "save", title: "", content: "Bez nadpisu.", sources: "", summary: "", baseRevision: "1" });
    expect(refused.response.status).toBe(404);
    expect(refused.doc.querySelector("h1")?.text).toBe("Článok sa nenašiel");
    expect(refused.doc.querySelector("#create-error")?.text).toBe(`${DRAFT_MESSAGES.articleGoneNotSaved} ${DRAFT_MESSAGES.titleMissing}`);
    expect(refused.doc.querySelector("form.create-form")?.getAttribute("action")).toBe("/create-post");
    expect(refused.doc.querySelector("#field-content")?.text).toBe("Bez nadpisu.");
    expect(draftsOf(email)).toHaveLength(before);
    // A visitor has no drafts, and a delete has nothing typed: both the plain 404.
    expect((await new Client(base).post(`/posts/${postId}?edit`, { intent: "save", title: "T", content: "C", baseRevision: "1" })).response.status).toBe(404);
    expect((await client.post(`/posts/${postId}`, { intent: "delete", confirm: "yes" })).response.status).toBe(404);
    expect(draftsOf(email)).toHaveLength(before);
  });

  it("shows a pending edit overtaken by another save the difference, then publishes it on the next try", async () => {
    const { client } = await registerUser(base);
    const postId = (await publish(client, "Koncept úpravy: Pribina", ["Stredovek"], "Pôvodný text."))!;
    const saved = await client.post(`/posts/${postId}?edit`, { intent: "draft", title: "Pribina", content: "Text z konceptu.", sources: "", summary: "z konceptu", baseRevision: "1" });
    const id = saved.response.headers.get("location")!.match(/^\/drafts\/([\w-]+)/)![1];
    // The article changes meanwhile (the author in another tab).
    const direct = await client.post(`/posts/${postId}?edit`, { intent: "save", title: "Pribina v Nitre", content: "Priamo upravený text.", sources: "", summary: "priamo", baseRevision: "1" });
    expect(direct.response.status).toBe(303);

    const typed = { title: "Pribina", content: "Text z konceptu.", sources: "", summary: "z konceptu" };
    const refused = await client.post(`/drafts/${id}`, { intent: "publish", ...typed });
    expect(refused.response.status).toBe(409);
    expect(refused.doc.querySelector("#field-content")?.text).toBe("Text z konceptu.");
    // The message points to the difference below it.
    expect(refused.doc.querySelector("#create-error")?.text).toContain("Kým ste písali");
    expect(refused.doc.querySelector(".edit-conflict .diff-text ins")?.text).toContain("Text z konceptu");
    expect(refused.html.indexOf('id="create-error"')).toBeLessThan(refused.html.indexOf('class="edit-conflict"'));
    expect(revisionsOf(postId)).toHaveLength(2);

    const again = await client.post(`/drafts/${id}`, { intent: "publish", ...typed });
    expect(again.response.status).toBe(303);
    expect(revisionsOf(postId).map((r) => r.summary)).toEqual(["", "priamo", "z konceptu"]);
    expect(draftRow(id)).toBeUndefined();
  });
});

describe("a draft is its author's (and admins') only", () => {
  it("is in no reader's channel, anonymous or signed in as someone else, even after its author viewed it", async () => {
    const { client } = await registerUser(base);
    const word = `Tajnykoncept${Date.now()}`;
    const id = await saveDraft(client, { title: `${word} v nadpise`, content: `${word} v texte`, tags: ["Objavy"], image: jpeg });
    // The author's own views first: nothing of them may be kept for anyone else.
    expect((await client.get(`/drafts/${id}`)).response.status).toBe(200);
    await client.get("/posts");
    await client.get("/posts?tag=Objavy");

    const missing = await new Client(base).get("/drafts/neexistuje");
    expect(missing.response.status).toBe(404);
    const other = (await registerUser(base)).client;
    for (const [who, reader] of [
      ["anonymous", new Client(base)],
      ["another user", other],
    ] as const) {
      const draftPage = await reader.get(`/drafts/${id}`);
      expect(draftPage.response.status, who).toBe(404);
      // The same page as an id that does not exist.
      expect(draftPage.doc.querySelector("h1")?.text, who).toBe(missing.doc.querySelector("h1")?.text);
      expect(draftPage.html, who).not.toContain(word);
      expect((await reader.get(`/posts/${id}`)).response.status, who).toBe(404);
      for (const path of ["/", "/posts", "/posts?tag=Objavy", `/posts?q=${word}`, "/feed.xml", "/feed.xml?tag=Objavy", "/sitemap.xml", "/conflicts", "/timeline", "/moderation"]) {
        const { response, html } = await reader.get(path);
        expect(response.status, `${who} ${path}`).toBeLessThan(500);
        // The search page says what was searched for: the draft's own words must not follow it.
        for (const secret of [`${word} v nadpise`, `${word} v texte`, id]) expect(html, `${who} ${path}`).not.toContain(secret);
      }
    }
    // Nor does another user's account page list it.
    expect((await other.get("/account")).html).not.toContain(word);
  });

  it("lets an admin read a draft, but only its author save, publish or delete it; anyone else gets 404 and nothing changes", async () => {
    const { client } = await registerUser(base);
    const id = await saveDraft(client, { title: "Koncept: Pribina", content: "Nitra" });
    const admin = await registerUser(base);
    makeAdmin(admin.email);
    const read = await admin.client.get(`/drafts/${id}`);
    expect(read.response.status).toBe(200);
    expect(read.response.headers.get("cache-control")).toBe("private, no-store");
    expect(read.doc.querySelector("#field-title")?.getAttribute("value")).toBe("Koncept: Pribina");
    expect(read.doc.querySelector("fieldset")?.hasAttribute("disabled")).toBe(true);
    for (const intent of ["draft", "publish"]) {
      expect((await send(admin.client, `/drafts/${id}`, { intent, title: "Prepísané adminom", content: "x", tags: ["Ostatné"] })).response.status, intent).toBe(403);
    }
    expect((await admin.client.post(`/drafts/${id}`, { intent: "delete", confirm: "yes" })).response.status).toBe(403);

    const other = (await registerUser(base)).client;
    for (const reader of [other, new Client(base)]) {
      expect((await send(reader, `/drafts/${id}`, { intent: "draft", title: "Prepísané" })).response.status).toBe(404);
      expect((await send(reader, `/drafts/${id}`, { intent: "publish", title: "Prepísané", content: "x", tags: ["Ostatné"], image: jpeg })).response.status).toBe(404);
      expect((await reader.post(`/drafts/${id}`, { intent: "delete", confirm: "yes" })).response.status).toBe(404);
    }
    expect(draftRow(id)).toMatchObject({ title: "Koncept: Pribina", content: "Nitra" });
  });

  it("keeps a pending edit of someone else's article from anyone who may not edit it", async () => {
    const author = await registerUser(base);
    const postId = (await publish(author.client, "Cudzí článok", ["Ostatné"], "Text."))!;
    const other = (await registerUser(base)).client;
    const refused = await other.post(`/posts/${postId}?edit`, { intent: "draft", title: "Cudzí koncept", content: "x" });
    expect(refused.response.status).toBe(403);
    expect(db((d) => d.prepare("SELECT count(*) FROM drafts WHERE post_id = ?").pluck().get(postId))).toBe(0);
  });
});

describe("a draft's image", () => {
  it("is the draft's until it is deleted: then its files go too (confirmed without JavaScript)", async () => {
    const { client } = await registerUser(base);
    const id = await saveDraft(client, { title: "Koncept s obrázkom", image: jpeg });
    const image = draftRow(id)!.image_key!;
    // Out of the pending uploads, which the day-old clean-up removes.
    expect(db((d) => d.prepare("SELECT count(*) FROM pending_images WHERE key = ?").pluck().get(image))).toBe(0);
    expect(filesOf(image).length).toBeGreaterThan(0);
    expect((await new Client(base).request(`/images/${filesOf(image)[0]}`)).status).toBe(200);

    const asked = await client.post(`/drafts/${id}`, { intent: "delete" });
    expect(asked.response.status).toBe(200);
    expect(asked.doc.querySelector(".confirm-box p")?.text).toBe(DRAFT_MESSAGES.confirmDelete);
    expect(draftRow(id)).toBeDefined();
    const deleted = await client.post(`/drafts/${id}`, { intent: "delete", confirm: "yes" });
    expect(deleted.response.status).toBe(303);
    expect(draftRow(id)).toBeUndefined();
    expect(filesOf(image)).toEqual([]);
  });

  it("is replaced by a new one, whose files replace the old", async () => {
    const { client } = await registerUser(base);
    const id = await saveDraft(client, { title: "Koncept: nový obrázok", image: jpeg });
    const first = draftRow(id)!.image_key!;
    expect((await send(client, `/drafts/${id}`, { title: "Koncept: nový obrázok", image: await makeImage("jpeg", 500, 320) })).response.status).toBe(303);
    const second = draftRow(id)!.image_key!;
    expect(second).not.toBe(first);
    expect(filesOf(first)).toEqual([]);
    expect(filesOf(second).length).toBeGreaterThan(0);
  });
});

describe("preview", () => {
  it("answers 200 with the sanitised article above the form, input kept (a new image as a pending upload), storing nothing", async () => {
    const { client, email } = await registerUser(base);
    const posts = db((d) => d.prepare("SELECT count(*) FROM posts").pluck().get());
    const content = "Úvod <b>tučne</b> [1].<script>alert('x')</script><img src=x onerror=alert(1)>\nDruhý riadok";
    const preview = await send(client, "/create-post", {
      intent: "preview",
      title: "Náhľad: Ľudovít Štúr",
      content,
      sources: "Štúr, Nárečja slovenskuo, 1846 https://example.com/stur",
      tags: ["Osobnosti"],
      image: jpeg,
    });
    expect(preview.response.status).toBe(200);
    const region = preview.doc.querySelector(".article-preview")!;
    expect(region.querySelector("#preview-label")?.text).toBe(PREVIEW_LABEL);
    expect(region.querySelector("h2")?.text).toBe("Náhľad: Ľudovít Štúr");
    const body = region.querySelector(".post-content")!;
    expect(body.innerHTML).toContain("<b>tučne</b>");
    expect(body.innerHTML).toContain("<br");
    expect(region.innerHTML).not.toMatch(/<script|onerror|alert/);
    expect(body.querySelector('a[href="#zdroj-1"]')?.text).toBe("[1]");
    expect(region.querySelector(".post-sources a")?.getAttribute("href")).toBe("https://example.com/stur");
    expect(region.querySelector(".post-tags")?.text).toContain("Osobnosti");
    expect(region.querySelector("img")).not.toBeNull();
    // The form is all there, the image kept as this user's pending upload.
    expect(preview.doc.querySelector("#field-title")?.getAttribute("value")).toBe("Náhľad: Ľudovít Štúr");
    expect(preview.doc.querySelector("#field-content")?.text).toBe(content);
    const pending = preview.doc.querySelector('input[name="pendingImage"]')?.getAttribute("value");
    expect(pending).toBeTruthy();
    expect(db((d) => d.prepare("SELECT count(*) FROM pending_images WHERE key = ?").pluck().get(pending))).toBe(1);
    expect(db((d) => d.prepare("SELECT count(*) FROM posts").pluck().get())).toBe(posts);
    expect(draftsOf(email)).toEqual([]);
    expect(preview.response.headers.get("cache-control")).toBe("private, no-store");
  });

  it("previews an edit without changing the article", async () => {
    const { client } = await registerUser(base);
    const postId = (await publish(client, "Náhľad úpravy", ["Ostatné"], "Pôvodný text."))!;
    const preview = await client.post(`/posts/${postId}?edit`, { intent: "preview", title: "Náhľad úpravy 2", content: "Nový <i>text</i>.", sources: "", summary: "" });
    expect(preview.response.status).toBe(200);
    expect(preview.doc.querySelector(".article-preview .post-content")?.innerHTML).toContain("<i>text</i>");
    expect(preview.doc.querySelector('textarea[name="content"]')?.text).toBe("Nový <i>text</i>.");
    expect(postRow(postId)?.title).toBe("Náhľad úpravy");
    expect(revisionsOf(postId)).toHaveLength(1);
  });
});

describe("bounds", () => {
  it("answers the worst allowed preview and draft quickly (the create form's limits bound both)", async () => {
    const { client, email } = await registerUser(base);
    // As many tags as allowed, nested as deep as allowed, the rest line breaks: 30,000 characters (as tests/integration/security/hardening.test.ts).
    const blocks = CONTENT_MAX_TAGS / CONTENT_MAX_DEPTH;
    const markup = "<b>".repeat(CONTENT_MAX_DEPTH) + "</b>".repeat(CONTENT_MAX_DEPTH);
    const worst = `${"<b>".repeat(CONTENT_MAX_DEPTH)}${"\n".repeat(CONTENT_MAX_LENGTH / blocks - markup.length)}${"</b>".repeat(CONTENT_MAX_DEPTH)}`.repeat(blocks);
    const timed = async (fields: Fields) => {
      const started = performance.now();
      const reply = await send(client, "/create-post", fields);
      return { status: reply.response.status, ms: performance.now() - started };
    };
    const preview = await timed({ intent: "preview", title: "Najhorší náhľad", content: worst });
    const draft = await timed({ intent: "draft", title: "Najhorší koncept", content: worst });
    console.log(`worst allowed preview: ${preview.status} in ${preview.ms.toFixed(0)} ms; worst draft save: ${draft.status} in ${draft.ms.toFixed(0)} ms`);
    expect([preview.status, draft.status]).toEqual([200, 303]);
    expect(preview.ms).toBeLessThan(2_000);
    expect(draftsOf(email)[0].content).toHaveLength(CONTENT_MAX_LENGTH);
    // One character more is refused for a draft too.
    expect((await send(client, "/create-post", { title: "Príliš dlhý", content: "x".repeat(CONTENT_MAX_LENGTH + 1) })).response.status).toBe(400);
  });

  it(`allows ${PREVIEWS_PER_HOUR} previews an hour per account`, async () => {
    const { client, email } = await registerUser(base);
    const id = db((d) => d.prepare("SELECT id FROM users WHERE email = ?").pluck().get(email) as string);
    // The hour's previews used up (the throttle's own counter).
    db((d) => d.prepare("INSERT INTO rate_limits (key, window_start, count) VALUES (?, ?, ?)").run(`previewsPerAccountPerHour:${id}`, Date.now(), PREVIEWS_PER_HOUR), true);
    const refused = await send(client, "/create-post", { intent: "preview", title: "Ešte jeden náhľad", content: "Text" });
    expect(refused.response.status).toBe(429);
    expect(refused.doc.querySelector(".form-error")?.text).toBe(DRAFT_MESSAGES.previewQuota);
    expect(refused.doc.querySelector("#field-content")?.text).toBe("Text");
    expect(refused.doc.querySelector(".article-preview")).toBeNull();
  });
});

describe("deleting an account", () => {
  it("removes its drafts and their images", async () => {
    const { client, email } = await registerUser(base);
    const id = await saveDraft(client, { title: "Koncept pred zrušením", image: jpeg });
    const image = draftRow(id)!.image_key!;
    const deleted = await client.post("/account/delete", { password: "správne-heslo-42" });
    expect(deleted.response.status).toBe(303);
    expect(draftsOf(email)).toEqual([]);
    expect(draftRow(id)).toBeUndefined();
    expect(filesOf(image)).toEqual([]);
  });
});
