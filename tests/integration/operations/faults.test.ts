import { execFileSync } from "node:child_process";
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, statfsSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { FAULT_MESSAGES } from "~/lib/rules";
import { Client, GOOD_PASSWORD, registerUser, uniqueEmail } from "../../../scripts/lib/client";
import { makeImage } from "../../../scripts/lib/images";
import { imageStoreEnv, startLocalS3, type LocalS3 } from "../../../scripts/lib/local-s3";
import { editBase, postForm, publish } from "../../../scripts/lib/publish";
import { startServer, type RunningServer } from "../../../scripts/lib/server";
import { parse } from "node-html-parser";
import { INTERNALS, readDatabase } from "../../support/http";

/**
 * The storage failing under a running site, for real, one server for both
 * faults: its database on a 40 MB tmpfs (mounted here: the tests run as
 * root, as CI does) filled to the last byte, so SQLite meets SQLITE_FULL;
 * its images in a local S3 stand-in (s3rver), stopped and started again.
 * Every answer is a page or a refusal, never a 500; nothing is lost; the
 * site recovers without a restart.
 */

const MOUNT_MB = 40;
const BUCKET = "dejiny";
let volume: string;
let s3: LocalS3;
let s3Port: number;
let server: RunningServer;
const databasePath = () => path.join(volume, "data", "dejiny.db");
const filler = () => path.join(volume, "filler");
const s3Folder = () => path.join(volume, "..", `${path.basename(volume)}-s3`);

beforeAll(async () => {
  volume = mkdtempSync(path.join(tmpdir(), "dejiny-faults-"));
  execFileSync("mount", ["-t", "tmpfs", "-o", `size=${MOUNT_MB}m`, "tmpfs", volume]);
  mkdirSync(path.join(volume, "data"));
  s3 = await startLocalS3(s3Folder(), [BUCKET]);
  s3Port = Number(new URL(s3.endpoint).port);
  server = await startServer({ DEMO_CONTENT: "off", MIN_FREE_SPACE_MB: "5", DATABASE_PATH: databasePath(), ...imageStoreEnv(s3, BUCKET, "site") });
});

afterAll(async () => {
  await server?.stop();
  await s3?.close();
  execFileSync("umount", [volume]);
  rmSync(volume, { recursive: true, force: true });
  rmSync(s3Folder(), { recursive: true, force: true });
});

// A test that failed half-way leaves the volume usable for the next.
afterEach(() => rmSync(filler(), { force: true }));

const health = async () => {
  const response = await fetch(`${server.url}/healthz`);
  return { status: response.status, text: await response.text() };
};

/** /healthz caches each check for 5 s: asked until it answers `status` (with `text`). */
async function healthUntil(status: number, text?: RegExp) {
  for (let i = 0; i < 100; i++) {
    const answer = await health();
    if (answer.status === status && (!text || text.test(answer.text))) return answer;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`/healthz did not answer ${status}: ${JSON.stringify(await health())}`);
}

const counts = () => readDatabase(databasePath(), (db) => ["users", "posts", "revisions", "reports", "drafts"].map((table) => db.prepare(`SELECT count(*) FROM ${table}`).pluck().get()));

/** Fill the volume to its last byte: a big file, then small writes until the kernel says ENOSPC. */
function fillVolume(): void {
  const { bavail, bsize } = statfsSync(volume);
  const fd = openSync(filler(), "w");
  try {
    writeSync(fd, Buffer.alloc(bavail * bsize));
    for (;;) writeSync(fd, Buffer.alloc(4096));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOSPC") throw error;
  } finally {
    closeSync(fd);
  }
}

/** A refused answer as a reader gets it: the status, Retry-After, the message on the page, no internals. */
async function expectFault(reply: Response | { response: Response; html: string }, status: number, message: string) {
  const [response, html] = reply instanceof Response ? [reply, await reply.text()] : [reply.response, reply.html];
  expect(response.status).toBe(status);
  expect(response.headers.get("retry-after")).toBe(status === 507 ? "300" : "5");
  expect(parse(html).text).toContain(message);
  expect(html).not.toMatch(INTERNALS);
  return parse(html);
}

describe("a data volume filled to the last byte", () => {
  it("answers every write with 507 and the form kept, keeps readers and signed-in readers reading, reports it, and recovers without a restart", async () => {
    const author = await registerUser(server.url);
    const reader = await registerUser(server.url);
    const admin = await registerUser(server.url);
    readDatabase(databasePath(), (db) => db.prepare("UPDATE users SET is_admin = 1 WHERE email = ?").run(admin.email), true);
    const postId = (await publish(author.client, "Pred zaplnením disku"))!;
    expect(postId).toBeTruthy();
    expect((await reader.client.post(`/posts/${postId}/report`, { reason: "other", note: "Prvé hlásenie" })).response.status).toBe(200);
    const before = counts();
    const baseRevision = await editBase(author.client, postId);
    // The session's "last seen" is due to be written on the next page.
    readDatabase(databasePath(), (db) => db.prepare("UPDATE sessions SET last_seen_at = last_seen_at - 3600000, created_at = created_at - 3600000").run(), true);
    // With an empty WAL, SQLite must grow a file for any write.
    readDatabase(databasePath(), (db) => db.pragma("wal_checkpoint(TRUNCATE)"), true);
    fillVolume();

    await healthUntil(503, /^disk: 0 MB free for the database \(at least 5 MB needed\)\n$/);

    // Readers, and signed-in readers whose session is due for its "last seen".
    for (const page of ["/", "/posts", `/posts/${postId}`]) expect((await new Client(server.url).get(page)).response.status, page).toBe(200);
    for (const client of [author.client, reader.client, admin.client]) expect((await client.get("/account")).response.status).toBe(200);
    expect((await admin.client.get("/admin")).response.status).toBe(200);

    const noSpace = FAULT_MESSAGES.noSpace;
    // Sign-in (a session row), registration and the reset request: the form again with what was typed.
    const signIn = await new Client(server.url).post("/signinsignup", { intent: "signin", email: reader.email, password: GOOD_PASSWORD });
    const signInPage = await expectFault(signIn, 507, noSpace);
    expect(signInPage.querySelector("#auth-error")?.text).toBe(`${noSpace} ${FAULT_MESSAGES.formKept}`);
    expect(signInPage.querySelector('input[name="email"]')?.getAttribute("value")).toBe(reader.email);
    const email = uniqueEmail();
    const register = await new Client(server.url).post("/signinsignup", { intent: "register", displayName: "Nová autorka", email, password: GOOD_PASSWORD, confirmPassword: GOOD_PASSWORD });
    const registerPage = await expectFault(register, 507, noSpace);
    expect(registerPage.querySelector('input[name="displayName"]')?.getAttribute("value")).toBe("Nová autorka");
    await expectFault((await new Client(server.url).post("/signinsignup", { intent: "forgot", email: reader.email })), 507, noSpace);

    // Publishing: the upload is refused before anything is written (the free-space guard); a draft's text reaches SQLite, which is full.
    const image = await makeImage("jpeg", 480, 300);
    const upload = await author.client.request("/create-post", { method: "POST", body: postForm("Článok na plnom disku", "Text, ktorý sa nesmie stratiť.", image), headers: { Origin: server.url } });
    const uploadPage = await expectFault(upload, 507, FAULT_MESSAGES.diskFull);
    expect(uploadPage.querySelector('input[name="title"]')?.getAttribute("value")).toBe("Článok na plnom disku");
    const draftForm = postForm("Koncept na plnom disku", "Rozpísaný text.", Buffer.alloc(0));
    draftForm.set("intent", "draft");
    draftForm.delete("image");
    const draft = await expectFault(await author.client.request("/create-post", { method: "POST", body: draftForm, headers: { Origin: server.url } }), 507, noSpace);
    expect(draft.querySelector("#create-error")?.text).toBe(`${noSpace} ${FAULT_MESSAGES.formKept}`);
    expect(draft.querySelector('input[name="title"]')?.getAttribute("value")).toBe("Koncept na plnom disku");
    expect(draft.querySelector("#field-content")?.text).toBe("Rozpísaný text.");

    // Editing, drafting an edit, deleting, reporting, account changes, an admin's decision, signing out.
    const edit = await author.client.post(`/posts/${postId}?edit`, { intent: "save", baseRevision, title: "Upravený názov", content: "Upravený text článku." });
    const editPage = await expectFault(edit, 507, noSpace);
    expect(editPage.querySelector('input[name="title"]')?.getAttribute("value")).toBe("Upravený názov");
    await expectFault((await author.client.post(`/posts/${postId}?edit`, { intent: "draft", baseRevision, title: "Koncept úpravy", content: "Text." })), 507, noSpace);
    await expectFault((await author.client.post(`/posts/${postId}`, { intent: "delete", confirm: "yes" })), 507, noSpace);
    const reported = await expectFault((await reader.client.post(`/posts/${postId}/report`, { reason: "other", note: "Druhé hlásenie" })), 507, noSpace);
    expect(reported.querySelector('textarea[name="note"]')?.text).toBe("Druhé hlásenie");
    const renamed = await expectFault((await reader.client.post("/account", { intent: "rename", displayName: "Nové meno" })), 507, noSpace);
    expect(renamed.querySelector('input[name="displayName"]')?.getAttribute("value")).toBe("Nové meno");
    const decided = await expectFault((await admin.client.post("/admin", { intent: "decide", post: postId, decision: "dismiss", reason: "Článok je v poriadku." })), 507, noSpace);
    expect(decided.querySelector("#decision-reason")?.text).toBe("Článok je v poriadku.");
    await expectFault((await reader.client.post("/signout", {})), 507, noSpace);
    expect(await reader.client.isSignedIn()).toBe(true);

    // Space again: healthy, writable, nothing lost or half-written, no restart.
    rmSync(filler());
    expect(await healthUntil(200)).toEqual({ status: 200, text: "ok" });
    expect(counts()).toEqual(before);
    expect((await new Client(server.url).post("/signinsignup", { intent: "signin", email: reader.email, password: GOOD_PASSWORD })).response.status).toBe(303);
    expect(await publish(author.client, "Po uvoľnení miesta")).not.toBeNull();
    expect(readDatabase(databasePath(), (db) => db.pragma("integrity_check", { simple: true }))).toBe("ok");
    // The "last seen" writes met the full disk and were skipped, not fatal.
    expect(server.output()).toContain("Skipped a non-essential write");
    expect(server.output()).not.toMatch(/Unexpected Application Error/);
  });
});

describe("an image bucket out of reach", () => {
  it("answers images and uploads with 503 and the form kept, reports it, and recovers when the bucket is back", async () => {
    const author = await registerUser(server.url);
    const postId = (await publish(author.client, "Pred výpadkom úložiska"))!;
    const { doc } = await new Client(server.url).get(`/posts/${postId}`);
    const src = doc.querySelector("main img")!.getAttribute("src")!;
    expect((await fetch(`${server.url}${src}`)).status).toBe(200);
    const posts = counts();

    await s3.close();
    const image = await fetch(`${server.url}${src}`);
    expect([image.status, image.headers.get("retry-after"), await image.text()]).toEqual([503, "5", FAULT_MESSAGES.imageStoreDown]);
    await healthUntil(503, /^image store: ECONNREFUSED\n$/);
    expect((await new Client(server.url).get(`/posts/${postId}`)).response.status).toBe(200);

    const upload = await author.client.request("/create-post", {
      method: "POST",
      body: postForm("Článok bez úložiska", "Text, ktorý zostane.", await makeImage("jpeg", 480, 300)),
      headers: { Origin: server.url },
    });
    const page = await expectFault(upload, 503, FAULT_MESSAGES.imageStoreDown);
    expect(page.querySelector("#create-error")?.text).toBe(`${FAULT_MESSAGES.imageStoreDown} ${FAULT_MESSAGES.formKeptImage}`);
    expect(page.querySelector('input[name="title"]')?.getAttribute("value")).toBe("Článok bez úložiska");
    expect(page.querySelector("#field-content")?.text).toBe("Text, ktorý zostane.");
    // The image sent ahead by JavaScript.
    const ahead = new FormData();
    ahead.append("image", new Blob([new Uint8Array(await makeImage("jpeg", 480, 300))], { type: "image/jpeg" }), "obrazok.jpg");
    const aheadAnswer = await author.client.request("/create-post/image", { method: "POST", body: ahead, headers: { Origin: server.url } });
    expect([aheadAnswer.status, aheadAnswer.headers.get("retry-after"), await aheadAnswer.json()]).toEqual([503, "5", { error: FAULT_MESSAGES.imageStoreDown }]);
    expect(counts()).toEqual(posts);

    s3 = await startLocalS3(s3Folder(), [BUCKET], { port: s3Port });
    expect(await healthUntil(200)).toEqual({ status: 200, text: "ok" });
    expect((await fetch(`${server.url}${src}`)).status).toBe(200);
    expect(await publish(author.client, "Po návrate úložiska")).not.toBeNull();
    expect(server.output()).not.toMatch(/Unexpected Application Error/);
  });
});
