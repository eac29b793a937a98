// What the largest articles the rules allow cost (docs/limits-and-security.md,
// "What an article may cost on disk"; docs/reading.md): on disk, a new article, a revision, an
// account's hour of publishing and editing, a draft; on the wire, the
// feeds. Builds a site with the demo articles in a temporary folder from the
// built server (run `npm run build` first):  npm run measure-storage
//
// It first sends a form whose links grow when percent-encoded (each "€" of
// an address stored as the 9 characters "%E2%82%AC"): a build that bounds
// what it stores refuses it, and the rest is measured with the largest form
// it accepts. The database's size is what SQLite counts: pages in use
// (page_count − freelist_count) × page_size, indexes and the search index
// included.
import Database from "better-sqlite3";
import { readFileSync, rmSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type Client, registerUser } from "./lib/client";
import { makeImage } from "./lib/images";
import { editBase, postForm } from "./lib/publish";
import { startServer } from "./lib/server";

// The forms' limits (app/lib/rules.ts, app/lib/sources.ts, app/lib/time/periods.ts, app/lib/drafts.ts).
const TITLE = 90;
const TEXT = 30_000;
const SOURCES = 30;
const REFERENCE = 500;
const LINK = 2_000;
const SOURCES_FIELD = 75_060;
const SUMMARY = 200;
const PERIOD = 100;
const POSTS_PER_HOUR = 10;
const EDITS_PER_HOUR = 120;
const FEED_SIZE = 20;
const PUBLIC_LOG_FEED_SIZE = 50;
const DECISION_REASON = 500;
const APPEAL_REASON = 500;

const tags = (JSON.parse(readFileSync("public/tags.json", "utf8")) as string[]).sort((a, b) => Buffer.byteLength(b) - Buffer.byteLength(a)).slice(0, 5);

type Article = { title: string; content: string; sources: string; period: string };

const lines = (line: string, count = SOURCES) => Array.from({ length: count }, () => line).join("\n");
/** The largest article the stored bounds allow: 5 bytes for each typed character of its text, 3 for each of its references', links of 2,000 characters as stored. */
const WORST: Article = {
  title: "€".repeat(TITLE),
  content: "&".repeat(TEXT),
  sources: lines(`${"€".repeat(REFERENCE)} https://a.sk/?${"x".repeat(LINK - "https://a.sk/?".length)}`),
  period: "29. septembra 1526 – 30. septembra 1526",
};
/**
 * As long as typed, but its links' addresses are stored 9 times as long: as
 * many such sources as an edit form can carry (an urlencoded or multipart
 * form's body may have 256 KB; here about 253 KB).
 */
const ENCODED: Article = {
  ...WORST,
  content: `<a href="http://a/${"€".repeat(TEXT - 30)}">odkaz</a>`,
  sources: lines(`${"x".repeat(REFERENCE)} http://a/${"€".repeat(LINK - "http://a/".length)}`, 25),
};

const dataDir = mkdtempSync(path.join(tmpdir(), "dejiny-storage-"));
const server = await startServer({}, dataDir);
const image = await makeImage("jpeg", 480, 300);

function inDatabase<T>(query: (db: Database.Database) => T, write = false): T {
  const db = new Database(server.databasePath, { readonly: !write, fileMustExist: true });
  try {
    return query(db);
  } finally {
    db.close();
  }
}

/** Bytes of the pages the database uses. */
const used = () =>
  inDatabase((db) => ((db.pragma("page_count", { simple: true }) as number) - (db.pragma("freelist_count", { simple: true }) as number)) * (db.pragma("page_size", { simple: true }) as number));

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

function articleForm(article: Article, extra: Record<string, string> = {}): FormData {
  const form = postForm(article.title, article.content, image, { tags });
  form.append("sources", article.sources);
  form.append("period", article.period);
  for (const [name, value] of Object.entries(extra)) form.append(name, value);
  return form;
}

/** Publish; the article's id, or the answer's status. */
async function publish(client: Client, article: Article): Promise<string | number> {
  const response = await client.request("/create-post", { method: "POST", body: articleForm(article), headers: { Origin: server.url } });
  await response.arrayBuffer();
  return response.status === 303 ? response.headers.get("location")!.split("/").pop()! : response.status;
}

/** Save an edit (multipart: the largest, urlencoded, is more than an urlencoded form may be); the answer's status. */
async function edit(client: Client, id: string, article: Article): Promise<number> {
  const form = new FormData();
  const fields = { intent: "save", baseRevision: await editBase(client, id), ...article, summary: "€".repeat(SUMMARY) };
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  const response = await client.request(`/posts/${id}?edit`, { method: "POST", body: form, headers: { Origin: server.url } });
  await response.arrayBuffer();
  return response.status;
}

const TEXT_BYTES = `length(CAST(title AS BLOB)) + length(CAST(content AS BLOB)) + length(CAST(sources AS BLOB)) + length(CAST(tags AS BLOB))
  + length(CAST(period AS BLOB)) + length(CAST(summary AS BLOB))`;

try {
  // Which is the largest article this build keeps?
  const probe = await registerUser(server.url);
  const encoded = await publish(probe.client, ENCODED);
  const article = typeof encoded === "string" ? ENCODED : WORST;
  console.log(`An article whose links grow when encoded: ${typeof encoded === "string" ? "kept" : `refused (${encoded})`}; measuring with the ${typeof encoded === "string" ? "encoded" : "largest allowed"} one.`);

  // One account's hour: its new articles, then its saved edits, up to the limits.
  const author = await registerUser(server.url);
  const start = used();
  const ids: string[] = [];
  for (let i = 0; i < POSTS_PER_HOUR; i++) {
    const id = await publish(author.client, article);
    if (typeof id !== "string") throw new Error(`publishing answered ${id}`);
    ids.push(id);
  }
  const published = used();
  for (let i = 0; i < EDITS_PER_HOUR; i++) {
    const status = await edit(author.client, ids[i % ids.length], article);
    if (status !== 303) throw new Error(`edit ${i + 1} answered ${status}`);
  }
  const edited = used();
  const over = await edit(author.client, ids[0], article);
  const revisionText = inDatabase(
    (db) =>
      db
        .prepare(`SELECT max(${TEXT_BYTES} + length(CAST(editor_name AS BLOB))) FROM revisions WHERE post_id IN (SELECT value FROM json_each(?))`)
        .pluck()
        .get(JSON.stringify(ids)) as number,
  );
  console.log(`A revision's text columns: ${revisionText.toLocaleString("en")} bytes (${kb(revisionText)})`);
  console.log(`A new article (the row, revision 1, tags, search index): ${kb((published - start) / POSTS_PER_HOUR)} on disk`);
  console.log(`A saved edit (its revision, the search index kept up): ${kb((edited - published) / EDITS_PER_HOUR)} on disk`);
  console.log(`One account's hour (${POSTS_PER_HOUR} articles, ${EDITS_PER_HOUR} edits; the next edit answered ${over}): ${mb(edited - start)}`);

  // Drafts, as typed: every character 3 bytes (the sources field all ideographic spaces, which are blank lines).
  const drafter = await registerUser(server.url);
  const draft: Article = { title: "€".repeat(TITLE), content: "€".repeat(TEXT), sources: "\u3000".repeat(SOURCES_FIELD), period: "\u3000".repeat(PERIOD) };
  const beforeDrafts = used();
  const DRAFTS = 10;
  for (let i = 0; i < DRAFTS; i++) {
    const response = await drafter.client.request("/create-post", { method: "POST", body: articleForm(draft, { intent: "draft" }), headers: { Origin: server.url } });
    await response.arrayBuffer();
    if (response.status !== 303) throw new Error(`a draft answered ${response.status}`);
  }
  const draftText = inDatabase(
    (db) =>
      db
        .prepare(`SELECT max(${TEXT_BYTES}) FROM drafts WHERE author_id = (SELECT id FROM users WHERE email = ?)`)
        .pluck()
        .get(drafter.email) as number,
  );
  console.log(`A draft's text columns: ${draftText.toLocaleString("en")} bytes; on disk ${kb((used() - beforeDrafts) / DRAFTS)}`);

  // Feeds: the newest 20 articles, each as large as a feed entry gets: quotation marks in the title (6 bytes each in XML),
  // a text long enough to be cut (many short paragraphs, so the lead fills its room), two authors (10 articles an hour each).
  const feedArticle: Article = {
    title: '"'.repeat(TITLE),
    content: `${"'".repeat(160)}\n\n${`${"&".repeat(20)}\n\n`.repeat(TEXT / 22 - 10)}`,
    sources: WORST.sources,
    period: WORST.period,
  };
  const feedIds: string[] = [];
  for (const n of [1, 2]) {
    const { client } = await registerUser(server.url, { displayName: `${'"'.repeat(49)}${n}` });
    for (let i = 0; i < FEED_SIZE / 2; i++) {
      const id = await publish(client, feedArticle);
      if (typeof id !== "string") throw new Error(`publishing answered ${id}`);
      feedIds.push(id);
    }
  }
  for (const feed of ["/feed.xml", `/feed.xml?tag=${encodeURIComponent(tags[0])}`]) {
    const body = await (await fetch(`${server.url}${feed}`)).text();
    const entries = body.match(/<entry>.*?<\/entry>/gs) ?? [];
    const largest = Math.max(...entries.map((entry) => Buffer.byteLength(entry)));
    console.log(`${feed}: ${kb(Buffer.byteLength(body))} (${entries.length} entries, the largest ${largest.toLocaleString("en")} bytes)`);
  }

  // The moderation log's feed: 50 decisions with the longest reasons moderators may write, each appealed
  // and the appeal granted with the longest reason, on a visible article with the largest title.
  inDatabase((db) => {
    const authorId = db.prepare("SELECT author_id FROM posts WHERE id = ?").pluck().get(feedIds[0]) as string;
    const decide = db.prepare(
      "INSERT INTO moderation_decisions (created_at, action, post_id, post_title, user_id, ground, ground_detail, reason) VALUES (?, 'requestFix', ?, ?, ?, 'initiative', '', ?)",
    );
    const appeal = db.prepare("INSERT INTO appeals (decision_id, user_id, text, created_at, state, decided_at, reason) VALUES (?, ?, 'Námietka', ?, 'granted', ?, ?)");
    const now = Date.now();
    for (let i = 0; i < PUBLIC_LOG_FEED_SIZE; i++) {
      const id = decide.run(now + i, feedIds[0], feedArticle.title, authorId, '"'.repeat(DECISION_REASON)).lastInsertRowid;
      appeal.run(id, authorId, now + i, now + i, '"'.repeat(APPEAL_REASON));
    }
  }, true);
  const log = await (await fetch(`${server.url}/moderation/feed.xml`)).text();
  const logEntries = log.match(/<entry>.*?<\/entry>/gs) ?? [];
  console.log(`/moderation/feed.xml: ${kb(Buffer.byteLength(log))} (${logEntries.length} entries, the largest ${Math.max(...logEntries.map((e) => Buffer.byteLength(e))).toLocaleString("en")} bytes)`);
} finally {
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
