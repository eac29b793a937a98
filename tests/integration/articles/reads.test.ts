import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, registerUser } from "../../../scripts/lib/client";
import { publish } from "../../../scripts/lib/publish";
import { startServer, type RunningServer } from "../../../scripts/lib/server";
import { grantAdmin } from "../../support/accounts";
import { readDatabase } from "../../support/http";

/**
 * Reads of articles (docs/reading.md#reads), on a server of its own whose
 * batches are written every second (READS_FLUSH_SECONDS=1), so the tests
 * can see what was written; and one that writes only when it stops.
 */

const FIREFOX = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:132.0) Gecko/20100101 Firefox/132.0";
const BROWSER = { "User-Agent": FIREFOX };

let server: RunningServer;
let author: Client;
let reader: Client;
let admin: Client;
let article: string;
let sentinel: string;

const written = (postId: string): number =>
  readDatabase(server.databasePath, (db) => (db.prepare("SELECT coalesce(sum(count), 0) AS n FROM post_reads WHERE post_id = ?").get(postId) as { n: number }).n);

/** Wait until the written count of `postId` is `count` (a batch is written within a second of its first read). */
async function expectWritten(postId: string, count: number): Promise<void> {
  const until = Date.now() + 10_000;
  while (written(postId) !== count && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 100));
  expect(written(postId)).toBe(count);
}

/**
 * Everything counted before now has been written: a visitor's read of the
 * sentinel article is counted after them, and a batch is written whole.
 */
async function settled(): Promise<void> {
  const before = written(sentinel);
  await open(new Client(server.url), `/posts/${sentinel}`);
  await expectWritten(sentinel, before + 1);
}

/** A GET by a browser (its User-Agent unless given another), the body read. */
async function open(client: Client, path: string, headers: Record<string, string> = {}, method = "GET"): Promise<Response> {
  const response = await client.request(path, { method, headers: { ...BROWSER, ...headers } });
  await response.arrayBuffer();
  return response;
}

beforeAll(async () => {
  server = await startServer({ DEMO_CONTENT: "off", TRUST_PROXY: "true", READS_FLUSH_SECONDS: "1" });
  let email: string;
  ({ client: author } = await registerUser(server.url, { displayName: "Autorka Čítaných" }));
  ({ client: reader } = await registerUser(server.url));
  ({ client: admin, email } = await registerUser(server.url));
  grantAdmin(server.databasePath, email);
  article = (await publish(author, "Článok, ktorý čítajú"))!;
  sentinel = (await publish(author, "Strážny článok"))!;
  expect(article && sentinel).toBeTruthy();
});

afterAll(async () => {
  await server?.stop();
});

describe("reads", () => {
  it("counts every view of an anonymous reader, from the page cache too, and a signed-in reader's", async () => {
    const visitor = new Client(server.url);
    for (let i = 0; i < 3; i++) expect((await open(visitor, `/posts/${article}`)).status).toBe(200);
    // The list's state kept in the address; a text browser.
    expect((await open(visitor, `/posts/${article}?tag=Ostatn%C3%A9&limit=18`)).status).toBe(200);
    expect((await open(visitor, `/posts/${article}`, { "User-Agent": "w3m/0.5.3+git20230121" })).status).toBe(200);
    expect((await open(reader, `/posts/${article}`)).status).toBe(200);
    await expectWritten(article, 6);
    // Written as one row for the day, with nothing but the article, the day and the count.
    const rows = readDatabase(server.databasePath, (db) => db.prepare("SELECT * FROM post_reads WHERE post_id = ?").all(article));
    expect(rows).toHaveLength(1);
    expect(Object.keys(rows[0] as object).sort()).toEqual(["count", "day", "post_id"]);
  });

  it("counts the data request of a navigation with JavaScript once, as the page without it", async () => {
    const before = written(article);
    const visitor = new Client(server.url);
    // What Remix asks for when a card of the list is clicked (seen in Chromium's network log).
    const navigation = await open(visitor, `/posts/${article}.data`, { Referer: `${server.url}/posts` });
    expect(navigation.status).toBe(200);
    expect((await open(visitor, `/posts/${article}.data?_routes=routes%2Fposts.%24postId`, { Referer: `${server.url}/posts?tag=Ostatn%C3%A9` })).status).toBe(200);
    // Asked again from the article's own page (after a form sent from it), or only the list's loader: not a read.
    expect((await open(visitor, `/posts/${article}.data`, { Referer: `${server.url}/posts/${article}` })).status).toBe(200);
    expect((await open(visitor, `/posts/${article}.data?_routes=routes%2Fposts`, { Referer: `${server.url}/posts` })).status).toBe(200);
    await settled();
    expect(written(article)).toBe(before + 2);
  });

  it("does not count bots, prefetches, HEAD, 304s, the edit form, missing or hidden articles, its author or admins", async () => {
    const before = written(article);
    const visitor = new Client(server.url);
    const answers: [string, number][] = [];
    const note = async (label: string, response: Promise<Response>) => answers.push([label, (await response).status]);
    await note("Googlebot", open(visitor, `/posts/${article}`, { "User-Agent": "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)" }));
    await note("curl", open(visitor, `/posts/${article}`, { "User-Agent": "curl/8.5.0" }));
    await note("Sec-Purpose", open(visitor, `/posts/${article}`, { "Sec-Purpose": "prefetch" }));
    await note("Purpose", open(visitor, `/posts/${article}`, { Purpose: "prefetch" }));
    await note("prefetched data", open(visitor, `/posts/${article}.data`, { "Sec-Purpose": "prefetch", Referer: `${server.url}/posts` }));
    await note("HEAD", open(visitor, `/posts/${article}`, {}, "HEAD"));
    await note("?edit", open(visitor, `/posts/${article}?edit`));
    await note("history", open(visitor, `/posts/${article}/history`));
    await note("missing", open(visitor, "/posts/nieJeTakyClanok"));
    await note("author", open(author, `/posts/${article}`));
    await note("author's data", open(author, `/posts/${article}.data`, { Referer: `${server.url}/account` }));
    await note("author's edit form", open(author, `/posts/${article}?edit`));
    await note("admin", open(admin, `/posts/${article}`));
    expect(answers).toEqual([
      ["Googlebot", 200],
      ["curl", 200],
      ["Sec-Purpose", 200],
      ["Purpose", 200],
      ["prefetched data", 200],
      ["HEAD", 200],
      ["?edit", 200],
      ["history", 200],
      ["missing", 404],
      ["author", 200],
      ["author's data", 200],
      ["author's edit form", 200],
      ["admin", 200],
    ]);
    await settled();
    expect(written(article)).toBe(before);

    // A reader whose copy is current gets 304, which is no new read; the view it revalidates was one.
    const first = await open(visitor, `/posts/${article}`);
    const again = await open(visitor, `/posts/${article}`, { "If-None-Match": first.headers.get("etag")! });
    expect(again.status).toBe(304);
    await settled();
    expect(written(article)).toBe(before + 1);

    // A hidden article is its author's and the admins' only: a visitor gets 404, and nothing is counted.
    const hidden = (await publish(author, "Skrytý článok"))!;
    readDatabase(server.databasePath, (db) => db.prepare("UPDATE posts SET hidden_at = ? WHERE id = ?").run(Date.now(), hidden), true);
    expect((await open(visitor, `/posts/${hidden}`)).status).toBe(404);
    expect((await open(author, `/posts/${hidden}`)).status).toBe(200);
    await settled();
    expect(written(hidden)).toBe(0);
    // Made-up ids are never written (the map takes only articles shown).
    const ids = readDatabase(server.databasePath, (db) => db.prepare("SELECT DISTINCT post_id FROM post_reads").pluck().all());
    expect(ids.sort()).toEqual([article, sentinel].sort());
  });

  it("shows each article's reads of the last 7 and 30 days to its author on /account, and the most read to admins on /admin", async () => {
    const count = written(article);
    const sentence = `${count} prečítaní za 7 dní · ${count} za 30 dní`;
    const { doc } = await author.get("/account");
    const item = doc.querySelectorAll(".article-list > li").find((li) => li.querySelector(".article-list-title")?.getAttribute("href") === `/posts/${article}`);
    const words = (text: string | undefined) => text?.replace(/\s+/g, " ");
    expect(words(item?.querySelector(".article-reads")?.text)).toBe(sentence);
    // The author's unread article says so.
    const fresh = (await publish(author, "Nový, ešte nečítaný"))!;
    const { doc: later } = await author.get("/account");
    const freshItem = later.querySelectorAll(".article-list > li").find((li) => li.querySelector(".article-list-title")?.getAttribute("href") === `/posts/${fresh}`);
    expect(words(freshItem?.querySelector(".article-reads")?.text)).toBe("Za 30 dní žiadne prečítanie");

    // Another user's account page lists only their own articles: no figures of others.
    const { doc: readers } = await reader.get("/account");
    expect(readers.querySelector(".article-reads")).toBeNull();
    expect(readers.toString()).not.toContain(article);

    // Admins: the most read of the 30 days, as a table with headers; of the 7 days with ?reads=7.
    const { response, doc: adminPage } = await admin.get("/admin");
    expect(response.status).toBe(200);
    const section = adminPage.querySelector('section[aria-labelledby="citanost"]')!;
    expect(section.querySelector("h2")?.text).toBe("Čítanosť");
    expect(section.querySelectorAll("thead th").map((th) => th.text)).toEqual(["Článok", "Autor", "Za 7 dní", "Za 30 dní"]);
    const rows = section.querySelectorAll("tbody tr").map((tr) => [tr.querySelector("th a")?.getAttribute("href"), ...tr.querySelectorAll("td").map((td) => td.text)]);
    expect(rows[0]).toEqual([`/posts/${article}`, "Autorka Čítaných", String(count), String(count)]);
    expect(rows.map(([href]) => href)).toContain(`/posts/${sentinel}`);
    expect(section.querySelector("p")?.text).toContain(`za 30 dní ${count + written(sentinel)} prečítaní`);
    const { doc: byWeek } = await admin.get("/admin?reads=7");
    expect(byWeek.querySelector('section[aria-labelledby="citanost"] p + p')?.text).toContain("Najčítanejšie za posledných 7 dní");

    // Nobody else sees /admin.
    for (const client of [reader, author, new Client(server.url)]) {
      const answer = await client.request("/admin", { headers: BROWSER });
      expect([404, 302]).toContain(answer.status);
      expect(await answer.text()).not.toContain("Čítanosť");
    }
  });
});

it("keeps counts in memory until a batch is due, and writes them when the server stops (SIGTERM)", async () => {
  const stopping = await startServer({ DEMO_CONTENT: "off", TRUST_PROXY: "true", READS_FLUSH_SECONDS: "3600" });
  try {
    const { client } = await registerUser(stopping.url);
    const id = (await publish(client, "Čítaný pred zastavením"))!;
    const visitor = new Client(stopping.url);
    for (let i = 0; i < 4; i++) expect((await visitor.request(`/posts/${id}`, { headers: BROWSER })).status).toBe(200);
    const count = () =>
      readDatabase(stopping.databasePath, (db) => (db.prepare("SELECT coalesce(sum(count), 0) AS n FROM post_reads WHERE post_id = ?").get(id) as { n: number }).n);
    // Not written yet: the batch waits an hour.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(count()).toBe(0);
    const exited = new Promise((resolve) => stopping.child.once("exit", resolve));
    stopping.child.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(count()).toBe(4);
  } finally {
    await stopping.stop();
  }
});
