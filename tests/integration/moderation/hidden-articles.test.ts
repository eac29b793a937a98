import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, GOOD_PASSWORD, registerUser } from "../../../scripts/lib/client";
import { publish, saveEdit } from "../../../scripts/lib/publish";
import { startServer, type RunningServer } from "../../../scripts/lib/server";
import { variantFiles } from "~/lib/images";
import { registerConfirmedUser } from "../../support/accounts";
import { runBuildCommand } from "../../support/commands";
import { readDatabase } from "../../support/http";

// A server of its own: hidden articles and new admins would change what the shared server's other files compare their pages with.
let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ DEMO_CONTENT: "off", TRUST_PROXY: "true" });
});
afterAll(async () => {
  await server.stop();
});

const TAG = "Dejiny Slovenska";
const HIDDEN_NOTICE = "Tento článok je skrytý: vidíte ho len vy a redakcia.";

const cli = (...args: string[]) => runBuildCommand("runAdminCommand", args, server);
const query = <T>(sql: string, ...params: unknown[]) => readDatabase(server.databasePath, (db: Database.Database) => db.prepare(sql).all(...params) as T[]);
const hiddenAt = (postId: string) => query<{ hidden_at: number | null }>("SELECT hidden_at FROM posts WHERE id = ?", postId)[0].hidden_at;
const decisionsOf = (postId: string) =>
  query<{ action: string; ground: string; reason: string; decider_id: string | null; user_id: string | null }>(
    "SELECT action, ground, reason, decider_id, user_id FROM moderation_decisions WHERE post_id = ? ORDER BY id",
    postId,
  );
const logOf = (postId: string) => query<{ actor_name: string; action: string; detail: string }>("SELECT actor_name, action, detail FROM moderation_log WHERE target_post_id = ? ORDER BY id", postId);
/** What the site queued for an address but its confirmation link (the account pages below are confirmed, so they get moderation's mails). */
const mailsTo = (email: string) => query<{ subject: string }>("SELECT subject FROM mail_outbox WHERE recipient = ? AND kind <> 'account' ORDER BY created_at", email);

async function signedIn(email: string): Promise<Client> {
  const client = new Client(server.url);
  const { response } = await client.post("/signinsignup", { intent: "signin", email, password: GOOD_PASSWORD });
  expect(response.status).toBe(303);
  return client;
}

async function newAdmin(): Promise<Client> {
  const { email } = await registerUser(server.url);
  expect((await cli("grant", email)).code).toBe(0);
  return signedIn(email);
}

/** An author (its address confirmed) with a new article whose title holds `word` (to search for), in TAG. */
async function authorWithArticle(word: string) {
  const { client, email } = await registerConfirmedUser(server.url, server.databasePath);
  const postId = (await publish(client, `Skrývaný článok ${word}`, [TAG], `Text o udalosti ${word}.`))!;
  expect(postId).toBeTruthy();
  return { author: client, email, postId, word };
}

/** Every public place an article shows up in, as a visitor (or `reader`) finds it there. */
async function whereShown(postId: string, word: string, reader = new Client(server.url)) {
  const link = (html: string) => new RegExp(`/posts/${postId}["?#]`).test(html);
  const text = async (path: string) => (await reader.get(path)).html;
  return {
    list: link(await text("/posts?limit=90")),
    tag: link(await text(`/posts?tag=${encodeURIComponent(TAG)}`)),
    search: link(await text(`/posts?q=${word}`)),
    feed: (await text("/feed.xml")).includes(`/posts/${postId}`),
    tagFeed: (await text(`/feed.xml?tag=${encodeURIComponent(TAG)}`)).includes(`/posts/${postId}`),
    sitemap: (await text("/sitemap.xml")).includes(`/posts/${postId}`),
  };
}
const EVERYWHERE = { list: true, tag: true, search: true, feed: true, tagFeed: true, sitemap: true };
const NOWHERE = { list: false, tag: false, search: false, feed: false, tagFeed: false, sitemap: false };

/** The article's own addresses (its page, history, JSON data), answered as for an article that never existed. */
async function expectGone(reader: Client, postId: string, word: string) {
  for (const suffix of ["", "/history", "/history?page=1", ".data", "?_data=routes%2Fposts.%24postId"]) {
    const missing = await reader.get(`/posts/neexistuje0000${suffix}`);
    const { response, html, doc } = await reader.get(`/posts/${postId}${suffix}`);
    expect(response.status, suffix).toBe(missing.response.status);
    expect(response.status, suffix).toBeGreaterThanOrEqual(400);
    expect(html, suffix).not.toContain(word);
    expect(doc.querySelector("#obsah")?.text, suffix).toBe(missing.doc.querySelector("#obsah")?.text);
  }
}

/** The author or an admin reading a hidden article: private, not indexed, the notice above it. */
async function expectPrivateRead(reader: Client, postId: string, notice: string) {
  const { response, doc } = await reader.get(`/posts/${postId}`);
  expect(response.status).toBe(200);
  expect(response.headers.get("cache-control")).toBe("private, no-store");
  expect(response.headers.get("x-robots-tag")).toBe("noindex");
  expect(doc.querySelector('meta[name="robots"]')?.getAttribute("content")).toBe("noindex");
  expect(doc.querySelector('meta[property="og:title"]')).toBeNull();
  expect(doc.querySelector(".hidden-notice")?.text).toContain(notice);
  const history = await reader.get(`/posts/${postId}/history`);
  expect(history.response.status).toBe(200);
  expect(history.response.headers.get("cache-control")).toBe("private, no-store");
  expect(history.doc.querySelector('meta[name="robots"]')?.getAttribute("content")).toBe("noindex");
  const json = await reader.request(`/posts/${postId}.data`);
  expect(json.status).toBe(200);
  expect(json.headers.get("cache-control")).toBe("private, no-store");
  return doc;
}

describe("an admin hides an article from its page", () => {
  it("takes it from every list, feed, search and the sitemap, and its addresses answer 404 to anyone but its author and admins, cached before or not", async () => {
    const { author, email, postId, word } = await authorWithArticle("Zubrohlava");
    const admin = await newAdmin();
    const { client: reader } = await registerUser(server.url);
    const visitor = new Client(server.url);
    expect(await whereShown(postId, word)).toEqual(EVERYWHERE);
    // The pages are now in the page cache, a visitor's and a signed-in reader's.
    for (const client of [visitor, visitor, reader]) {
      for (const path of [`/posts/${postId}`, `/posts/${postId}/history`]) expect((await client.get(path)).response.status).toBe(200);
    }

    // Only admins get the form.
    expect((await author.get(`/posts/${postId}`)).doc.querySelector(".visibility-box")).toBeNull();
    const page = await admin.get(`/posts/${postId}`);
    expect(page.doc.querySelector(".visibility-box summary")?.text).toBe("Skryť článok (redakcia)");
    expect(page.doc.querySelector('.visibility-box input[name="intent"]')?.getAttribute("value")).toBe("hide");

    const hidden = await admin.post(`/posts/${postId}`, { intent: "hide", reason: "Vymyslené citáty bez zdroja." });
    expect(hidden.response.status).toBe(303);
    expect(hidden.response.headers.get("location")).toBe(`/posts/${postId}`);
    expect(hiddenAt(postId)).not.toBeNull();

    expect(await whereShown(postId, word)).toEqual(NOWHERE);
    expect(await whereShown(postId, word, reader)).toEqual(NOWHERE);
    await expectGone(visitor, postId, word);
    await expectGone(reader, postId, word);
    // Nor can another reader report, edit or delete it: the same 404.
    expect((await reader.get(`/posts/${postId}/report`)).response.status).toBe(404);
    expect((await reader.post(`/posts/${postId}`, { intent: "delete", confirm: "yes" })).response.status).toBe(404);

    const authorsPage = await expectPrivateRead(author, postId, HIDDEN_NOTICE);
    expect(authorsPage.querySelector('.hidden-notice a[href="/account/decisions"]')).not.toBeNull();
    const listed = (await author.get("/account")).doc.querySelectorAll(".article-list li").find((li) => li.querySelector(`a[href="/posts/${postId}"]`));
    expect(listed?.querySelector(".article-hidden")?.text).toBe("skrytý");
    const adminsPage = await expectPrivateRead(admin, postId, "Tento článok je skrytý");
    expect(adminsPage.querySelector('.visibility-box input[name="intent"]')?.getAttribute("value")).toBe("restoreHidden");
    expect(adminsPage.querySelector(".visibility-box summary")?.text).toBe("Znova zverejniť článok (redakcia)");

    expect(decisionsOf(postId)).toEqual([{ action: "hide", ground: "initiative", reason: "Vymyslené citáty bez zdroja.", decider_id: expect.any(String), user_id: expect.any(String) }]);
    expect(logOf(postId).map((row) => row.action)).toEqual(["hideArticle"]);
    // The author's statement of reasons is queued.
    expect(mailsTo(email)).toHaveLength(1);

    const restored = await admin.post(`/posts/${postId}`, { intent: "restoreHidden", reason: "Autor doplnil zdroje." });
    expect(restored.response.status).toBe(303);
    expect(hiddenAt(postId)).toBeNull();
    expect(await whereShown(postId, word)).toEqual(EVERYWHERE);
    const back = await visitor.get(`/posts/${postId}`);
    expect(back.response.status).toBe(200);
    expect(back.response.headers.get("cache-control")).toBe("public, max-age=60");
    expect(back.doc.querySelector(".hidden-notice")).toBeNull();
    expect((await reader.get(`/posts/${postId}/history`)).response.status).toBe(200);
    expect((await author.get("/account")).html).not.toContain("article-hidden");
    expect(decisionsOf(postId).map((row) => [row.action, row.reason])).toEqual([
      ["hide", "Vymyslené citáty bez zdroja."],
      ["restore", "Autor doplnil zdroje."],
    ]);
    expect(logOf(postId).map((row) => row.action)).toEqual(["hideArticle", "restoreHidden"]);
  });

  it("refuses a missing, too long or control-character reason with its message, keeping what was typed, and changes nothing", async () => {
    const { postId } = await authorWithArticle("Bezdovodov");
    const admin = await newAdmin();
    const cases = [
      { reason: "   ", message: "Napíšte odôvodnenie: prečítajú si ho nahlasovatelia aj autor." },
      { reason: "x".repeat(501), message: "Odôvodnenie môže mať najviac 500 znakov." },
      { reason: "Skryté\u0007 pípnutie", message: "Odôvodnenie nesmie obsahovať riadiace ani neviditeľné znaky." },
      { reason: "Obrátene \u202Etext", message: "Odôvodnenie nesmie obsahovať riadiace ani neviditeľné znaky." },
    ];
    for (const { reason, message } of cases) {
      const { response, doc } = await admin.post(`/posts/${postId}`, { intent: "hide", reason });
      expect(response.status, message).toBe(400);
      expect(doc.querySelector("#visibility-error")?.text).toBe(message);
      expect(doc.querySelector(".visibility-box")?.hasAttribute("open")).toBe(true);
      expect(doc.querySelector("#field-reason")?.getAttribute("aria-invalid")).toBe("true");
      expect(doc.querySelector("#field-reason")?.text).toBe(reason);
    }
    // The most the form allows is taken.
    expect(hiddenAt(postId)).toBeNull();
    expect(decisionsOf(postId)).toEqual([]);
    expect(logOf(postId)).toEqual([]);
    // Restoring an article that is not hidden says so.
    const notHidden = await admin.post(`/posts/${postId}`, { intent: "restoreHidden", reason: "Omylom." });
    expect(notHidden.response.status).toBe(409);
    expect(notHidden.doc.querySelector("#visibility-error")?.text).toBe("Tento článok nie je skrytý.");
    expect((await admin.post(`/posts/${postId}`, { intent: "hide", reason: "y".repeat(500) })).response.status).toBe(303);
    expect(decisionsOf(postId)[0].reason).toBe("y".repeat(500));
  });

  it("answers 403 to anyone but an admin, its author too, and changes nothing", async () => {
    const { author, postId } = await authorWithArticle("Neadmin");
    const { client: reader } = await registerUser(server.url);
    for (const client of [author, reader, new Client(server.url)]) {
      for (const intent of ["hide", "restoreHidden"]) {
        const { response } = await client.post(`/posts/${postId}`, { intent, reason: "Chcem ho skryť." });
        expect(response.status).toBe(403);
      }
    }
    expect((await author.post(`/posts/${postId}`, { intent: "hide", reason: "Chcem ho skryť." })).doc.querySelector("#edit-error")?.text).toBe(
      "Skryť alebo znova zverejniť článok môže len administrátor.",
    );
    expect(hiddenAt(postId)).toBeNull();
    expect(decisionsOf(postId)).toEqual([]);
  });
});

describe("a hidden article's image", () => {
  it("answers every address of every variant with the 404 of a missing image to everyone but its author and admins, who get it private, no-store; restored, it is everyone's again", async () => {
    const { author, postId } = await authorWithArticle("Obrazovec");
    const admin = await newAdmin();
    const { client: reader } = await registerUser(server.url);
    const visitor = new Client(server.url);
    const key = query<{ image: string }>("SELECT image FROM posts WHERE id = ?", postId)[0].image;
    const files = variantFiles(key);
    expect(files).toHaveLength(8);
    const get = async (client: Client, path: string, init: RequestInit = {}) => {
      const response = await client.request(path, init);
      return { status: response.status, cacheControl: response.headers.get("cache-control"), type: response.headers.get("content-type"), body: Buffer.from(await response.arrayBuffer()), etag: response.headers.get("etag") };
    };
    // Shown: everyone's, for a year; asked twice, so that the server holds it in memory.
    const etags = new Map<string, string>();
    for (const name of files) {
      for (let i = 0; i < 2; i++) {
        const answer = await get(visitor, `/images/${name}`);
        expect([answer.status, answer.cacheControl], name).toEqual([200, "public, max-age=31536000, immutable"]);
        etags.set(name, answer.etag!);
      }
    }

    expect((await admin.post(`/posts/${postId}`, { intent: "hide", reason: "Obrázok porušuje práva." })).response.status).toBe(303);
    const missing = await get(visitor, `/images/${"Q".repeat(16)}-400.webp`);
    expect(missing.status).toBe(404);
    const asMissing = (answer: Awaited<ReturnType<typeof get>>) => [answer.status, answer.cacheControl, answer.type, answer.body.toString()];
    for (const name of files) {
      for (const client of [visitor, reader]) {
        // At its address, at another spelling of it (Express's way), asked again with the copy's validator, and its head.
        expect(asMissing(await get(client, `/images/${name}`)), name).toEqual(asMissing(missing));
        expect(asMissing(await get(client, `/images/${name.replace("-", "%2D")}`)), name).toEqual(asMissing(missing));
        expect((await get(client, `/images/${name}`, { headers: { "If-None-Match": etags.get(name)! } })).status, name).toBe(404);
        expect((await get(client, `/images/${name}`, { method: "HEAD" })).status, name).toBe(404);
      }
      // Its author and admins still see the article, image included, kept by no cache.
      for (const client of [author, admin]) {
        const answer = await get(client, `/images/${name}`);
        expect([answer.status, answer.cacheControl], name).toEqual([200, "private, no-store"]);
        expect(answer.body.length, name).toBeGreaterThan(0);
      }
    }

    expect((await admin.post(`/posts/${postId}`, { intent: "restoreHidden", reason: "Obrázok je v poriadku." })).response.status).toBe(303);
    for (const name of files) {
      const answer = await get(visitor, `/images/${name}`);
      expect([answer.status, answer.cacheControl, answer.etag], name).toEqual([200, "public, max-age=31536000, immutable", etags.get(name)]);
    }
  });
});

describe("the author of a hidden article", () => {
  it("keeps editing it, directly and through a draft, and publishing the edit does not show it again", async () => {
    const { author, postId, word } = await authorWithArticle("Upravovanec");
    expect((await cli("hide", postId, "Chýbajú", "zdroje.")).code).toBe(0);
    expect((await saveEdit(author, postId, { title: `Skrývaný článok ${word} (opravený)`, content: "Opravený text.", sources: "", summary: "Oprava" })).response.status).toBe(303);
    expect(hiddenAt(postId)).not.toBeNull();

    const saved = await author.post(`/posts/${postId}?edit`, { intent: "draft", title: `Skrývaný článok ${word} (koncept)`, content: "Text z konceptu.", sources: "", summary: "Koncept" });
    expect(saved.response.status).toBe(303);
    const draftId = saved.response.headers.get("location")!.match(/^\/drafts\/([\w-]+)/)![1];
    expect((await author.get(`/drafts/${draftId}`)).response.status).toBe(200);
    const published = await author.post(`/drafts/${draftId}`, { intent: "publish", title: `Skrývaný článok ${word} (koncept)`, content: "Text z konceptu.", sources: "", summary: "Koncept" });
    expect(published.response.status).toBe(303);
    expect(published.response.headers.get("location")).toBe(`/posts/${postId}`);
    expect(hiddenAt(postId)).not.toBeNull();
    expect((await author.get(`/posts/${postId}`)).doc.querySelector("#post-title")?.text).toBe(`Skrývaný článok ${word} (koncept)`);
    expect(await whereShown(postId, word)).toEqual(NOWHERE);
    await expectGone(new Client(server.url), postId, word);
  });
});

describe("npm run admin hide, restore and resolve", () => {
  it("resolves an article's open reports, hides and restores it, with the same decisions, log and queued mails", async () => {
    const { email, postId, word } = await authorWithArticle("Riesenec");
    const { client: reporter, email: reporterEmail } = await registerConfirmedUser(server.url, server.databasePath);
    expect((await reporter.post(`/posts/${postId}/report`, { reason: "misinformation", note: "" })).response.status).toBe(200);
    const mailsBefore = { author: mailsTo(email).length, reporter: mailsTo(reporterEmail).length };

    const resolved = await cli("resolve", postId, "hide", "Nepravdivé", "údaje", "o", "roku.");
    expect(resolved).toMatchObject({ code: 0, output: expect.stringContaining(`resolve: done for „Skrývaný článok ${word}“ (${postId}).`) });
    expect(hiddenAt(postId)).not.toBeNull();
    expect(await whereShown(postId, word)).toEqual(NOWHERE);
    await expectGone(new Client(server.url), postId, word);
    expect(query<{ state: string }>("SELECT state FROM reports WHERE post_id = ?", postId)).toEqual([{ state: "upheld" }]);
    expect(decisionsOf(postId)).toEqual([{ action: "hide", ground: "reports", reason: "Nepravdivé údaje o roku.", decider_id: null, user_id: expect.any(String) }]);
    expect(logOf(postId)).toEqual([{ actor_name: "Príkazový riadok (npm run admin)", action: "decideReports", detail: expect.stringContaining("Nepravdivé údaje o roku.") }]);
    // Queued for the server's sender: the reporter's decision and the author's statement of reasons.
    expect(mailsTo(reporterEmail).length).toBe(mailsBefore.reporter + 1);
    expect(mailsTo(email).length).toBe(mailsBefore.author + 1);

    // Nothing open is left to resolve; hiding it again changes nothing.
    expect(await cli("resolve", postId, "dismiss", "Znova.")).toMatchObject({ code: 1, output: expect.stringContaining("O týchto hláseniach už bolo rozhodnuté.") });
    expect(await cli("hide", postId, "Znova.")).toMatchObject({ code: 0, output: expect.stringContaining("Článok už je skrytý.") });

    expect(await cli("restore", postId, "Autor", "článok", "opravil.")).toMatchObject({ code: 0, output: expect.stringContaining("Článok je znova zverejnený.") });
    expect(await whereShown(postId, word)).toEqual(EVERYWHERE);
    expect(await cli("restore", postId, "Znova.")).toMatchObject({ code: 1, output: expect.stringContaining("Tento článok nie je skrytý.") });
    expect((await cli("hide", postId, "Skryté", "z", "príkazového", "riadku.")).code).toBe(0);
    expect(decisionsOf(postId).map((row) => [row.action, row.ground])).toEqual([
      ["hide", "reports"],
      ["restore", "initiative"],
      ["hide", "initiative"],
    ]);
    expect(logOf(postId).map((row) => row.action)).toEqual(["decideReports", "restoreHidden", "hideArticle"]);
  });

  it("refuses bad input with a message and prints no raw control character", async () => {
    const { postId } = await authorWithArticle("Zlyvstup");
    expect(await cli("hide", postId)).toMatchObject({ code: 1, output: expect.stringContaining("Napíšte odôvodnenie") });
    expect(await cli("hide", postId, "x".repeat(501))).toMatchObject({ code: 1, output: expect.stringContaining("najviac 500 znakov") });
    expect(await cli("hide", postId, "Zvonček\u0007")).toMatchObject({ code: 1, output: expect.stringContaining("riadiace ani neviditeľné znaky") });
    expect(await cli("resolve", postId, "zakopat", "Dôvod.")).toMatchObject({ code: 2, output: expect.stringContaining("dismiss, dismissAbusive, requestFix, hide, delete, disable") });
    expect(await cli("resolve", postId, "dismiss", "Nič.")).toMatchObject({ code: 1, output: expect.stringContaining("O týchto hláseniach už bolo rozhodnuté.") });
    expect(await cli("hide")).toMatchObject({ code: 2, output: expect.stringContaining("Usage") });
    const unknown = await cli("hide", "nie\u001b[31mje\u202E", "Dôvod.");
    expect(unknown.code).toBe(1);
    expect(unknown.output).toContain("No article with the id");
    // eslint-disable-next-line no-control-regex -- what a terminal must not be sent
    expect(unknown.output).not.toMatch(/[\u0000-\u0008\u000B-\u001F\u007F\u202A-\u202E]/);
    expect(hiddenAt(postId)).toBeNull();
    expect(decisionsOf(postId)).toEqual([]);
  });
});
