import { afterEach, describe, expect, it } from "vitest";
import { Client, registerUser } from "../../../scripts/lib/client";
import { publish } from "../../../scripts/lib/publish";
import { sentMails } from "../../../scripts/lib/resend-stand-in";
import { registerConfirmedUser } from "../../support/accounts";
import { runBuildCommand } from "../../support/commands";
import { readDatabase } from "../../support/http";
import { serverWithMail, until } from "../../support/mail-server";
import { SUBJECTS } from "../../support/outbox";

/**
 * The mail outbox against a Resend stand-in that fails and recovers, on a
 * server of its own (it is restarted, its outbox filled): a reset mail is
 * kept while the service is down, retried, delivered once it is back (with
 * and without a restart), and never twice; each kind of mail has its own
 * room, and a decision is never without its mails.
 */

type OutboxRow = { id: string; recipient: string; kind: string; subject: string; text: string; attempts: number; last_error: string | null; sent_at: number | null; gave_up_at: number | null };

const site = serverWithMail("mail");

/** The mails queued for an address, but its confirmation link (sent at registration, before each test's case). */
const outbox = (recipient: string) =>
  readDatabase(
    site.server.databasePath,
    (db) => db.prepare("SELECT * FROM mail_outbox WHERE recipient = ? AND subject NOT LIKE 'Potvrdenie e-mailovej adresy%' ORDER BY created_at").all(recipient) as OutboxRow[],
  );


/** A new account whose confirmation link has gone (so that only what a test queues after waits). */
async function registered(): Promise<string> {
  const { email } = await registerUser(site.server.url);
  await until(`the confirmation link to ${email} sent`, () => readDatabase(site.server.databasePath, (db) => db.prepare("SELECT sent_at FROM mail_outbox WHERE recipient = ?").pluck().get(email)));
  return email;
}

async function askForReset(email: string): Promise<void> {
  const { response } = await new Client(site.server.url).post("/signinsignup?forgot", { intent: "forgot", email });
  expect(response.headers.get("location")).toBe("/signinsignup");
}

/** The mails the service took for an address, but its confirmation link. */
const mailsTo = async (email: string) => (await sentMails(site.standIn.url)).filter((mail) => [mail.to].flat().includes(email) && SUBJECTS.notConfirmation.test(mail.subject));
const failedOnce = (email: string) => until(`a failed attempt to ${email}`, () => outbox(email).find((row) => row.attempts >= 1 && row.last_error));

describe("the mail outbox", () => {
  it("keeps a reset mail while the mail service is down, shows it on /admin, and delivers it within 30 s once the service is back, without a restart", async () => {
    // First, so that the slow part (a command's start) is not between the failure and its retry 20 s later.
    const admin = await registerUser(site.server.url);
    expect((await runBuildCommand("runAdminCommand", ["grant", admin.email], site.server)).code).toBe(0);

    const email = await registered();
    await site.standIn.setMode("down");
    await askForReset(email);
    const failed = await failedOnce(email);
    expect(failed).toMatchObject({ sent_at: null, gave_up_at: null });
    expect(failed.last_error).toMatch(/stand-in is down/);
    expect(failed.text).toMatch(/\/reset-password\?token=/);
    expect(await mailsTo(email)).toEqual([]);

    const { doc } = await admin.client.get("/admin");
    const status = doc.querySelector('section[aria-labelledby="posta"]')!.text;
    expect(status).toContain("Na odoslanie čaká e-mailov: 1.");
    expect(status).toMatch(/Posledná chyba .*stand-in is down/s);

    await site.standIn.setMode("ok");
    const started = Date.now();
    const mail = await until("the mail after the service came back", async () => (await mailsTo(email)).at(0), 30_000);
    console.log(`delivered ${((Date.now() - started) / 1000).toFixed(1)} s after the service came back (first retry 20 s after the failure)`);
    expect(mail.text).toMatch(/\/reset-password\?token=/);
    // Delivered: the link is no longer kept in the database.
    expect(outbox(email)).toEqual([expect.objectContaining({ text: "", attempts: 2, gave_up_at: null })]);
    // (Two attempts: the failure, then the retry 20 s later that found the service back.)
    expect(outbox(email)[0].sent_at).not.toBeNull();
    expect((await admin.client.get("/admin")).doc.querySelector('section[aria-labelledby="posta"]')!.text).toContain("Všetky e-maily sú odoslané.");
  });

  it("keeps waiting mails across a restart and sends each once, even when the service took one and its answer was lost", async () => {
    const [lostAnswer, down] = [await registered(), await registered()];
    await site.standIn.setMode("loseAnswer");
    await askForReset(lostAnswer);
    await failedOnce(lostAnswer);
    // The stand-in took that mail; only its answer was lost.
    expect(await mailsTo(lostAnswer)).toHaveLength(1);

    await site.standIn.setMode("down");
    await askForReset(down);
    await failedOnce(down);

    await site.stop();
    await site.standIn.setMode("ok");
    const requestsBefore = await site.standIn.requests();
    await site.start();
    // A start tries every waiting mail at once.
    await until("both mails sent", () => outbox(lostAnswer)[0]?.sent_at && outbox(down)[0]?.sent_at, 10_000);
    expect(await mailsTo(down)).toHaveLength(1);
    // Sent again after the restart with the same Idempotency-Key: the service did not make it a second mail.
    expect(await site.standIn.requests()).toBe(requestsBefore + 2);
    const [taken] = await mailsTo(lostAnswer);
    expect(taken.idempotencyKey).toBe(outbox(lostAnswer)[0].id);
    expect(await mailsTo(lostAnswer)).toHaveLength(1);
  });

  it("queues nothing for addresses without an account", async () => {
    const before = readDatabase(site.server.databasePath, (db) => db.prepare("SELECT count(*) FROM mail_outbox").pluck().get() as number);
    for (let i = 0; i < 20; i++) {
      const { response } = await new Client(site.server.url).post("/signinsignup?forgot", { intent: "forgot", email: `nobody-${i}-${Date.now()}@example.com` });
      expect(response.headers.get("location")).toBe("/signinsignup");
    }
    // The requests are handled a moment after their answers (password-reset.server.ts).
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(readDatabase(site.server.databasePath, (db) => db.prepare("SELECT count(*) FROM mail_outbox").pluck().get() as number)).toBe(before);
  });

  it("queues at most 5 account mails for one address (and then no reset link either), and gives up a mail that can no longer arrive in time", async () => {
    const email = await registered();
    const now = Date.now();
    const insert = (id: string, recipient: string, sendBefore: number, nextAttemptAt: number, kind = "account") =>
      readDatabase(
        site.server.databasePath,
        (db) =>
          db
            .prepare("INSERT INTO mail_outbox (id, kind, recipient, subject, text, html, created_at, send_before, next_attempt_at) VALUES (?, ?, ?, 'Skúška', 'text', '<p>text</p>', ?, ?, ?)")
            .run(id, kind, recipient, now, sendBefore, nextAttemptAt),
        true,
      );
    // Receipts waiting for this address do not stand in the way of its links…
    for (let i = 0; i < 5; i++) insert(`receipt-${i}-${now}`, email, now + 2 * 3_600_000, now + 3_600_000, "receipt");
    await askForReset(email);
    await until("a reset link queued beside 5 receipts", () => outbox(email).find((row) => row.subject.startsWith("Obnovenie hesla")));
    readDatabase(site.server.databasePath, (db) => db.prepare("DELETE FROM mail_outbox WHERE recipient = ?").run(email), true);
    readDatabase(site.server.databasePath, (db) => db.prepare("DELETE FROM password_reset_tokens WHERE user_id = (SELECT id FROM users WHERE email = ?)").run(email), true);
    // …five account mails waiting for it, due in an hour, do.
    for (let i = 0; i < 5; i++) insert(`full-${i}-${now}`, email, now + 2 * 3_600_000, now + 3_600_000);
    // One that had to go before now: it must not be sent late.
    const stale = `stale-${now}@example.com`;
    insert(`stale-${now}`, stale, now - 1, now);
    await new Client(site.server.url).post("/signinsignup?forgot", { intent: "forgot", email });
    // Another address's reset wakes the sender, which meets the stale mail first.
    await askForReset(await registered());
    const givenUp = await until("the stale mail given up", () => outbox(stale).find((row) => row.gave_up_at));
    expect(givenUp).toMatchObject({ sent_at: null, text: "" });
    expect(await mailsTo(stale)).toEqual([]);
    expect(outbox(email)).toHaveLength(5);
    const tokens = readDatabase(site.server.databasePath, (db) =>
      db.prepare("SELECT count(*) FROM password_reset_tokens t JOIN users u ON u.id = t.user_id WHERE u.email = ?").pluck().get(email),
    );
    expect(tokens).toBe(0);
  });
});

describe("the outbox's room", () => {
  const HOUR = 3_600_000;
  /** `count` waiting mails of `kind` to other addresses, due in an hour (so the sender leaves them be): the outbox as a flood or an outage leaves it. */
  const fill = (kind: string, count: number) =>
    readDatabase(
      site.server.databasePath,
      (db) => {
        const now = Date.now();
        const insert = db.prepare("INSERT INTO mail_outbox (id, kind, recipient, subject, text, html, created_at, send_before, next_attempt_at) VALUES (?, ?, ?, 'Výplň', 'text', '<p>text</p>', ?, ?, ?)");
        db.transaction(() => {
          for (let i = 0; i < count; i++) insert.run(`filler-${kind}-${now}-${i}`, kind, `filler-${i}@example.com`, now, now + 2 * HOUR, now + HOUR);
        })();
      },
      true,
    );
  const emptyFiller = () => readDatabase(site.server.databasePath, (db) => db.prepare("DELETE FROM mail_outbox WHERE recipient LIKE 'filler-%'").run(), true);
  const subjects = (email: string) => outbox(email).map((row) => `${row.kind}: ${row.subject}`);
  const one = <T>(sql: string, ...params: unknown[]) => readDatabase(site.server.databasePath, (db) => db.prepare(sql).get(...params) as T);

  afterEach(emptyFiller);

  /** A signed-in admin, an author's article and a reader's report of it; the author and the reader have confirmed their addresses. */
  async function reportedArticle(title: string) {
    const admin = await registerUser(site.server.url);
    readDatabase(site.server.databasePath, (db) => db.prepare("UPDATE users SET is_admin = 1 WHERE email = ?").run(admin.email), true);
    const author = await registerConfirmedUser(site.server.url, site.server.databasePath);
    const postId = (await publish(author.client, title))!;
    const reader = await registerConfirmedUser(site.server.url, site.server.databasePath);
    expect((await reader.client.post(`/posts/${postId}/report`, { reason: "misinformation", note: "" })).response.status).toBe(200);
    return { admin: admin.client, author, postId, reader };
  }

  it("keeps room for a decision's mails when 1,000 others wait: a hide, a fix request and a report's decision queue every mail; the receipt gives way", async () => {
    fill("receipt", 1_000);
    fill("account", 500);
    const { admin, author, postId, reader } = await reportedArticle("Článok na opravu");
    // The receipt of that report found no room.
    expect(subjects(reader.email)).toEqual([]);
    const fix = await admin.post("/admin", { intent: "decide", post: postId, decision: "requestFix", reason: "Doplňte zdroj k roku 1241." });
    expect(fix.response.status).toBe(303);
    expect(subjects(reader.email)).toEqual(["decision: Rozhodnutie o vašom hlásení – Dejiny"]);
    expect(subjects(author.email)).toEqual(["decision: Výzva na opravu vášho článku – Dejiny"]);

    const hidden = (await publish(author.client, "Článok na skrytie"))!;
    expect((await admin.post(`/posts/${hidden}`, { intent: "hide", reason: "Vymyslené citáty." })).response.status).toBe(303);
    expect(subjects(author.email)).toEqual(["decision: Výzva na opravu vášho článku – Dejiny", "decision: Rozhodnutie redakcie o vašom obsahu – Dejiny"]);
    expect(outbox(author.email).at(-1)!.text).toContain("Vymyslené citáty.");
  });

  it("gives a reader at most 10 receipts a day, sent or waiting; the reports themselves are all taken", async () => {
    const { author, reader } = await reportedArticle("Prvý nahlásený článok");
    await until("the first receipt sent", () => outbox(reader.email)[0]?.sent_at);
    // Eight more went out today (the report quota is 10 an hour, so they are written in).
    const now = Date.now();
    readDatabase(
      site.server.databasePath,
      (db) => {
        const insert = db.prepare("INSERT INTO mail_outbox (id, kind, recipient, subject, text, html, created_at, send_before, next_attempt_at, sent_at) VALUES (?, 'receipt', ?, 'Vaše hlásenie sme prijali – Dejiny', '', '', ?, ?, ?, ?)");
        for (let i = 0; i < 8; i++) insert.run(`earlier-${now}-${i}`, reader.email, now - (i + 1) * HOUR, now, now, now);
      },
      true,
    );
    for (const title of ["Desiaty", "Jedenásty"]) {
      const postId = (await publish(author.client, `${title} nahlásený článok`))!;
      expect((await reader.client.post(`/posts/${postId}/report`, { reason: "misinformation", note: "" })).response.status).toBe(200);
    }
    const receipts = outbox(reader.email).filter((row) => row.kind === "receipt");
    expect(receipts).toHaveLength(10);
    // The tenth went out; the eleventh was never queued.
    await until("the tenth receipt delivered", async () => (await mailsTo(reader.email)).some((mail) => mail.text.includes("Desiaty")));
    expect((await mailsTo(reader.email)).some((mail) => mail.text.includes("Jedenásty"))).toBe(false);
    expect(one<{ n: number }>("SELECT count(*) AS n FROM reports WHERE reporter_id = (SELECT id FROM users WHERE email = ?)", reader.email).n).toBe(3);
  });

  it("makes a decision wait when even the decisions' room is full: 503 with Retry-After, nothing changed, the form as it was typed; then it goes through", async () => {
    const { admin, author, postId, reader } = await reportedArticle("Článok, o ktorom sa rozhodne neskôr");
    fill("decision", 10_000);
    const authorId = one<{ id: string }>("SELECT id FROM users WHERE email = ?", author.email).id;
    const unchanged = () => {
      expect(one<{ hidden_at: number | null }>("SELECT hidden_at FROM posts WHERE id = ?", postId).hidden_at).toBeNull();
      expect(one<{ state: string }>("SELECT state FROM reports WHERE post_id = ?", postId).state).toBe("open");
      expect(one<{ n: number }>("SELECT count(*) AS n FROM moderation_decisions WHERE post_id = ? OR user_id = ?", postId, authorId).n).toBe(0);
      expect(one<{ n: number }>("SELECT count(*) AS n FROM moderation_log WHERE target_post_id = ? OR target_user_id = ?", postId, authorId).n).toBe(0);
      expect(one<{ disabled_at: number | null }>("SELECT disabled_at FROM users WHERE id = ?", authorId).disabled_at).toBeNull();
      expect(subjects(reader.email)).toEqual(["receipt: Vaše hlásenie sme prijali – Dejiny"]);
      expect(subjects(author.email)).toEqual([]);
    };
    const waits = (response: Response) => {
      expect(response.status).toBe(503);
      expect(Number(response.headers.get("retry-after"))).toBeGreaterThanOrEqual(300);
    };

    const reason = "Bitka sa odohrala inde; opravené podľa kroniky.";
    const queue = await admin.post("/admin", { intent: "decide", post: postId, decision: "hide", reason });
    waits(queue.response);
    expect(queue.doc.querySelector(".form-error")?.text).toContain("Nič sa nezmenilo");
    expect(queue.doc.querySelector("#decision-reason")?.text).toBe(reason);
    expect(queue.doc.querySelector('input[name="decision"][value="hide"]')?.hasAttribute("checked")).toBe(true);
    expect(queue.doc.querySelector(`input[name="post"][value="${postId}"]`)?.hasAttribute("checked")).toBe(true);
    unchanged();

    const hide = await admin.post(`/posts/${postId}`, { intent: "hide", reason });
    waits(hide.response);
    expect(hide.doc.querySelector("#visibility-error")?.text).toContain("Nič sa nezmenilo");
    expect(hide.doc.querySelector(".visibility-box #field-reason")?.text).toBe(reason);
    const remove = await admin.post(`/posts/${postId}`, { intent: "delete", confirm: "yes", reason });
    waits(remove.response);
    expect(one<{ n: number }>("SELECT count(*) AS n FROM posts WHERE id = ?", postId).n).toBe(1);
    const disable = await admin.post(`/admin/users/${authorId}`, { intent: "disable", confirm: "yes", reason });
    waits(disable.response);
    expect(disable.doc.querySelector("#disable-reason")?.text).toBe(reason);
    expect((await runBuildCommand("runAdminCommand", ["hide", postId, reason], site.server)).code).toBe(1);
    unchanged();

    emptyFiller();
    const decided = await admin.post("/admin", { intent: "decide", post: postId, decision: "hide", reason });
    expect(decided.response.status).toBe(303);
    expect(subjects(reader.email)).toEqual(["receipt: Vaše hlásenie sme prijali – Dejiny", "decision: Rozhodnutie o vašom hlásení – Dejiny"]);
    expect(subjects(author.email)).toEqual(["decision: Rozhodnutie redakcie o vašom obsahu – Dejiny"]);
  });
});
