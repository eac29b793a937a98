import Database from "better-sqlite3";
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, inject, it } from "vitest";
import { registerUser } from "../../../scripts/lib/client";
import { publish } from "../../../scripts/lib/publish";
import { startServer, type RunningServer } from "../../../scripts/lib/server";
import { runBuildCommand } from "../../support/commands";
import { getPage, readDatabase } from "../../support/http";

const root = mkdtempSync(path.join(tmpdir(), "dejiny-backup-"));
const servers: RunningServer[] = [];
afterAll(async () => {
  for (const server of servers) await server.stop();
  rmSync(root, { recursive: true, force: true });
});

describe("backup and restore", () => {
  it("takes a consistent copy while articles are being written, and restores it", async () => {
    const live = await startServer({ DEMO_CONTENT: "on" }, path.join(root, "live"));
    servers.push(live);
    const { client } = await registerUser(live.url);

    // A writer publishes articles the whole time the backup runs.
    let writing = true;
    let written = 0;
    const writer = (async () => {
      while (writing) if (await publish(client, `Počas zálohy ${written}`)) written++;
    })();
    await new Promise((r) => setTimeout(r, 300));
    const target = path.join(root, "backup");
    const backup = await runBuildCommand("runBackup", [target], live);
    writing = false;
    await writer;
    expect(backup.code, backup.output).toBe(0);
    expect(written).toBeGreaterThan(0);

    const copy = new Database(path.join(target, "dejiny.db"), { readonly: true });
    expect(copy.pragma("integrity_check", { simple: true })).toBe("ok");
    const titles = (copy.prepare("SELECT title FROM posts ORDER BY created_at DESC, id LIMIT 9").all() as { title: string }[]).map((r) => r.title);
    const keys = (copy.prepare("SELECT image FROM posts").all() as { image: string }[]).map((r) => r.image);
    copy.close();
    const files = new Set(readdirSync(path.join(target, "uploads")));
    for (const key of keys) for (const w of [400, 800, 1200, "thumb"]) for (const f of ["jpg", "webp"]) expect(files.has(`${key}-${w}.${f}`)).toBe(true);

    // Restore into a fresh installation and serve it.
    const restored = { databasePath: path.join(root, "restored", "data", "dejiny.db"), uploadsDir: path.join(root, "restored", "uploads") };
    const beforeRestore = Date.now();
    const restore = await runBuildCommand("runRestore", [target], restored);
    expect(restore.code, restore.output).toBe(0);
    // Feeds' Last-Modified comes from the change time: the backup's own would move it back.
    const changedAt = readDatabase(restored.databasePath, (db) => db.prepare("SELECT changed_at FROM page_data").pluck().get() as number);
    expect(changedAt).toBeGreaterThanOrEqual(beforeRestore);
    const server = await startServer({ DEMO_CONTENT: "off" }, path.join(root, "restored"));
    servers.push(server);
    const { doc } = await getPage(`${server.url}/posts`);
    expect(doc.querySelectorAll(".card-title").map((t) => t.text)).toEqual(titles);
    const image = doc.querySelector(".card img")!.getAttribute("src")!;
    expect((await fetch(`${server.url}${image}`)).status).toBe(200);
  });

  it("refuses a target that is not empty, a missing backup and a missing argument", async () => {
    const paths = { databasePath: path.join(root, "x", "dejiny.db"), uploadsDir: path.join(root, "x", "uploads") };
    expect((await runBuildCommand("runBackup", [root], paths)).code).toBe(1);
    expect((await runBuildCommand("runRestore", [path.join(root, "nothing-here")], paths)).code).toBe(1);
    expect((await runBuildCommand("runBackup", [], paths)).output).toContain("Usage");
    // A backup that did not finish: its database, but no manifest (written last).
    const partial = path.join(root, "partial");
    mkdirSync(partial);
    readDatabase(inject("databasePath"), (db) => db.exec(`VACUUM INTO '${path.join(partial, "dejiny.db")}'`));
    const refused = await runBuildCommand("runRestore", [partial], paths);
    expect([refused.code, refused.output]).toEqual([1, expect.stringContaining("has no manifest.json: that backup did not finish")]);
  });
});
