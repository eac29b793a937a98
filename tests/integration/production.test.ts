import Database from "better-sqlite3";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runServerExpectingExit, startServer, type RunningServer } from "../../scripts/lib/server";
import { getPage, INTERNALS } from "../support/http";

describe("a production start, as the container does it", () => {
  let server: RunningServer;
  const dataDir = mkdtempSync(path.join(tmpdir(), "dejiny-prod-"));

  beforeAll(async () => {
    server = await startServer(
      {
        HOST: "0.0.0.0",
        SESSION_SECRET: "a".repeat(64),
        DATABASE_PATH: path.join(dataDir, "dejiny.db"),
        UPLOADS_DIR: path.join(dataDir, "uploads"),
        DEMO_CONTENT: "off",
        PUBLIC_URL: "https://dejiny.example",
      },
      dataDir,
    );
  });
  afterAll(async () => {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("creates its database in the data folder, migrated, with WAL", async () => {
    expect(readdirSync(dataDir)).toContain("dejiny.db");
    const db = new Database(path.join(dataDir, "dejiny.db"), { readonly: true });
    expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all().map((r) => (r as { name: string }).name);
    expect(tables).toEqual(expect.arrayContaining(["users", "posts", "post_tags"]));
    db.close();
  });

  it("behind https: HSTS and Secure cookies", async () => {
    const base = server.url.replace("0.0.0.0", "127.0.0.1");
    const page = await fetch(`${base}/posts`);
    expect(page.headers.get("strict-transport-security")).toBe("max-age=31536000; includeSubDomains");
    const register = await fetch(`${base}/signinsignup`, {
      method: "POST",
      redirect: "manual",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ intent: "register", displayName: "Https", email: "https@example.com", password: "dlhe-heslo-1", confirmPassword: "dlhe-heslo-1" }),
    });
    expect(register.status).toBe(303);
    expect(register.headers.getSetCookie().join()).toMatch(/; Secure/i);
  });

  it("publishes no demo articles when DEMO_CONTENT=off", async () => {
    const { response, doc } = await getPage(`${server.url.replace("0.0.0.0", "127.0.0.1")}/posts`);
    expect(response.status).toBe(200);
    expect(doc.querySelectorAll(".card")).toHaveLength(0);
    expect(doc.querySelector(".empty")?.text).toContain("Zatiaľ tu nie sú žiadne články");
  });

  it("shows an empty list, not an error, when the database fails; no stack trace anywhere", async () => {
    const base = server.url.replace("0.0.0.0", "127.0.0.1");
    const db = new Database(path.join(dataDir, "dejiny.db"));
    db.exec("ALTER TABLE posts RENAME TO posts_gone");
    try {
      const list = await getPage(`${base}/posts`);
      expect(list.response.status).toBe(200);
      expect(list.doc.querySelectorAll(".card")).toHaveLength(0);
      expect(list.html).not.toMatch(INTERNALS);

      const article = await getPage(`${base}/posts/whatever`);
      expect(article.response.status).toBe(500);
      expect(article.html).toContain("Unexpected Application Error!");
      expect(article.html).not.toMatch(INTERNALS);
      expect(server.output()).toMatch(/no such table: posts/);
    } finally {
      db.exec("ALTER TABLE posts_gone RENAME TO posts");
      db.close();
    }
  });
});

describe("start-up configuration errors", () => {
  it("refuses to run in production on a public address without SESSION_SECRET, saying why", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "dejiny-env-"));
    const { code, output } = await runServerExpectingExit({
      NODE_ENV: "production",
      HOST: "0.0.0.0",
      PORT: "0",
      DATABASE_PATH: path.join(dir, "db.sqlite"),
    });
    rmSync(dir, { recursive: true, force: true });
    expect(code).toBe(1);
    expect(output).toContain("SESSION_SECRET is required");
    expect(output).not.toMatch(/\n\s+at /);
  });
});
