import { parse } from "node-html-parser";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { ARTICLE_MAX_BYTES, DRAFT_TEXT_MAX_BYTES, FEED_ENTRY_MAX_BYTES, FEED_MAX_BYTES, REVISION_TEXT_MAX_BYTES } from "~/lib/bounds";
import { REVISION_MESSAGES } from "~/lib/revisions";
import { CONTENT_MAX_LENGTH, POST_MESSAGES, SUMMARY_MAX_LENGTH, TITLE_MAX_LENGTH } from "~/lib/rules";
import { SOURCE_MESSAGES, SOURCE_TEXT_MAX_LENGTH, SOURCE_URL_MAX_LENGTH, SOURCES_FIELD_MAX_LENGTH, SOURCES_MAX } from "~/lib/sources";
import { type Client, registerUser } from "../../../scripts/lib/client";
import { makeImage } from "../../../scripts/lib/images";
import { editBase, postForm } from "../../../scripts/lib/publish";
import { parseFeed } from "../../support/feeds";
import { readDatabase } from "../../support/http";

const base = inject("baseUrl");
const databasePath = inject("databasePath");

let jpeg: Buffer;
beforeAll(async () => {
  jpeg = await makeImage("jpeg", 480, 300);
});

const TAGS = ["Napoleon / Napoleonské vojny", "Dejiny Slovenska", "Vojenská stratégia", "Vojenská technika", "Druhá svetová vojna"];
const TITLE = "€".repeat(TITLE_MAX_LENGTH);
/** 30,000 characters typed, each stored as the 5 bytes of "&amp;". */
const WORST_TEXT = "&".repeat(CONTENT_MAX_LENGTH);
/** 30 sources, each a reference of 3-byte characters and a link that is 2,000 characters as stored. */
const LINK = "https://a.sk/?";
const WORST_SOURCES = Array.from({ length: SOURCES_MAX }, () => `${"€".repeat(SOURCE_TEXT_MAX_LENGTH)} ${LINK}${"x".repeat(SOURCE_URL_MAX_LENGTH - LINK.length)}`).join("\n");
/** As long as typed, but each "€" of a link's address is stored as the 9 characters of %E2%82%AC. */
const ENCODED_TEXT = `<a href="http://a/${"€".repeat(CONTENT_MAX_LENGTH - 30)}">odkaz</a>`;
const ENCODED_SOURCES = Array.from({ length: SOURCES_MAX }, () => `${"€".repeat(SOURCE_TEXT_MAX_LENGTH)} http://a/${"€".repeat(SOURCE_URL_MAX_LENGTH - 9)}`).join("\n");

/** The text columns of an author's revisions, in bytes as the database stores them. */
const revisionBytes = (email: string) =>
  readDatabase(databasePath, (db) =>
    db
      .prepare(
        `SELECT r.post_id AS postId, r.number,
          length(CAST(r.title AS BLOB)) + length(CAST(r.content AS BLOB)) + length(CAST(r.sources AS BLOB)) + length(CAST(r.tags AS BLOB))
          + length(CAST(r.period AS BLOB)) + length(CAST(r.editor_name AS BLOB)) + length(CAST(r.summary AS BLOB))
          + coalesce(length(CAST(r.content_source AS BLOB)), 0) AS bytes,
          coalesce(length(CAST(r.content_source AS BLOB)), 0) AS sourceBytes
        FROM revisions r JOIN users u ON u.id = r.editor_id WHERE u.email = ? ORDER BY r.created_at, r.number`,
      )
      .all(email) as { postId: string; number: number; bytes: number; sourceBytes: number }[],
  );

function articleForm(fields: { content: string; sources: string; intent?: string }): FormData {
  const form = postForm(TITLE, fields.content, jpeg, { tags: TAGS });
  form.append("sources", fields.sources);
  form.append("period", "29. septembra 1526 – 30. septembra 1526");
  if (fields.intent) form.append("intent", fields.intent);
  return form;
}

/**
 * An edit sent as multipart/form-data, as the page may send it: the
 * largest allowed edit, urlencoded (each "€" as %E2%82%AC), is more than the
 * 256 KB an urlencoded form may be.
 */
async function edit(client: Client, id: string, fields: Record<string, string>) {
  const form = new FormData();
  for (const [name, value] of Object.entries({ intent: "save", baseRevision: await editBase(client, id), title: TITLE, ...fields })) form.append(name, value);
  const response = await client.request(`/posts/${id}?edit`, { method: "POST", body: form, headers: { Origin: base } });
  const html = await response.text();
  return { response, doc: parse(html) };
}

/** Whether a field came back exactly as typed (without printing 30,000 characters when it did not). */
const shownAsTyped = (shown: string | undefined, typed: string) => ({ length: shown?.length, same: shown === typed });
const asTyped = (typed: string) => ({ length: typed.length, same: true });

async function create(client: Client, fields: { content: string; sources: string; intent?: string }, path = "/create-post") {
  const response = await client.request(path, { method: "POST", body: articleForm(fields), headers: { Origin: base } });
  return { response, text: await response.text() };
}

describe("what an article stores is bounded by what is stored", () => {
  it("stores no revision past REVISION_TEXT_MAX_BYTES, however its links are encoded, and refuses such a form as typed", async () => {
    const { client, email } = await registerUser(base);
    const { response, text } = await create(client, { content: ENCODED_TEXT, sources: ENCODED_SOURCES });
    // Whatever the answer, nothing past the bound is in the database.
    expect(Math.max(0, ...revisionBytes(email).map((r) => r.bytes))).toBeLessThanOrEqual(REVISION_TEXT_MAX_BYTES);

    // Without JavaScript: the form again, as typed, the field marked.
    expect(response.status).toBe(400);
    const doc = parse(text);
    expect(doc.querySelector(".form-error")?.text).toBe(SOURCE_MESSAGES.linkTooLong(1));
    expect(shownAsTyped(doc.querySelector("textarea#field-sources")?.text, ENCODED_SOURCES)).toEqual(asTyped(ENCODED_SOURCES));
    expect(doc.querySelector("textarea#field-sources")?.getAttribute("aria-invalid")).toBe("true");
    expect(shownAsTyped(doc.querySelector('textarea[name="content"]')?.text, ENCODED_TEXT)).toEqual(asTyped(ENCODED_TEXT));

    // The text alone: refused after sanitising, as typed.
    const text2 = await create(client, { content: ENCODED_TEXT, sources: "" });
    expect(text2.response.status).toBe(400);
    const doc2 = parse(text2.text);
    expect(doc2.querySelector(".form-error")?.text).toBe(POST_MESSAGES.contentStoredTooLong);
    expect(shownAsTyped(doc2.querySelector('textarea[name="content"]')?.text, ENCODED_TEXT)).toEqual(asTyped(ENCODED_TEXT));
    expect(doc2.querySelector('textarea[name="content"]')?.getAttribute("aria-invalid")).toBe("true");

    // With JavaScript (the route's data): the same refusal, what was typed kept.
    const data = await create(client, { content: ENCODED_TEXT, sources: "" }, "/create-post.data");
    expect(data.response.status).toBe(400);
    expect(data.text).toContain(POST_MESSAGES.contentStoredTooLong);
    expect(data.text).toContain(`http://a/${"€".repeat(100)}`);
    expect(revisionBytes(email)).toEqual([]);
  });

  it("keeps the largest article the rules allow, and its edits, within the bound; an edit past it changes nothing", async () => {
    const { client, email } = await registerUser(base);
    const { response } = await create(client, { content: WORST_TEXT, sources: WORST_SOURCES });
    expect(response.status).toBe(303);
    const id = response.headers.get("location")!.split("/").pop()!;
    const saved = await edit(client, id, { content: WORST_TEXT, sources: WORST_SOURCES, summary: "€".repeat(SUMMARY_MAX_LENGTH), period: "29. septembra 1526 – 30. septembra 1526" });
    expect(saved.response.status).toBe(303);
    const [first, second] = revisionBytes(email);
    expect([first.number, second.number]).toEqual([1, 2]);
    expect(second.bytes).toBeLessThanOrEqual(REVISION_TEXT_MAX_BYTES);
    // The worst case, nearly: only the period and the name are short of theirs, and the text as written
    // ("&", one byte a character as typed, five as stored) of its 3 bytes a character.
    expect(second.sourceBytes).toBe(CONTENT_MAX_LENGTH);
    expect(second.bytes - second.sourceBytes).toBeGreaterThan(REVISION_TEXT_MAX_BYTES - ARTICLE_MAX_BYTES.contentSource - 500);

    const refused = await edit(client, id, { content: ENCODED_TEXT, sources: "" });
    expect(refused.response.status).toBe(400);
    expect(refused.doc.querySelector(".form-error")?.text).toBe(POST_MESSAGES.contentStoredTooLong);
    expect(shownAsTyped(refused.doc.querySelector('textarea[name="content"]')?.text, ENCODED_TEXT)).toEqual(asTyped(ENCODED_TEXT));
    expect(revisionBytes(email)).toHaveLength(2);
  });

  it("does not restore a revision stored past the bounds (saved before they held)", async () => {
    const { client, email } = await registerUser(base);
    const { response } = await create(client, { content: "Prvá verzia.", sources: "" });
    const id = response.headers.get("location")!.split("/").pop()!;
    expect((await edit(client, id, { content: "Druhá verzia.", sources: "" })).response.status).toBe(303);
    const legacy = `<a href="http://a/${"%E2%82%AC".repeat(CONTENT_MAX_LENGTH - 30)}" rel="nofollow ugc noopener">odkaz</a>`;
    const first = readDatabase(
      databasePath,
      (db) => {
        db.prepare("UPDATE revisions SET content = ? WHERE post_id = ? AND number = 1").run(legacy, id);
        return db.prepare("SELECT id FROM revisions WHERE post_id = ? AND number = 1").pluck().get(id) as string;
      },
      true,
    );
    const restored = await client.post(`/posts/${id}/history?revision=${first}`, { intent: "restore", revision: first, confirm: "yes" });
    expect(restored.response.status).toBe(400);
    expect(restored.doc.querySelector(".form-error")?.text).toBe(REVISION_MESSAGES.beyondBounds);
    expect(revisionBytes(email).map((r) => r.number)).toEqual([1, 2]);
  });

  it("keeps a draft, stored as typed, within DRAFT_TEXT_MAX_BYTES", async () => {
    const { client, email } = await registerUser(base);
    // Every character 3 bytes: the sources field all ideographic spaces (blank lines: no source).
    const sources = "\u3000".repeat(SOURCES_FIELD_MAX_LENGTH);
    const { response } = await create(client, { content: "€".repeat(CONTENT_MAX_LENGTH), sources, intent: "draft" });
    expect(response.status).toBe(303);
    const bytes = readDatabase(databasePath, (db) =>
      db
        .prepare(
          `SELECT length(CAST(d.title AS BLOB)) + length(CAST(d.content AS BLOB)) + length(CAST(d.sources AS BLOB)) + length(CAST(d.tags AS BLOB))
            + length(CAST(d.summary AS BLOB)) + length(CAST(d.period AS BLOB))
          FROM drafts d JOIN users u ON u.id = d.author_id WHERE u.email = ?`,
        )
        .pluck()
        .get(email) as number,
    );
    expect(bytes).toBeLessThanOrEqual(DRAFT_TEXT_MAX_BYTES);
    expect(bytes).toBeGreaterThan(DRAFT_TEXT_MAX_BYTES - 1_000);
  });
});

describe("a feed entry is bounded", () => {
  it("sends the largest allowed article as its beginning and a link, within FEED_ENTRY_MAX_BYTES, and the feed within FEED_MAX_BYTES", async () => {
    const { client } = await registerUser(base);
    const { response } = await create(client, { content: `Úvod článku.\n\n${WORST_TEXT.slice(14)}`, sources: WORST_SOURCES });
    expect(response.status).toBe(303);
    const id = response.headers.get("location")!.split("/").pop()!;
    for (const path of ["/feed.xml", `/feed.xml?tag=${encodeURIComponent(TAGS[0])}`]) {
      const body = await (await fetch(`${base}${path}`)).text();
      const entry = body.match(new RegExp(`<entry>(?:(?!</entry>).)*/posts/${id}".*?</entry>`, "s"))?.[0] ?? "";
      expect(Buffer.byteLength(entry), path).toBeGreaterThan(0);
      expect(Buffer.byteLength(entry), path).toBeLessThanOrEqual(FEED_ENTRY_MAX_BYTES);
      expect(Buffer.byteLength(body), path).toBeLessThanOrEqual(FEED_MAX_BYTES);
      // Still a feed a reader reads; the article's first paragraph, and where the rest is.
      const { items } = await parseFeed(body);
      const item = items.find((i) => i.link.endsWith(`/posts/${id}`))!;
      expect(item.description).toContain("Úvod článku.");
      expect(item.description).toContain(`<a href="${item.link}">Celý článok a jeho zdroje nájdete na stránke Dejiny.</a>`);
      expect(item.description).not.toContain("<h2>Zdroje</h2>");
    }
  });
});
