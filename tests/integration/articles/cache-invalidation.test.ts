import Database from "better-sqlite3";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, registerUser } from "../../../scripts/lib/client";
import { publish } from "../../../scripts/lib/publish";
import { startServer, type RunningServer } from "../../../scripts/lib/server";
import { runBuildCommand } from "../../support/commands";

// Writers that are not the site's own requests: the page cache must notice
// them too, at the next request, without being told.
const root = mkdtempSync(path.join(tmpdir(), "dejiny-invalidation-"));
let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ DEMO_CONTENT: "on" }, root);
});
afterAll(async () => {
  await server.stop();
  rmSync(root, { recursive: true, force: true });
});

const visitor = () => new Client(server.url);
const titles = async (client = visitor()) => (await client.get("/posts")).doc.querySelectorAll(".card-title").map((t) => t.text);

describe("the page cache sees every writer", () => {
  it("a write by another connection to the database (sqlite3, a script)", async () => {
    const before = await titles();
    expect(await titles()).toEqual(before); // now served from the cache
    const db = new Database(server.databasePath);
    const { id } = db.prepare("SELECT id FROM posts WHERE hidden_at IS NULL ORDER BY created_at DESC, id LIMIT 1").get() as { id: string };
    db.prepare("UPDATE posts SET title = 'Prepísané zvonka' WHERE id = ?").run(id);
    db.prepare("UPDATE users SET display_name = 'Redakcia zvonka' WHERE id = (SELECT author_id FROM posts WHERE id = ?)").run(id);
    db.close();
    expect((await titles())[0]).toBe("Prepísané zvonka");
    expect((await visitor().get(`/posts/${id}`)).doc.querySelector(".post-meta")?.text).toContain("Redakcia zvonka");
  });

  it("a session ended or an account disabled by another connection: the very next page is a visitor's", async () => {
    const db = new Database(server.databasePath);
    for (const end of ["DELETE FROM sessions WHERE user_id = ?", "UPDATE users SET disabled_at = 1 WHERE id = ?"]) {
      const { client, email } = await registerUser(server.url);
      const { id } = db.prepare("SELECT id FROM users WHERE email = ?").get(email) as { id: string };
      expect(await client.isSignedIn()).toBe(true);
      expect(await client.isSignedIn()).toBe(true); // its page and its session now kept
      db.prepare(end).run(id);
      expect(await client.isSignedIn()).toBe(false);
    }
    db.close();
  });

  it("npm run admin: a new admin sees Edit on others' articles at once", async () => {
    const { client, email } = await registerUser(server.url);
    const article = (await visitor().get("/posts")).doc.querySelector(".card a")!.getAttribute("href")!;
    const editLinks = async () => (await client.get(article)).doc.querySelectorAll(".overlay-bar a").filter((a) => a.text === "Edit").length;
    expect(await editLinks()).toBe(0);
    expect(await editLinks()).toBe(0);
    expect((await runBuildCommand("runAdminCommand", ["grant", email], server)).code).toBe(0);
    expect(await editLinks()).toBe(1);
  });

  it("npm run restore while the site runs: the restored articles at once", async () => {
    const backupDir = path.join(root, "backup");
    expect((await runBuildCommand("runBackup", [backupDir], server)).code).toBe(0);
    const backedUp = await titles();
    const { client } = await registerUser(server.url);
    const id = (await publish(client, "Napísané po zálohe"))!;
    expect((await titles())[0]).toBe("Napísané po zálohe");
    expect((await visitor().get(`/posts/${id}`)).response.status).toBe(200);

    // The site is in the middle of a write when the restore comes to copy the database: it waits its turn.
    const writer = new Database(server.databasePath);
    writer.exec("BEGIN IMMEDIATE");
    const released = new Promise((resolve) => setTimeout(resolve, 2_000)).then(() => {
      writer.exec("COMMIT");
      writer.close();
    });
    const restore = await runBuildCommand("runRestore", [backupDir], server);
    await released;
    expect(restore.code, restore.output).toBe(0);
    expect(await titles()).toEqual(backedUp);
    expect((await visitor().get(`/posts/${id}`)).response.status).toBe(404);
    const { doc } = await visitor().get("/posts");
    expect((await fetch(`${server.url}${doc.querySelector(".card img")!.getAttribute("src")}`)).status).toBe(200);
    // The site goes on writing to the restored database.
    const again = await registerUser(server.url);
    expect(await publish(again.client, "Po obnove")).not.toBeNull();
    expect((await titles())[0]).toBe("Po obnove");
  });
});
