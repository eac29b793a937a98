import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, GOOD_PASSWORD, registerUser, uniqueEmail } from "../../../scripts/lib/client";
import { publish } from "../../../scripts/lib/publish";
import { startServer, type RunningServer } from "../../../scripts/lib/server";
import { runBuildCommand } from "../../support/commands";
import { readDatabase } from "../../support/http";
import { confirmationLinkIn, settledMailsTo } from "../../support/outbox";

// A server of its own: these tests use up its throttling budget and restart it.
const dataDir = mkdtempSync(path.join(tmpdir(), "dejiny-ops-"));
const env = { DEMO_CONTENT: "off", PUBLIC_URL: "http://dejiny.test" };
let server: RunningServer;

beforeAll(async () => {
  server = await startServer(env, dataDir);
});
afterAll(async () => {
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const admin = (...args: string[]) => runBuildCommand("runAdminCommand", args, server);

describe("throttling", () => {
  it("answers 429 after too many failed sign-ins for an account, also with the right password, across restarts", async () => {
    const { email } = await registerUser(server.url);
    for (let i = 0; i < 10; i++) {
      const { response } = await new Client(server.url).post("/signinsignup", { intent: "signin", email, password: `zle-heslo-${i}` });
      expect(response.status).toBe(400);
    }
    const blocked = await new Client(server.url).post("/signinsignup", { intent: "signin", email, password: GOOD_PASSWORD });
    expect(blocked.response.status).toBe(429);
    expect(blocked.doc.querySelector(".form-error")?.text).toContain("Príliš veľa pokusov");

    await server.stop();
    server = await startServer(env, dataDir);
    const afterRestart = await new Client(server.url).post("/signinsignup", { intent: "signin", email, password: GOOD_PASSWORD });
    expect(afterRestart.response.status).toBe(429);
  });

  it("counts by the socket address: a spoofed X-Forwarded-For does not reset the counter", async () => {
    // 50 failures per address per window, whatever the account and the header say.
    let attempts = 0;
    let status = 0;
    while (status !== 429 && attempts < 60) {
      const { response } = await new Client(server.url).post(
        "/signinsignup",
        { intent: "signin", email: uniqueEmail("nobody"), password: "zle-heslo" },
        { "X-Forwarded-For": `203.0.113.${attempts++}` },
      );
      status = response.status;
    }
    expect(status).toBe(429);
    expect(attempts).toBeLessThanOrEqual(51);
  });

  it("answers every reset request for an account the same, past its mail budget too", async () => {
    const email = uniqueEmail("reset");
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const { response } = await new Client(server.url).post("/signinsignup", { intent: "forgot", email });
      statuses.push(response.status);
    }
    expect(statuses).toEqual(Array(6).fill(303));
  });
});

describe("mail without a Resend key", () => {
  it("writes the messages to the outbox under the data folder and logs where: the confirmation link and a reset link", async () => {
    const registered = await fetch(`${server.url}/healthz`);
    expect(registered.status).toBe(200);
    const email = uniqueEmail("outbox");
    // Registered directly through the admin-free path: the sign-up form.
    const client = new Client(server.url);
    await client.post("/signinsignup", { intent: "register", displayName: "Outbox", email, password: GOOD_PASSWORD, confirmPassword: GOOD_PASSWORD });
    await new Client(server.url).post("/signinsignup", { intent: "forgot", email });
    // The reset mail goes out a moment after the answer (see queuePasswordReset).
    const [confirmation, reset] = await settledMailsTo(server.databasePath, email, 2);
    expect(confirmation).toContain("Subject: Potvrdenie e-mailovej adresy");
    expect(reset).toContain("Subject: Obnovenie hesla");
    expect(reset).toMatch(/http:\/\/dejiny\.test\/reset-password\?token=[\w-]{43}/);
    // The operator (or the owner) opens the link from the file: its page's button confirms the address.
    const link = confirmationLinkIn(confirmation)!;
    const token = new URLSearchParams(link.split("?")[1]).get("token")!;
    expect((await new Client(server.url).post(link, { token })).response.headers.get("location")).toBe("/confirm-email?confirmed");
    expect((await client.get("/account")).doc.querySelector("#profil")?.parentNode?.text).toMatch(/· potvrdený/);
    // Logged once the file is written: the line may reach us a moment after the file.
    for (let i = 0; i < 50 && !server.output().includes("Mail outbox"); i++) await new Promise((r) => setTimeout(r, 50));
    expect(server.output()).toContain(`Mail outbox (no RESEND_API_KEY)`);
  });
});

describe("request log", () => {
  it("writes one JSON line per request, with the user when signed in, and never a secret", async () => {
    const password = "tajne-heslo-v-logu-1";
    const { client } = await registerUser(server.url, { password, confirmPassword: password });
    await client.get("/posts?tag=Morava");
    const token = "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG";
    await new Client(server.url).get(`/reset-password?token=${token}`);
    // Log lines are written once per turn of the server's event loop: give the last one a moment.
    await new Promise((r) => setTimeout(r, 100));
    const lines = server
      .output()
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line));
    const list = lines.find((l) => l.path === "/posts?tag=Morava")!;
    expect(list).toMatchObject({ method: "GET", status: 200, user: expect.any(String) });
    expect(typeof list.ms).toBe("number");
    expect(lines.find((l) => l.path.startsWith("/reset-password"))?.path).toBe("/reset-password?token=[redacted]");
    const everything = server.output();
    expect(everything).not.toContain(password);
    expect(everything).not.toContain(token);
    expect(everything).not.toContain(client.cookies.get("dejiny_session")!);
  });
});

describe("npm run admin", () => {
  it("grants, revokes, disables, enables and lists accounts on the configured database", async () => {
    const { client, email } = await registerUser(server.url);
    expect(await admin("grant", email.toUpperCase())).toMatchObject({ code: 0 });
    expect((await admin("list")).output).toMatch(new RegExp(`${email}\\s.*admin`));
    // The only admin stays one: the same rule as the admin page.
    expect(await admin("revoke", email)).toMatchObject({ code: 1, output: expect.stringContaining("posledný aktívny administrátor") });
    const { email: second } = await registerUser(server.url);
    expect((await admin("grant", second)).code).toBe(0);
    expect((await admin("revoke", email)).code).toBe(0);
    expect((await admin("list")).output).toMatch(new RegExp(`${email}\\s.*user`));
    expect(await admin("disable", email)).toMatchObject({ code: 1, output: expect.stringContaining("Napíšte odôvodnenie") });
    expect((await admin("disable", email, "Opakovaný", "spam.")).code).toBe(0);
    expect(await client.isSignedIn()).toBe(false);
    expect((await admin("list")).output).toMatch(new RegExp(`${email}\\s.*disabled`));
    expect((await admin("enable", email)).code).toBe(0);
    expect(await admin("grant", "nikto@example.com")).toMatchObject({ code: 1, output: expect.stringContaining("No account") });
    expect(await admin("bogus")).toMatchObject({ code: 2, output: expect.stringContaining("Usage") });
  });

  it("hides and restores an article on the configured database (the rest: tests/integration/moderation/hidden-articles.test.ts)", async () => {
    const { client } = await registerUser(server.url);
    const postId = (await publish(client, "Článok na skrytie z príkazového riadku"))!;
    expect((await admin("bogus")).output).toMatch(/hide <post-id> <reason…>[\s\S]*restore <post-id> <reason…>[\s\S]*resolve <post-id> <decision> <reason…>/);
    expect(await admin("hide", postId, "Skúška.")).toMatchObject({ code: 0, output: expect.stringContaining("Článok je skrytý.") });
    expect((await new Client(server.url).get(`/posts/${postId}`)).response.status).toBe(404);
    expect(await admin("restore", postId, "Skúška.")).toMatchObject({ code: 0, output: expect.stringContaining("Článok je znova zverejnený.") });
    expect((await new Client(server.url).get(`/posts/${postId}`)).response.status).toBe(200);
    expect(await admin("hide", "nic-take", "Skúška.")).toMatchObject({ code: 1, output: expect.stringContaining("No article with the id nic-take.") });
  });

  it("remove-demo removes the demo articles with their images, logs it, and they do not come back", async () => {
    const demoDir = mkdtempSync(path.join(tmpdir(), "dejiny-demo-"));
    let site = await startServer({ DEMO_CONTENT: "on" }, demoDir);
    const query = <T>(sql: string) => readDatabase(site.databasePath, (db) => db.prepare(sql).all() as T[]);
    const demoImages = query<{ image: string }>("SELECT image FROM posts JOIN users u ON u.id = author_id WHERE u.email = 'demo@dejiny.invalid'").map((row) => row.image);
    expect(demoImages).toHaveLength(12);
    const { client } = await registerUser(site.url);
    const own = await publish(client, "Článok, ktorý zostane");

    const removeDemo = () => runBuildCommand("runAdminCommand", ["remove-demo"], site);
    expect(await removeDemo()).toEqual({ code: 0, output: "remove-demo: removed 12 demo articles with their images.\n" });
    expect(query<{ id: string }>("SELECT id FROM posts")).toEqual([{ id: own }]);
    const files = readdirSync(site.uploadsDir);
    for (const key of demoImages) expect(files.filter((name) => name.startsWith(key))).toEqual([]);
    expect(query("SELECT actor_name, action, target_user_name, detail FROM moderation_log").at(-1)).toEqual({
      actor_name: "Príkazový riadok (npm run admin)",
      action: "removeArticles",
      target_user_name: "Redakcia Dejín",
      detail: "12 článkov",
    });

    // A later start publishes no demo again.
    await site.stop();
    site = await startServer({ DEMO_CONTENT: "on" }, demoDir);
    const { doc } = await new Client(site.url).get("/posts");
    expect(doc.querySelectorAll(".card")).toHaveLength(1);
    expect(await removeDemo()).toEqual({ code: 0, output: "remove-demo: there are no demo articles.\n" });
    await site.stop();
    rmSync(demoDir, { recursive: true, force: true });
  });
});
