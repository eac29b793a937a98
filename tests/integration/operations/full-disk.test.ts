import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statfsSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FAULT_MESSAGES } from "~/lib/rules";
import { Client, registerUser } from "../../../scripts/lib/client";
import { makeImage } from "../../../scripts/lib/images";
import { postForm, publish } from "../../../scripts/lib/publish";
import { startServer, type RunningServer } from "../../../scripts/lib/server";
import { parse } from "node-html-parser";
import { readDatabase } from "../../support/http";

/**
 * A data volume that fills up, for real: the server's database and images on
 * a 40 MB tmpfs (mounted here: the tests run as root, as CI does), filled by
 * a file until less than MIN_FREE_SPACE_MB is left, then emptied again.
 */

const MOUNT_MB = 40;
const MARGIN_MB = 10;

let volume: string;
let server: RunningServer;
const filler = () => path.join(volume, "filler");
const databasePath = () => path.join(volume, "data", "dejiny.db");
const uploadsDir = () => path.join(volume, "uploads");

beforeAll(async () => {
  volume = mkdtempSync(path.join(tmpdir(), "dejiny-full-"));
  execFileSync("mount", ["-t", "tmpfs", "-o", `size=${MOUNT_MB}m`, "tmpfs", volume]);
  mkdirSync(path.join(volume, "data"));
  server = await startServer({ DEMO_CONTENT: "off", MIN_FREE_SPACE_MB: String(MARGIN_MB), DATABASE_PATH: databasePath(), UPLOADS_DIR: uploadsDir() });
});

afterAll(async () => {
  await server?.stop();
  execFileSync("umount", [volume]);
  rmSync(volume, { recursive: true, force: true });
});

const health = async () => {
  const response = await fetch(`${server.url}/healthz`);
  return { status: response.status, text: await response.text() };
};

async function healthUntil(status: number) {
  for (let i = 0; i < 80; i++) {
    const answer = await health();
    if (answer.status === status) return answer;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`/healthz did not answer ${status}: ${JSON.stringify(await health())}`);
}

const countPosts = () => readDatabase(databasePath(), (db) => db.prepare("SELECT count(*) FROM posts").pluck().get() as number);

describe("a full data volume", () => {
  it("is reported by /healthz, refuses uploads with the form kept, keeps readers reading, and recovers without a restart", async () => {
    const author = await registerUser(server.url);
    const first = await publish(author.client, "Pred zaplnením disku");
    expect(first).not.toBeNull();
    expect(await health()).toEqual({ status: 200, text: "ok" });

    // Leave 5 MB: under the margin, enough for SQLite to go on.
    const { bavail, bsize } = statfsSync(volume);
    writeFileSync(filler(), Buffer.alloc(bavail * bsize - 5 * 1024 * 1024));
    const unhealthy = await healthUntil(503);
    expect(unhealthy.text).toMatch(new RegExp(`^disk: [45] MB free for the database \\(at least ${MARGIN_MB} MB needed\\); [45] MB free for the images`));

    const posts = countPosts();
    const files = readdirSync(uploadsDir()).length;
    const image = await makeImage("jpeg", 480, 300);
    const response = await author.client.request("/create-post", {
      method: "POST",
      body: postForm("Po zaplnení disku", "Text, ktorý sa nesmie stratiť.", image, { tags: ["Novovek"] }),
      headers: { Origin: server.url },
    });
    expect(response.status).toBe(507);
    expect(response.headers.get("retry-after")).toBe("300");
    const doc = parse(await response.text());
    expect(doc.querySelector("#create-error")?.text).toBe(FAULT_MESSAGES.diskFull);
    expect(doc.querySelector('input[name="title"]')?.getAttribute("value")).toBe("Po zaplnení disku");
    expect(doc.querySelector("#field-content")?.text).toBe("Text, ktorý sa nesmie stratiť.");
    expect(countPosts()).toBe(posts);
    expect(readdirSync(uploadsDir()).length).toBe(files);

    // Readers, and a signed-in author, still read.
    for (const page of ["/", "/posts", `/posts/${first}`]) expect((await new Client(server.url).get(page)).response.status, page).toBe(200);
    expect((await author.client.get("/account")).response.status).toBe(200);

    rmSync(filler());
    expect(await healthUntil(200)).toEqual({ status: 200, text: "ok" });
    expect(await publish(author.client, "Po uvoľnení miesta")).not.toBeNull();
    expect(readDatabase(databasePath(), (db) => db.prepare("PRAGMA integrity_check").pluck().get())).toBe("ok");
  });
});
