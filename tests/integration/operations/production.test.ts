import Database from "better-sqlite3";
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, GOOD_PASSWORD, registerUser } from "../../../scripts/lib/client";
import { runServerExpectingExit, startServer, type RunningServer } from "../../../scripts/lib/server";
import { runBuildCommand } from "../../support/commands";
import { getPage, INTERNALS } from "../../support/http";

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

  it("logs each request at the address it asked for, a built file's too (Express's mounts rewrite it on the way)", async () => {
    const base = server.url.replace("0.0.0.0", "127.0.0.1");
    const stylesheet = /\/assets\/[\w-]+\.css/.exec(await (await fetch(`${base}/posts`)).text())![0];
    // Plain, through Express's /assets mount.
    await (await fetch(`${base}${stylesheet}`, { headers: { "Accept-Encoding": "identity" } })).arrayBuffer();
    await new Promise((resolve) => setTimeout(resolve, 100));
    const logged = server
      .output()
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as { path: string });
    expect(logged.map((line) => line.path)).toContain(stylesheet);
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

describe("the session secret, without SESSION_SECRET", () => {
  const root = mkdtempSync(path.join(tmpdir(), "dejiny-secret-"));
  const env = { HOST: "0.0.0.0", DEMO_CONTENT: "off" };
  const local = (server: RunningServer) => server.url.replace("0.0.0.0", "127.0.0.1");
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("is made once in the data folder (0600), even by processes starting together, and keeps sessions across restarts; SESSION_SECRET wins", async () => {
    // A site that ran with SESSION_SECRET: its database exists, no secret file was made.
    let server = await startServer({ ...env, SESSION_SECRET: "x".repeat(64) }, root);
    const { email } = await registerUser(local(server));
    await server.stop();
    const secretFile = path.join(server.dataDir, "data", "session-secret");
    expect(existsSync(secretFile)).toBe(false);

    // The server and three `npm run admin` start at once on the same data folder: one secret.
    const commands = Array.from({ length: 3 }, () => runBuildCommand("runAdminCommand", ["list"], server));
    server = await startServer(env, root);
    const runs = await Promise.all(commands);
    for (const run of runs) expect(run.code, run.output).toBe(0);
    const outputs = [server.output(), ...runs.map((run) => run.output)];
    expect(outputs.join("").match(/Generated a session secret in \S+session-secret; keep it with the data\./g)).toHaveLength(1);
    expect(statSync(secretFile).mode & 0o777).toBe(0o600);
    expect(readdirSync(path.dirname(secretFile)).filter((name) => name.includes("session-secret"))).toEqual(["session-secret"]);

    const client = new Client(local(server));
    const { response } = await client.post("/signinsignup", { intent: "signin", email, password: GOOD_PASSWORD });
    expect(response.status).toBe(303);
    expect(await client.isSignedIn()).toBe(true);

    // Restarted on the same data folder: the same secret, the cookie still works, nothing logged.
    await server.stop();
    server = await startServer(env, root);
    expect(server.output()).not.toContain("session secret");
    const again = new Client(local(server));
    again.cookies = client.cookies;
    expect(await again.isSignedIn()).toBe(true);
    await server.stop();

    // An explicit SESSION_SECRET wins over the file (so the old cookie is no longer accepted).
    server = await startServer({ ...env, SESSION_SECRET: "y".repeat(64) }, root);
    const other = new Client(local(server));
    other.cookies = client.cookies;
    expect(await other.isSignedIn()).toBe(false);
    await server.stop();
  });
});

describe("start-up configuration errors", () => {
  it("refuses a session-secret file others can read, saying why and what to do", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "dejiny-env-"));
    writeFileSync(path.join(dir, "session-secret"), "z".repeat(64), { mode: 0o644 });
    const { code, output } = await runServerExpectingExit({
      NODE_ENV: "production",
      HOST: "0.0.0.0",
      PORT: "0",
      DATABASE_PATH: path.join(dir, "db.sqlite"),
    });
    rmSync(dir, { recursive: true, force: true });
    expect(code).toBe(1);
    expect(output).toContain(`${path.join(dir, "session-secret")} is open to other users (mode 644): run \`chmod 600`);
    expect(output).not.toMatch(/\n\s+at /);
  });
});
