import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, registerUser } from "../../scripts/lib/client";
import { startServer, type RunningServer } from "../../scripts/lib/server";
import { sharedServerEnv } from "../support/accounts-env";
import { runBuildCommand } from "../support/commands";
import { readDatabase } from "../support/http";
import { sentMails, startResendStandIn } from "../support/resend-stand-in";

/**
 * The mail outbox against a Resend stand-in that fails and recovers, on a
 * server of its own (it is restarted): a reset mail is kept while the
 * service is down, retried, delivered once it is back (with and without a
 * restart), and never twice.
 */

type OutboxRow = { id: string; recipient: string; text: string; attempts: number; last_error: string | null; sent_at: number | null; gave_up_at: number | null };

let standIn: Awaited<ReturnType<typeof startResendStandIn>>;
let server: RunningServer;
let dataDir: string;

const start = () => startServer(sharedServerEnv(standIn.url), dataDir);

beforeAll(async () => {
  standIn = await startResendStandIn();
  dataDir = mkdtempSync(path.join(tmpdir(), "dejiny-mail-"));
  server = await start();
});

afterAll(async () => {
  await server?.stop();
  await standIn?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const outbox = (recipient: string) =>
  readDatabase(server.databasePath, (db) => db.prepare("SELECT * FROM mail_outbox WHERE recipient = ? ORDER BY created_at").all(recipient) as OutboxRow[]);

async function until<T>(what: string, check: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function askForReset(): Promise<string> {
  const { email } = await registerUser(server.url);
  const { response } = await new Client(server.url).post("/signinsignup?forgot", { intent: "forgot", email });
  expect(response.headers.get("location")).toBe("/signinsignup?resetSent");
  return email;
}

const mailsTo = async (email: string) => (await sentMails(standIn.url)).filter((mail) => [mail.to].flat().includes(email));
const failedOnce = (email: string) => until(`a failed attempt to ${email}`, () => outbox(email).find((row) => row.attempts >= 1 && row.last_error));

describe("the mail outbox", () => {
  it("keeps a reset mail while the mail service is down, shows it on /admin, and delivers it within 30 s once the service is back, without a restart", async () => {
    // First, so that the slow part (a command's start) is not between the failure and its retry 20 s later.
    const admin = await registerUser(server.url);
    expect((await runBuildCommand("runAdminCommand", ["grant", admin.email], server)).code).toBe(0);

    await standIn.setMode("down");
    const email = await askForReset();
    const failed = await failedOnce(email);
    expect(failed).toMatchObject({ sent_at: null, gave_up_at: null });
    expect(failed.last_error).toMatch(/stand-in is down/);
    expect(failed.text).toMatch(/\/reset-password\?token=/);
    expect(await mailsTo(email)).toEqual([]);

    const { doc } = await admin.client.get("/admin");
    const status = doc.querySelector('section[aria-labelledby="posta"]')!.text;
    expect(status).toContain("Na odoslanie čaká e-mailov: 1.");
    expect(status).toMatch(/Posledná chyba .*stand-in is down/s);

    await standIn.setMode("ok");
    const started = Date.now();
    const mail = await until("the mail after the service came back", async () => (await mailsTo(email)).at(0), 30_000);
    console.log(`delivered ${((Date.now() - started) / 1000).toFixed(1)} s after the service came back (first retry 20 s after the failure)`);
    expect(mail.text).toMatch(/\/reset-password\?token=/);
    // Delivered: the link is no longer kept in the database.
    expect(outbox(email)).toEqual([expect.objectContaining({ text: "", attempts: 2, gave_up_at: null })]);
    // (Two attempts: the failure, then the retry 20 s later that found the service back.)
    expect(outbox(email)[0].sent_at).not.toBeNull();
    expect((await admin.client.get("/admin")).doc.querySelector('section[aria-labelledby="posta"]')!.text).toContain("Všetky e-maily sú odoslané.");
  }, 60_000);

  it("keeps waiting mails across a restart and sends each once, even when the service took one and its answer was lost", async () => {
    await standIn.setMode("loseAnswer");
    const lostAnswer = await askForReset();
    await failedOnce(lostAnswer);
    // The stand-in took that mail; only its answer was lost.
    expect(await mailsTo(lostAnswer)).toHaveLength(1);

    await standIn.setMode("down");
    const down = await askForReset();
    await failedOnce(down);

    await server.stop();
    await standIn.setMode("ok");
    const requestsBefore = await standIn.requests();
    server = await start();
    // A start tries every waiting mail at once.
    await until("both mails sent", () => outbox(lostAnswer)[0]?.sent_at && outbox(down)[0]?.sent_at, 10_000);
    expect(await mailsTo(down)).toHaveLength(1);
    // Sent again after the restart with the same Idempotency-Key: the service did not make it a second mail.
    expect(await standIn.requests()).toBe(requestsBefore + 2);
    const [taken] = await mailsTo(lostAnswer);
    expect(taken.idempotencyKey).toBe(outbox(lostAnswer)[0].id);
    expect(await mailsTo(lostAnswer)).toHaveLength(1);
  }, 60_000);

  it("queues nothing for addresses without an account", async () => {
    const before = readDatabase(server.databasePath, (db) => db.prepare("SELECT count(*) FROM mail_outbox").pluck().get() as number);
    for (let i = 0; i < 20; i++) {
      const { response } = await new Client(server.url).post("/signinsignup?forgot", { intent: "forgot", email: `nobody-${i}-${Date.now()}@example.com` });
      expect(response.headers.get("location")).toBe("/signinsignup?resetSent");
    }
    // The requests are handled a moment after their answers (password-reset.server.ts).
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(readDatabase(server.databasePath, (db) => db.prepare("SELECT count(*) FROM mail_outbox").pluck().get() as number)).toBe(before);
  });

  it("queues at most 5 mails for one address (and then no reset link either), and gives up a mail that can no longer arrive in time", async () => {
    const { email } = await registerUser(server.url);
    const now = Date.now();
    const insert = (id: string, recipient: string, sendBefore: number, nextAttemptAt: number) =>
      readDatabase(
        server.databasePath,
        (db) =>
          db
            .prepare("INSERT INTO mail_outbox (id, recipient, subject, text, html, created_at, send_before, next_attempt_at) VALUES (?, ?, 'Skúška', 'text', '<p>text</p>', ?, ?, ?)")
            .run(id, recipient, now, sendBefore, nextAttemptAt),
        true,
      );
    // Five waiting for this address, due in an hour.
    for (let i = 0; i < 5; i++) insert(`full-${i}-${now}`, email, now + 2 * 3_600_000, now + 3_600_000);
    // One that had to go before now: it must not be sent late.
    const stale = `stale-${now}@example.com`;
    insert(`stale-${now}`, stale, now - 1, now);
    await new Client(server.url).post("/signinsignup?forgot", { intent: "forgot", email });
    // Another address's reset wakes the sender, which meets the stale mail first.
    await askForReset();
    const givenUp = await until("the stale mail given up", () => outbox(stale).find((row) => row.gave_up_at));
    expect(givenUp).toMatchObject({ sent_at: null, text: "" });
    expect(await mailsTo(stale)).toEqual([]);
    expect(outbox(email)).toHaveLength(5);
    const tokens = readDatabase(server.databasePath, (db) =>
      db.prepare("SELECT count(*) FROM password_reset_tokens t JOIN users u ON u.id = t.user_id WHERE u.email = ?").pluck().get(email),
    );
    expect(tokens).toBe(0);
  });
});
