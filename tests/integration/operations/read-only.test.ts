import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { HTMLElement } from "node-html-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, registerUser } from "../../../scripts/lib/client";
import { makeImage } from "../../../scripts/lib/images";
import { postForm, publish } from "../../../scripts/lib/publish";
import { runServerExpectingExit, startServer, type RunningServer } from "../../../scripts/lib/server";
import { getPage, readDatabase } from "../../support/http";
import { restoreReplica, runStartCommand, waitForReplica } from "../../support/litestream";

/**
 * A read-only replica (READ_ONLY=on; docs/operations.md, "Past one box"): a primary
 * replicates to a folder with Litestream, a copy restored from that folder
 * (with the primary's images beside it) is served by a second server, which
 * answers the same anonymous pages, refuses every form, and changes nothing.
 */
const root = mkdtempSync(path.join(tmpdir(), "dejiny-read-only-"));
const servers: RunningServer[] = [];
afterAll(async () => {
  // Litestream passes the stop on to the server it runs (a SIGKILL would leave that server behind).
  await primary?.stop();
  for (const server of servers) if (server.child.exitCode === null) server.child.kill("SIGKILL");
  rmSync(root, { recursive: true, force: true });
});

const HOUR = 60 * 60 * 1000;
const READ_ONLY_MESSAGE = "Stránka je teraz len na čítanie, zmeny sa nedajú uložiť. Skúste to, prosím, o chvíľu znova.";
const replicaFolder = path.join(root, "replica");
// The same secret as the primary: the primary's session cookies are valid here, and still not used.
const shared = { DEMO_CONTENT: "off", SESSION_SECRET: "read-only-test-secret-".padEnd(40, "x"), LITESTREAM_REPLICA_URL: `file://${replicaFolder}` };
const ARTICLES: [string, string[]][] = [
  ["Veľká Morava a jej kniežatá", ["Morava", "Stredovek"]],
  ["Rímske légie na Dunaji", ["Rímska ríša", "Starovek"]],
  ["Bitka pri Slavkove", ["Napoleon / Napoleonské vojny"]],
];

let primary: RunningServer;
let replica: RunningServer;
/** A reader signed in on the primary. */
let reader: Client;
const published = new Map<string, string>();
const copy = path.join(root, "copy");
const copyDatabase = path.join(copy, "data", "dejiny.db");
const copyUploads = path.join(copy, "uploads");
/** An image file no article refers to yet (on the primary, an upload in progress): the replica must not remove it. */
const pendingImage = path.join(copyUploads, "PendingUpload000-800.jpg");

/** What the copy is on disk: the database file's bytes and time, its WAL's bytes (before this look opens it), its rows, the image files. */
function copyState() {
  const sha = (file: string) => (existsSync(file) ? createHash("sha256").update(readFileSync(file)).digest("hex") : "absent");
  const files = { database: sha(copyDatabase), modified: statSync(copyDatabase).mtimeMs, wal: sha(`${copyDatabase}-wal`) };
  const rows = readDatabase(copyDatabase, (db) => {
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").pluck().all() as string[];
    return Object.fromEntries(tables.map((table) => [table, db.prepare(`SELECT * FROM "${table}"`).raw().all()]));
  });
  return { ...files, rows, images: readdirSync(copyUploads).sort() };
}
let before: ReturnType<typeof copyState>;

beforeAll(async () => {
  primary = await startServer(shared, path.join(root, "primary"), { startCommand: true });
  servers.push(primary);
  const author = await registerUser(primary.url);
  reader = author.client;
  for (const [title, tags] of ARTICLES.slice(0, -1)) published.set((await publish(reader, title, tags))!, title);
  // The reader's session was last used an hour ago: using it again would write (its expiry, "last seen").
  readDatabase(primary.databasePath, (db) => db.prepare("UPDATE sessions SET last_seen_at = ?").run(Date.now() - HOUR), true);
  // The last article comes from another account, so that the aged session stays as it is.
  const [title, tags] = ARTICLES.at(-1)!;
  published.set((await publish((await registerUser(primary.url)).client, title, tags))!, title);
  expect(published.size).toBe(ARTICLES.length);
  await waitForReplica(shared, primary.databasePath, mkdtempSync(path.join(root, "scratch-")), [...published.keys()]);

  expect(await restoreReplica(shared, primary.databasePath, copyDatabase)).toBe(true);
  cpSync(primary.uploadsDir, copyUploads, { recursive: true });
  writeFileSync(pendingImage, await makeImage("jpeg", 80, 50));
  // The copy holds every article. Looking makes the WAL (empty) and its index beside the file, as any reader does: the replica starts from there.
  const titles = readDatabase(copyDatabase, (db) => db.prepare("SELECT title FROM posts").pluck().all());
  expect(new Set(titles)).toEqual(new Set(published.values()));
  before = copyState();
  replica = await startServer({ READ_ONLY: "on", SESSION_SECRET: shared.SESSION_SECRET }, copy);
  servers.push(replica);
});

/** The reader signed in on the primary, with the same cookies, at `server`. */
function readerOn(server: RunningServer): Client {
  const client = new Client(server.url);
  client.cookies = new Map(reader.cookies);
  return client;
}

/** What a page shows of the site's content: its headings, and its links with their text. */
function content(doc: HTMLElement) {
  const main = doc.querySelector("main")!;
  return {
    headings: main.querySelectorAll("h1, h2, h3").map((heading) => heading.text.trim()),
    links: main.querySelectorAll("a").map((link) => `${link.getAttribute("href")} ${link.text.trim()}`),
  };
}

describe("a read-only replica (READ_ONLY=on) on a copy restored by Litestream", () => {
  it("says so once at start", () => {
    expect(replica.output()).toContain(`Read-only mode: serving ${copyDatabase}; writes are refused.`);
  });

  it("serves the anonymous pages the primary serves, with the same articles, and their images", async () => {
    const [id, title] = [...published][0];
    const pages = ["/", "/posts", `/posts?tag=${encodeURIComponent("Starovek")}`, `/posts/${id}`, `/posts?q=${encodeURIComponent("slavkov")}`, "/healthz"];
    for (const page of pages) {
      const [fromPrimary, fromReplica] = await Promise.all([getPage(primary.url + page), getPage(replica.url + page)]);
      expect(fromReplica.response.status, page).toBe(200);
      if (page === "/healthz") continue;
      expect(content(fromReplica.doc), page).toEqual(content(fromPrimary.doc));
    }
    // The pages hold the articles, not only the frame around them.
    const list = (await getPage(`${replica.url}/posts`)).html;
    for (const title of published.values()) expect(list).toContain(title);
    expect((await getPage(`${replica.url}/posts?tag=Starovek`)).html).toContain("Rímske légie na Dunaji");
    expect((await getPage(`${replica.url}/posts?q=slavkov`)).html).toContain("Bitka pri Slavkove");

    const article = await getPage(`${replica.url}/posts/${id}`);
    expect(article.doc.querySelector("h1")!.text).toBe(title);
    const image = article.doc.querySelector("img.overlay-image")!.getAttribute("src")!;
    const response = await fetch(replica.url + image);
    expect(response.status).toBe(200);
    expect(Buffer.from(await response.arrayBuffer())).toEqual(readFileSync(path.join(primary.uploadsDir, path.basename(image))));
  });

  it("answers every form with 503 and says why: sign-in, registration, publishing", async () => {
    const visitor = new Client(replica.url);
    const signIn = await visitor.post("/signinsignup", { intent: "signin", email: "nikto@example.com", password: "nejaké-heslo-42" });
    const register = await visitor.post("/signinsignup", { intent: "register", displayName: "Nový", email: "novy@example.com", password: "x".repeat(10), confirmPassword: "x".repeat(10) });
    for (const { response, html } of [signIn, register]) {
      expect(response.status).toBe(503);
      expect(response.headers.get("retry-after")).toBeTruthy();
      expect(html).toBe(READ_ONLY_MESSAGE);
    }
    // With the primary's session cookie and a whole article with its image.
    const signedIn = readerOn(replica);
    const form = postForm("Nový článok na kópii", "Text, ktorý sa nemá uložiť.", await makeImage("jpeg", 480, 300), { tags: ["Stredovek"] });
    const publishing = await signedIn.request("/create-post", { method: "POST", body: form, headers: { Origin: replica.url } });
    expect(publishing.status).toBe(503);
    expect(await publishing.text()).toBe(READ_ONLY_MESSAGE);
  });

  it("serves a reader signed in on the primary as a visitor", async () => {
    expect(await reader.isSignedIn()).toBe(true);
    const signedIn = readerOn(replica);
    expect(await signedIn.isSignedIn()).toBe(false);
    expect((await signedIn.get("/create-post")).response.headers.get("location")).toBe("/signinsignup?redirectTo=/create-post");
    expect((await signedIn.get("/account")).response.headers.get("location")).toBe("/signinsignup?redirectTo=/account");
  });

  it("counts no reads: a browser's reads of an article are not even tried as writes, at once or when it stops", async () => {
    const [id] = [...published][0];
    const browser = { "User-Agent": "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:132.0) Gecko/20100101 Firefox/132.0" };
    for (const page of [`/posts/${id}`, `/posts/${id}`, `/posts/${id}.data`]) expect((await fetch(replica.url + page, { headers: browser })).status, page).toBe(200);
    await replica.stop();
    // A write tried on the read-only copy would fail and say so (docs/reading.md#reads); the copy's state is compared below.
    expect(replica.output()).not.toContain("Counted reads could not be written");
    expect(replica.output()).not.toMatch(/SQLITE_READONLY|readonly database/i);
  });

  it("leaves the copy as it was: the database file, its WAL, every row, the image files", async () => {
    await replica.stop();
    expect(copyState()).toEqual(before);
    expect(before.images).toContain(path.basename(pendingImage));
  });

  it("notices at once what another process writes into the copy (as a restore in place does)", async () => {
    const again = await startServer({ READ_ONLY: "on", SESSION_SECRET: shared.SESSION_SECRET }, copy);
    servers.push(again);
    const [id, title] = [...published][0];
    expect((await getPage(`${again.url}/posts`)).html).toContain(title);
    readDatabase(copyDatabase, (db) => db.prepare("UPDATE posts SET title = 'Prepísaný nadpis' WHERE id = ?").run(id), true);
    const { headings } = content((await getPage(`${again.url}/posts`)).doc);
    expect(headings).toContain("Prepísaný nadpis");
    expect(headings).not.toContain(title);
    await again.stop();
  });

  it("refuses to start without a database, and makes none", async () => {
    const missing = path.join(root, "missing", "data", "dejiny.db");
    const { code, output } = await runServerExpectingExit({ READ_ONLY: "on", DATABASE_PATH: missing, UPLOADS_DIR: copyUploads, SESSION_SECRET: shared.SESSION_SECRET, PORT: "0" });
    expect(code).toBe(1);
    expect(output).toContain(`READ_ONLY is on, but there is no database at ${missing}: restore a copy there first`);
    expect(existsSync(missing)).toBe(false);
  });

  it("refuses a copy older than the code's migrations, and leaves it unmigrated", async () => {
    const older = path.join(root, "older", "dejiny.db");
    expect(await restoreReplica(shared, primary.databasePath, older)).toBe(true);
    // drizzle's migrate() applies every migration newer than the newest row.
    const newest = "SELECT max(created_at) FROM __drizzle_migrations";
    const applied = readDatabase(
      older,
      (db) => {
        db.prepare(`DELETE FROM __drizzle_migrations WHERE created_at = (${newest})`).run();
        return db.prepare(newest).pluck().get();
      },
      true,
    );
    const { code, output } = await runServerExpectingExit({ READ_ONLY: "on", DATABASE_PATH: older, UPLOADS_DIR: copyUploads, SESSION_SECRET: shared.SESSION_SECRET, PORT: "0" });
    expect(code).toBe(1);
    expect(output).toContain(`READ_ONLY is on, but the database at ${older} lacks 1 of this version's migrations`);
    expect(readDatabase(older, (db) => db.prepare(newest).pluck().get())).toBe(applied);
  });

  it("through the start command (scripts/serve.sh): restores the replica's latest copy over an old one, and never replicates", async () => {
    const generations = () => readdirSync(path.join(replicaFolder, "generations")).sort();
    const known = generations();
    const dir = path.join(root, "scripted");
    mkdirSync(path.join(dir, "data"), { recursive: true });
    for (const file of ["dejiny.db", "dejiny.db-wal"]) writeFileSync(path.join(dir, "data", file), "old");
    // A database the script did not restore (READ_ONLY set by mistake on the primary's volume) is never replaced.
    const refused = await runStartCommand({ ...shared, READ_ONLY: "on", DATABASE_PATH: path.join(dir, "data", "dejiny.db") });
    expect(refused.code).toBe(1);
    expect(refused.output).toContain("is not a copy restored for a replica: it would be replaced");
    expect(readFileSync(path.join(dir, "data", "dejiny.db"), "utf8")).toBe("old");
    // What an earlier start of the script left: its copy (here not even a database).
    writeFileSync(path.join(dir, "data", "dejiny.db.replica-copy"), "");
    const scripted = await startServer({ ...shared, READ_ONLY: "on" }, dir, { startCommand: true });
    servers.push(scripted);
    // The script has become the server itself: no Litestream beside it.
    expect(readFileSync(`/proc/${scripted.child.pid}/cmdline`, "utf8")).not.toContain("litestream");
    const list = (await getPage(`${scripted.url}/posts`)).html;
    for (const title of published.values()) expect(list).toContain(title);
    expect(readdirSync(path.join(dir, "data")).filter((name) => name.includes(".restoring") || name.includes(".tmp-"))).toEqual([]);
    await scripted.stop();
    expect(generations()).toEqual(known);
  });
});
