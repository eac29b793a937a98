import { beforeAll, describe, expect, inject, it } from "vitest";
import { Client, registerUser } from "../../../scripts/lib/client";
import { publish } from "../../../scripts/lib/publish";
import { runBuildCommand } from "../../support/commands";
import { parseFeed } from "../../support/feeds";
import { readDatabase } from "../../support/http";

const base = inject("baseUrl");
const paths = { databasePath: inject("databasePath"), uploadsDir: inject("uploadsDir") };
const tag = `${process.pid}-${Date.now()}`;

const query = <T>(sql: string, ...params: unknown[]) => readDatabase(paths.databasePath, (db) => db.prepare(sql).all(...params) as T[]);
const write = (work: (db: import("better-sqlite3").Database) => void) => readDatabase(paths.databasePath, work, true);
const userId = (email: string) => query<{ id: string }>("SELECT id FROM users WHERE email = ?", email)[0].id;
const decisionOf = (reason: string) => query<{ id: number; post_id: string }>("SELECT id, post_id FROM moderation_decisions WHERE reason = ?", reason)[0];

async function newAdmin(name: string): Promise<{ client: Client; email: string }> {
  const { client, email } = await registerUser(base, { displayName: name });
  expect((await runBuildCommand("runAdminCommand", ["grant", email], paths)).code).toBe(0);
  return { client, email };
}

const visitor = () => new Client(base);
const logPage = (path = "/moderation") => visitor().get(path);
/** The log's row of a decision. */
const rowOf = async (reason: string) => (await logPage()).doc.querySelector(`#rozhodnutie-${decisionOf(reason).id}`);

// The people of this file: none of their names or addresses may appear in the public log.
const names = { admin: `Moderátorka Tajná ${tag}`, secondAdmin: `Moderátor Druhý ${tag}`, author: `Autor Neuvedený ${tag}`, reader: `Nahlasovateľka Skrytá ${tag}` };
const titles = { kept: `Log: článok v poriadku ${tag}`, hidden: `Log: skrytý názov ${tag}`, deleted: `Log: zmazaný názov ${tag}`, fixed: `Log: na opravu ${tag}` };
const reasons = {
  kept: `Článok sa opiera o zdroje (${tag}).`,
  hidden: `Tvrdenia bez zdroja, skryté do opravy (${tag}).`,
  deleted: `Reklama, nie článok (${tag}).`,
  fixed: `Doplňte zdroj k dátumu (${tag}).`,
  granted: `Autor doplnil zdroje (${tag}).`,
  rejected: `Reklama zostáva reklamou (${tag}).`,
};
const note = `Poznámka nahlasovateľky ${tag}`;

let admin: Client;
let secondAdmin: Client;
let author: Client;
let reader: Client;
const emails: string[] = [];
const ids: Record<keyof typeof titles, string> = { kept: "", hidden: "", deleted: "", fixed: "" };

async function decide(post: string, decision: string, reason: string) {
  const { response, doc } = await admin.post("/admin", { intent: "decide", post, decision, reason });
  expect(response.status, doc.querySelector(".form-error")?.text).toBe(303);
}

beforeAll(async () => {
  const made = await Promise.all([newAdmin(names.admin), newAdmin(names.secondAdmin), registerUser(base, { displayName: names.author }), registerUser(base, { displayName: names.reader })]);
  [admin, secondAdmin, author, reader] = made.map((m) => m.client);
  emails.push(...made.map((m) => m.email));
  for (const key of Object.keys(titles) as (keyof typeof titles)[]) ids[key] = (await publish(author, titles[key]))!;
  for (const id of Object.values(ids)) expect((await reader.post(`/posts/${id}/report`, { reason: "spam", note })).response.status).toBe(200);
  await decide(ids.kept, "dismiss", reasons.kept);
  await decide(ids.hidden, "hide", reasons.hidden);
  await decide(ids.deleted, "delete", reasons.deleted);
});

/** Everything the public log says, the page and the feed: what no person of this file may be found in. */
async function everything(): Promise<string> {
  const page = await (await fetch(`${base}/moderation`)).text();
  const feed = await (await fetch(`${base}/moderation/feed.xml`)).text();
  return `${page}\n${feed}`;
}

describe("the public moderation log", () => {
  it("lists each decision with its date, action, article, ground and reason; a hidden or deleted article is not named", async () => {
    const { response, doc, html } = await logPage();
    expect(response.status).toBe(200);
    expect(doc.querySelector("h1")?.text).toBe("Verejný záznam moderovania");
    expect(doc.querySelector('link[rel="alternate"][type="application/atom+xml"][href="/moderation/feed.xml"]')).not.toBeNull();
    // The footer of every page leads here.
    expect((await visitor().get("/posts")).doc.querySelector('.site-footer a[href="/moderation"]')).not.toBeNull();

    const cells = async (reason: string) => (await rowOf(reason))!.querySelectorAll("th, td").map((cell) => cell.text.trim());
    const today = new Intl.DateTimeFormat("sk-SK", { dateStyle: "long", timeZone: "Europe/Bratislava" }).format(Date.now());
    expect(await cells(reasons.kept)).toEqual([today, "Hlásenie zamietnuté", titles.kept, "hlásenia čitateľov (Spam alebo reklama)", reasons.kept, "—"]);
    expect(await cells(reasons.hidden)).toEqual([today, "Článok skrytý", "skrytý článok", "hlásenia čitateľov (Spam alebo reklama)", reasons.hidden, "—"]);
    expect(await cells(reasons.deleted)).toEqual([today, "Článok odstránený", "odstránený článok", "hlásenia čitateľov (Spam alebo reklama)", reasons.deleted, "—"]);
    // A visible article is linked; the others have no address either.
    expect((await rowOf(reasons.kept))!.querySelector("a")?.getAttribute("href")).toBe(`/posts/${ids.kept}`);
    expect((await rowOf(reasons.hidden))!.querySelector("a")).toBeNull();
    // Newest first.
    const order = doc.querySelectorAll(".public-log-table tbody tr").map((tr) => tr.id);
    expect(order.indexOf(`rozhodnutie-${decisionOf(reasons.deleted).id}`)).toBeLessThan(order.indexOf(`rozhodnutie-${decisionOf(reasons.kept).id}`));
    // Nowhere in the page (its data for the browser too) nor in the feed: the hidden and deleted titles, the hidden article's id.
    const all = `${html}\n${await everything()}`;
    for (const secret of [titles.hidden, titles.deleted, ids.hidden, ids.deleted]) expect(all).not.toContain(secret);
  });

  it("names nobody: no reporter, author or moderator, by name or e-mail, and not the reporter's note", async () => {
    const all = await everything();
    for (const secret of [...Object.values(names), ...emails, note]) expect(all).not.toContain(secret);
    expect(all).not.toMatch(/@example\.com/);
  });

  it("has an Atom feed that parses in a feed reader, with the same fields, and 304 for a reader who has it", async () => {
    const response = await fetch(`${base}/moderation/feed.xml`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/atom+xml; charset=utf-8");
    const { meta, items } = await parseFeed(await response.text());
    expect(meta.title).toBe("Dejiny: verejný záznam moderovania");
    expect(meta.link).toBe("http://dejiny.test/moderation");
    expect(items.length).toBeGreaterThanOrEqual(3);
    expect(items.length).toBeLessThanOrEqual(50);
    const item = (reason: string) => items.find((i) => i.guid === `http://dejiny.test/moderation#rozhodnutie-${decisionOf(reason).id}`)!;
    expect(item(reasons.hidden).title).toBe("Článok skrytý: skrytý článok");
    expect(item(reasons.deleted).title).toBe("Článok odstránený: odstránený článok");
    expect(item(reasons.kept).title).toBe(`Hlásenie zamietnuté: „${titles.kept}“`);
    expect(item(reasons.kept).description).toContain(`<dt>Článok</dt><dd><a href="http://dejiny.test/posts/${ids.kept}">${titles.kept}</a></dd>`);
    expect(item(reasons.hidden).description).toContain("<dt>Podnet</dt><dd>hlásenia čitateľov (Spam alebo reklama)</dd>");
    expect(item(reasons.hidden).description).toContain(`<dt>Odôvodnenie</dt><dd>${reasons.hidden}</dd>`);
    // Newest first, as the page.
    expect(items.indexOf(item(reasons.deleted))).toBeLessThan(items.indexOf(item(reasons.kept)));

    const etag = response.headers.get("etag")!;
    expect((await fetch(`${base}/moderation/feed.xml`, { headers: { "If-None-Match": etag } })).status).toBe(304);
    expect((await fetch(`${base}/moderation/feed.xml`, { headers: { "If-Modified-Since": response.headers.get("last-modified")! } })).status).toBe(304);
  });

  it("is one cached page for every visitor, and shows a new decision at once", async () => {
    const first = await logPage();
    const again = await logPage();
    expect(first.response.headers.get("cache-control")).toBe("public, max-age=60");
    const etag = first.response.headers.get("etag")!;
    expect(etag).toMatch(/^W\/"[\w-]{22}"$/);
    expect(again.response.headers.get("etag")).toBe(etag);
    expect((await fetch(`${base}/moderation`, { headers: { "If-None-Match": etag } })).status).toBe(304);
    // A signed-in reader's page is never kept by a shared cache.
    expect((await reader.get("/moderation")).response.headers.get("cache-control")).toBe("private, no-store");

    await decide(ids.fixed, "requestFix", reasons.fixed);
    const after = await logPage();
    expect(after.response.headers.get("etag")).not.toBe(etag);
    expect((await rowOf(reasons.fixed))?.querySelector("th")?.text.trim()).toBe("Autor vyzvaný na opravu");
    expect((await fetch(`${base}/moderation`, { headers: { "If-None-Match": etag } })).status).toBe(200);
  });

  it("shows an appeal's outcome once decided, and the title of an article given back by it", async () => {
    const authorId = userId(emails[2]);
    const appealed = [decisionOf(reasons.hidden).id, decisionOf(reasons.deleted).id];
    write((db) => {
      for (const decision of appealed) db.prepare("INSERT INTO appeals (decision_id, user_id, text, created_at) VALUES (?, ?, 'Nesúhlasím.', ?)").run(decision, authorId, Date.now());
    });
    const appealId = (decision: number) => String(query<{ id: number }>("SELECT id FROM appeals WHERE decision_id = ?", decision)[0].id);
    // An open appeal is not shown (filing one changes no page).
    expect((await rowOf(reasons.hidden))!.querySelectorAll("td").at(-1)?.text).toBe("—");

    const granted = await secondAdmin.post("/admin", { intent: "decideAppeal", appeal: appealId(appealed[0]), outcome: "granted", reason: reasons.granted });
    expect(granted.response.status).toBe(303);
    const rejected = await secondAdmin.post("/admin", { intent: "decideAppeal", appeal: appealId(appealed[1]), outcome: "rejected", reason: reasons.rejected });
    expect(rejected.response.status).toBe(303);

    const hiddenRow = (await rowOf(reasons.hidden))!;
    expect(hiddenRow.querySelectorAll("td").at(-1)?.text).toBe(`Námietke sa vyhovelo: ${reasons.granted}`);
    // The article is back for everyone: now the log names it.
    expect(hiddenRow.querySelector("a")?.getAttribute("href")).toBe(`/posts/${ids.hidden}`);
    expect(hiddenRow.querySelector("a")?.text).toBe(titles.hidden);
    const deletedRow = (await rowOf(reasons.deleted))!;
    expect(deletedRow.querySelectorAll("td").at(-1)?.text).toBe(`Námietka bola zamietnutá: ${reasons.rejected}`);
    expect(await everything()).not.toContain(titles.deleted);
    const { items } = await parseFeed(await (await fetch(`${base}/moderation/feed.xml`)).text());
    const entry = items.find((i) => i.guid.endsWith(`#rozhodnutie-${appealed[1]}`))!;
    expect(entry.description).toContain(`<dt>Námietka</dt><dd>Námietka bola zamietnutá: ${reasons.rejected}</dd>`);
  });
});

describe("the month table", () => {
  // Decisions seeded long ago (noon UTC on the 15th: the same month in Bratislava), so no other test's decision falls in their months.
  const monthsAgo = (n: number) => {
    const now = new Date();
    return Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - n, 15, 12);
  };
  const monthName = (ms: number) => new Intl.DateTimeFormat("sk-SK", { month: "long", year: "numeric", timeZone: "Europe/Bratislava" }).format(ms);
  const seed = (createdAt: number, actions: string[]) =>
    write((db) => {
      const insert = db.prepare("INSERT INTO moderation_decisions (created_at, action, ground, reason) VALUES (?, ?, 'initiative', ?)");
      for (const [i, action] of actions.entries()) insert.run(createdAt + i, action, `Staré rozhodnutie ${tag}`);
    });

  it("counts each month's decisions and those upheld, for at most the last 24 months, newest first", async () => {
    seed(monthsAgo(20), ["dismiss", "hide", "delete", "requestFix", "dismissAbusive", "restore", "disable"]);
    seed(monthsAgo(30), ["hide", "hide"]);
    const { doc } = await logPage();
    const rows = doc.querySelectorAll(".month-table tbody tr").map((tr) => tr.querySelectorAll("th, td").map((cell) => cell.text));
    expect(rows.length).toBeLessThanOrEqual(24);
    expect(rows).toContainEqual([monthName(monthsAgo(20)), "7", "4"]);
    expect(rows.map((row) => row[0])).not.toContain(monthName(monthsAgo(30)));
    // This month's row: what the database holds for it, the month told by the site's time zone.
    const recent = query<{ created_at: number; action: string }>("SELECT created_at, action FROM moderation_decisions WHERE created_at > ?", Date.now() - 40 * 86_400_000);
    const thisMonth = recent.filter((row) => monthName(row.created_at) === monthName(Date.now()));
    const upheld = thisMonth.filter((row) => ["requestFix", "hide", "delete", "disable"].includes(row.action));
    expect(rows[0]).toEqual([monthName(Date.now()), String(thisMonth.length), String(upheld.length)]);
  });
});

describe("paging", () => {
  it("pages 25 decisions newest first; a page number written otherwise or past the last is redirected to the page shown", async () => {
    // Enough decisions for three pages, long ago.
    write((db) => {
      const insert = db.prepare("INSERT INTO moderation_decisions (created_at, action, ground, reason) VALUES (?, 'dismiss', 'initiative', ?)");
      for (let i = 0; i < 60; i++) insert.run(Date.UTC(2000, 0, 1) + i, `Stránkovanie ${i} ${tag}`);
    });
    const newest = query<{ id: number }>("SELECT id FROM moderation_decisions ORDER BY created_at DESC, id DESC").map((row) => `rozhodnutie-${row.id}`);
    const pages = Math.ceil(newest.length / 25);
    const second = await logPage("/moderation?page=2");
    expect(second.response.status).toBe(200);
    expect(second.doc.querySelectorAll(".public-log-table tbody tr").map((tr) => tr.id)).toEqual(newest.slice(25, 50));
    expect(second.doc.querySelector(".pager")?.text).toContain(`Strana 2 z ${pages}`);
    expect(second.doc.querySelector('.pager a[rel="prev"]')?.getAttribute("href")).toBe("/moderation");
    expect(second.doc.querySelector('.pager a[rel="next"]')?.getAttribute("href")).toBe("/moderation?page=3");
    // The month table is on the first page only.
    expect(second.doc.querySelector(".month-table")).toBeNull();
    const last = await logPage(`/moderation?page=${pages}`);
    expect(last.doc.querySelectorAll(".public-log-table tbody tr").map((tr) => tr.id)).toEqual(newest.slice((pages - 1) * 25));

    const redirects: [string, string][] = [
      ["?page=1", "/moderation"],
      ["?page=0", "/moderation"],
      ["?page=-3", "/moderation"],
      ["?page=abc", "/moderation"],
      ["?page=02", "/moderation?page=2"],
      ["?page=2.5", "/moderation?page=2"],
      [`?page=${pages + 1}`, `/moderation?page=${pages}`],
      ["?page=999999", `/moderation?page=${pages}`],
      ["?page=99999999999999999999999", "/moderation"],
      [`?page=${"9".repeat(5000)}`, "/moderation"],
    ];
    for (const [search, location] of redirects) {
      const { response } = await logPage(`/moderation${search}`);
      expect(response.status, search).toBe(302);
      expect(response.headers.get("location"), search).toBe(location);
    }
  });
});
