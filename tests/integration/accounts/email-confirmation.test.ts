import type Database from "better-sqlite3";
import { describe, expect, inject, it } from "vitest";
import { ACCOUNT_NOTICES } from "~/lib/notices";
import { Client, registerUser } from "../../../scripts/lib/client";
import { publish } from "../../../scripts/lib/publish";
import { confirmAddress, registerConfirmedUser } from "../../support/accounts";
import { TEST_PUBLIC_URL } from "../../support/accounts-env";
import { runBuildCommand } from "../../support/commands";
import { pageStatus, readDatabase } from "../../support/http";
import { SUBJECTS } from "../../support/outbox";
import { sentMails, waitForMail } from "../../../scripts/lib/resend-stand-in";

/**
 * An account confirms its e-mail address by the link mailed at
 * registration; until then the site mails the address nothing but that
 * link and reset links: no receipts, no moderation mails (the account's
 * pages show what they would have said).
 */

const base = inject("baseUrl");
const databasePath = inject("databasePath");
const uploadsDir = inject("uploadsDir");
const resendUrl = inject("resendUrl");

const db = <T>(work: (db: Database.Database) => T, write = false) => readDatabase(databasePath, work, write);
const confirmedAt = (email: string) => db((d) => d.prepare("SELECT email_confirmed_at FROM users WHERE email = ?").pluck().get(email) as number | null);
/** What the outbox holds for an address besides its confirmation links: what the site decided to send it. */
const otherMailsTo = (email: string) =>
  db((d) => d.prepare("SELECT subject FROM mail_outbox WHERE recipient = ? AND subject NOT LIKE 'Potvrdenie e-mailovej adresy%' ORDER BY created_at").pluck().all(email) as string[]);
const confirmationMail = (email: string, after = 0) => waitForMail(resendUrl, email, after, SUBJECTS.confirmation);
const pathOf = (link: string) => link.slice(TEST_PUBLIC_URL.length);

const linkIn = (text: string) => text.match(/\S+\/confirm-email\?token=\S+/)![0];

/** The newest confirmation link mailed to `email`, once it has come. */
async function linkFor(email: string): Promise<string> {
  return linkIn((await confirmationMail(email)).text);
}

/** The link's page, and its form sent as a browser without JavaScript sends it (its action, its hidden fields). */
async function openAndConfirm(client: Client, path: string) {
  const page = await client.get(path);
  const form = page.doc.querySelector('main form[method="post"]');
  if (!form) return { page, sent: null };
  const fields = Object.fromEntries(form.querySelectorAll("input[type=hidden]").map((input) => [input.getAttribute("name")!, input.getAttribute("value") ?? ""]));
  const sent = await client.post(form.getAttribute("action") ?? path, fields);
  return { page, sent };
}

async function admin() {
  const account = await registerConfirmedUser(base, databasePath);
  db((d) => d.prepare("UPDATE users SET is_admin = 1 WHERE email = ?").run(account.email), true);
  return account;
}

describe("confirming an account's address", () => {
  it("mails a link at registration, built from PUBLIC_URL, whose token is kept only as a hash, with no text the registrant chose", async () => {
    const displayName = `Lacné hodinky na hodinky.example ${Date.now()}`;
    const { email } = await registerUser(base, { displayName });
    const mail = await confirmationMail(email);
    expect(mail.subject).toBe("Potvrdenie e-mailovej adresy – Dejiny");
    const link = await linkFor(email);
    expect(link.startsWith(`${TEST_PUBLIC_URL}/confirm-email?token=`)).toBe(true);
    expect(mail.html).toContain(`href="${link}"`);
    const token = new URL(link).searchParams.get("token")!;
    expect(Buffer.from(token, "base64url")).toHaveLength(32);
    // The name is whoever registered's words, and this address is nobody's confirmed one yet.
    for (const part of [mail.subject, mail.text, mail.html]) expect(part).not.toContain("hodinky");
    const stored = db((d) => d.prepare("SELECT t.token_hash, t.expires_at - t.created_at AS lifetime FROM email_confirmation_tokens t JOIN users u ON u.id = t.user_id WHERE u.email = ?").all(email)) as {
      token_hash: string;
      lifetime: number;
    }[];
    expect(stored).toHaveLength(1);
    expect(stored[0].token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(stored[0].token_hash).not.toContain(token);
    expect(stored[0].lifetime).toBe(24 * 60 * 60 * 1000);
    expect(confirmedAt(email)).toBeNull();
  });

  it("confirms with the page's button, a plain form POST, never by opening the link; /account shows the state; the link works once", async () => {
    const { client, email } = await registerUser(base);
    const account = await client.get("/account");
    expect(account.doc.querySelector("#profil")?.parentNode?.text).toContain("nepotvrdený");
    expect(account.doc.querySelector('form input[name="intent"][value="resendConfirmation"]')).not.toBeNull();

    const path = pathOf(await linkFor(email));
    // A mail scanner (no cookies) opens the link: the page, its button, nothing confirmed.
    const scanned = await new Client(base).get(path);
    expect(scanned.response.status).toBe(200);
    expect(scanned.response.headers.get("cache-control")).toBe("no-store");
    expect(scanned.doc.querySelector('meta[name="referrer"]')?.getAttribute("content")).toBe("same-origin");
    expect(scanned.doc.querySelector("main button")?.text.trim()).toBe("Potvrdiť adresu");
    expect(confirmedAt(email)).toBeNull();

    // Anyone with the link confirms, signed in or not (the owner may open the mail on another device).
    const { sent } = await openAndConfirm(new Client(base), path);
    expect(sent?.response.status).toBe(303);
    expect(sent?.response.headers.get("location")).toBe("/confirm-email?confirmed");
    expect(confirmedAt(email)).toBeGreaterThan(0);
    expect((await new Client(base).get("/confirm-email?confirmed")).doc.querySelector("h1")?.text).toBe("E-mailová adresa je potvrdená");

    const after = await client.get("/account");
    expect(after.doc.querySelector("#profil")?.parentNode?.text).toMatch(/· potvrdený/);
    expect(after.doc.querySelector('form input[name="intent"][value="resendConfirmation"]')).toBeNull();

    // Used: refused, and the page no longer offers the button.
    const again = await new Client(base).post(path, { token: new URLSearchParams(path.split("?")[1]).get("token")! });
    expect(again.response.status).toBe(400);
    expect(again.doc.querySelector(".form-error")?.text).toContain("neplatný, už bol použitý alebo vypršal");
    expect((await new Client(base).get(path)).doc.querySelector("main form")).toBeNull();
  });

  it("refuses an expired link and a made-up one, and confirms nothing", async () => {
    const { email } = await registerUser(base);
    const path = pathOf(await linkFor(email));
    const token = new URLSearchParams(path.split("?")[1]).get("token")!;
    const madeUp = `${token.slice(0, -2)}${token.endsWith("AA") ? "BB" : "AA"}`;
    expect((await new Client(base).post(`/confirm-email?token=${madeUp}`, { token: madeUp })).response.status).toBe(400);
    db((d) => d.prepare("UPDATE email_confirmation_tokens SET expires_at = ? WHERE user_id = (SELECT id FROM users WHERE email = ?)").run(Date.now() - 1, email), true);
    const { page, sent } = await openAndConfirm(new Client(base), path);
    expect(sent).toBeNull();
    expect(page.doc.querySelector(".form-error")?.text).toContain("vypršal");
    expect((await new Client(base).post(path, { token })).response.status).toBe(400);
    expect(confirmedAt(email)).toBeNull();
  });

  it("sends an unconfirmed address no receipt and no moderation mail, only reset links; its pages say it all; confirmed, it gets them", async () => {
    const author = await registerUser(base);
    const postId = (await publish(author.client, "Článok, ktorý niekto nahlási"))!;
    const reader = await registerUser(base);
    const reported = await reader.client.post(`/posts/${postId}/report`, { reason: "misinformation", note: "Rok nesedí." });
    expect(reported.response.status).toBe(200);
    // The report is taken; its receipt, which would quote the article's title (its author's words), is not queued.
    expect(otherMailsTo(reader.email)).toEqual([]);
    expect(reported.doc.querySelector('[role="status"]')?.text).toContain("až keď potvrdíte svoju e-mailovú adresu");

    const { client: adminClient } = await admin();
    expect((await adminClient.post(`/posts/${postId}`, { intent: "hide", reason: "Vymyslený rok bitky." })).response.status).toBe(303);
    // The decision was taken and written (its reports upheld): no mail for either unconfirmed address.
    expect(otherMailsTo(reader.email)).toEqual([]);
    expect(otherMailsTo(author.email)).toEqual([]);
    expect((await reader.client.get("/account/reports")).doc.querySelector("main")?.text).toContain("Vymyslený rok bitky.");
    expect((await author.client.get("/account/decisions")).doc.querySelector("main")?.text).toContain("Vymyslený rok bitky.");

    // A reset link is the owner's way back in: it goes to an unconfirmed address.
    await new Client(base).post("/signinsignup?forgot", { intent: "forgot", email: reader.email });
    expect((await waitForMail(resendUrl, reader.email, 0, SUBJECTS.reset)).text).toMatch(/\/reset-password\?token=/);

    // Confirmed, the reader gets the receipt of the next report.
    confirmAddress(databasePath, reader.email);
    const another = (await publish(author.client, "Druhý nahlásený článok"))!;
    const second = await reader.client.post(`/posts/${another}/report`, { reason: "misinformation", note: "" });
    expect(second.doc.querySelector('[role="status"]')?.text).toContain("a dostanete e-mail");
    const receipt = await waitForMail(resendUrl, reader.email, 0, /^Vaše hlásenie sme prijali/);
    expect(receipt.text).toContain("Druhý nahlásený článok");
  });

  it("sends the link again from /account, at most 5 times a day for an account and 10 times an hour from one address", async () => {
    const resend = (client: Client) => client.post("/account", { intent: "resendConfirmation" });
    const { client, email } = await registerUser(base);
    await confirmationMail(email);
    for (let i = 1; i <= 5; i++) {
      const { response } = await resend(client);
      expect(response.status).toBe(303);
      expect(response.headers.get("location")).toBe("/account");
      expect(pageStatus((await client.get("/account")).doc)).toBe(ACCOUNT_NOTICES.confirmationSent);
      await confirmationMail(email, i);
    }
    const refused = await resend(client);
    expect(refused.response.status).toBe(429);
    expect(Number(refused.response.headers.get("retry-after"))).toBeGreaterThan(23 * 3600);
    expect(refused.doc.querySelector("#profil")?.parentNode?.querySelector(".form-error")?.text).toContain("poslali už viackrát");
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(db((d) => d.prepare("SELECT count(*) FROM mail_outbox WHERE recipient = ?").pluck().get(email))).toBe(6);
    // Any of the links works; with it, the others are used up.
    const links = (await sentMails(resendUrl)).filter((m) => [m.to].flat().includes(email)).map((m) => pathOf(linkIn(m.text)));
    expect(new Set(links).size).toBe(6);
    expect((await openAndConfirm(new Client(base), links[2])).sent?.response.status).toBe(303);
    expect((await openAndConfirm(new Client(base), links[5])).sent).toBeNull();

    // Three accounts behind one address: 10 links an hour between them.
    const address = `198.18.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
    const behindOne = await Promise.all([0, 1, 2].map(async () => {
      const account = await registerUser(base);
      const there = new Client(base, address);
      there.cookies = new Map(account.client.cookies);
      return there;
    }));
    for (const there of behindOne.slice(0, 2)) for (let i = 0; i < 5; i++) expect((await resend(there)).response.status).toBe(303);
    expect((await resend(behindOne[2])).response.status).toBe(429);
    // The same account from elsewhere: its own budget is not used up.
    const elsewhere = new Client(base);
    elsewhere.cookies = new Map(behindOne[2].cookies);
    expect((await resend(elsewhere)).response.status).toBe(303);
  });

  it("confirms an address with `npm run admin -- confirm`, in the moderation log, and lists the unconfirmed", async () => {
    const { email } = await registerUser(base);
    const other = await registerUser(base);
    const paths = { databasePath, uploadsDir };
    const listed = await runBuildCommand("runAdminCommand", ["list"], paths);
    expect(listed.output).toMatch(new RegExp(`${email}\\t.*\\tunconfirmed`));

    const done = await runBuildCommand("runAdminCommand", ["confirm", email.toUpperCase()], paths);
    expect(done).toMatchObject({ code: 0, output: expect.stringContaining(`confirm: done for ${email}`) });
    expect(confirmedAt(email)).toBeGreaterThan(0);
    expect(confirmedAt(other.email)).toBeNull();
    const logged = db((d) =>
      d.prepare("SELECT actor_id, actor_name, action FROM moderation_log WHERE target_user_id = (SELECT id FROM users WHERE email = ?)").all(email),
    );
    expect(logged).toEqual([{ actor_id: null, actor_name: "Príkazový riadok (npm run admin)", action: "confirmEmail" }]);
    // The link mailed at registration is used up with it.
    expect((await openAndConfirm(new Client(base), pathOf(await linkFor(email)))).sent).toBeNull();

    expect((await runBuildCommand("runAdminCommand", ["confirm", email], paths)).output).toContain("was confirmed already");
    expect((await runBuildCommand("runAdminCommand", ["confirm", "nikto@example.com"], paths)).code).toBe(1);
    expect((await runBuildCommand("runAdminCommand", ["list"], paths)).output).not.toMatch(new RegExp(`${email}\\t.*unconfirmed`));
  });
});
