import type Database from "better-sqlite3";
import { createHash } from "node:crypto";
import { describe, expect, inject, it } from "vitest";
import { SUBSCRIPTION_MESSAGES, SUBSCRIPTION_NOTICES } from "~/lib/subscriptions";
import { Client, GOOD_PASSWORD, registerUser, uniqueEmail } from "../../../scripts/lib/client";
import { registerConfirmedUser } from "../../support/accounts";
import { TEST_PUBLIC_URL } from "../../support/accounts-env";
import { readDatabase } from "../../support/http";
import { sentMails, waitForMail } from "../../../scripts/lib/resend-stand-in";
import { confirmedSubscription as confirmedSubscriptionBy } from "../../support/subscriptions";

/**
 * Following the site by e-mail, without JavaScript: the /odber form, the
 * double opt-in's mail and button, the settings page by the mails' signed
 * link, the RFC 8058 one-click POST, the throttles, one answer for every
 * address, and the end of an account's subscription with the account.
 */

const base = inject("baseUrl");
const databasePath = inject("databasePath");
const resendUrl = inject("resendUrl");

const db = <T>(work: (db: Database.Database) => T, write = false) => readDatabase(databasePath, work, write);
const SUBJECT = /^Potvrdenie odberu/;
const subscriber = (email: string) =>
  db((d) => d.prepare("SELECT * FROM subscribers WHERE email = ?").get(email)) as
    | { id: string; status: string; frequency: string; consent_source: string; consent_at: number; confirmed_at: number | null; confirm_token_hash: string | null; confirm_expires_at: number | null; created_at: number }
    | undefined;
const topics = (id: string) => ({
  tags: db((d) => d.prepare("SELECT tag FROM subscription_tags WHERE subscriber_id = ? ORDER BY tag").pluck().all(id)) as string[],
  centuries: db((d) => d.prepare("SELECT century FROM subscription_centuries WHERE subscriber_id = ? ORDER BY century").pluck().all(id)) as number[],
});
const suppressed = (email: string) =>
  db((d) => d.prepare("SELECT count(*) FROM subscription_suppressions WHERE email_hash = ?").pluck().get(createHash("sha256").update(`dejiny-suppression:${email}`).digest("hex"))) === 1;
const mailsTo = async (email: string) => (await sentMails(resendUrl)).filter((m) => [m.to].flat().includes(email) && SUBJECT.test(m.subject));
const pathOf = (link: string) => link.slice(TEST_PUBLIC_URL.length);

/** The settled mails to `email` (a mail is sent a moment after the answer): wait for `count`, then a little more to see that no more come. */
async function settled(email: string, count: number) {
  for (let i = 0; i < 100 && (await mailsTo(email)).length < count; i++) await new Promise((r) => setTimeout(r, 50));
  await new Promise((r) => setTimeout(r, 400));
  return mailsTo(email);
}

/** Follow a redirect as a browser would, with the client's cookies (the notice travels in one). */
async function follow(client: Client, response: Response) {
  expect(response.status).toBe(303);
  return client.get(response.headers.get("location")!);
}

/** Subscribe as the /odber form does without JavaScript. */
const subscribeForm = (client: Client, fields: Record<string, string | string[]>) => client.post("/odber", { zdroj: "odber", frequency: "instant", ...fields });

/** The confirmation link mailed to `email` (the newest), as a path. */
async function confirmationPath(email: string, after = 0) {
  const mail = await waitForMail(resendUrl, email, after, SUBJECT);
  return pathOf(mail.text.match(/\S+\/odber\/potvrdit\?token=\S+/)![0]);
}

/** Subscribe, follow the link's button: the settings page's path (with its signed token). */
async function confirmedSubscription(email: string, fields: Record<string, string | string[]> = {}) {
  const confirmed = await confirmedSubscriptionBy(base, resendUrl, email, fields);
  expect(confirmed.settings).toMatch(/^\/odber\/nastavenia\?token=[\w-]{22}\.[\w-]{43}$/);
  return confirmed;
}

describe("subscribing by e-mail", () => {
  it("offers the form without JavaScript, and the footer's short form on every page", async () => {
    const page = await new Client(base).get("/odber?od=stitok&stitok=Stredovek");
    expect(page.response.status).toBe(200);
    const form = page.doc.querySelector('main form[method="post"]')!;
    expect(form.querySelector('input[name="email"][type="email"]')).not.toBeNull();
    expect(form.querySelector('input[name="zdroj"]')?.getAttribute("value")).toBe("stitok");
    expect(form.querySelectorAll('input[name="tags"]')).toHaveLength(30);
    expect(form.querySelectorAll('input[name="frequency"][type="radio"]')).toHaveLength(2);
    const posts = await new Client(base).get("/posts");
    const footer = posts.doc.querySelector('footer form[action="/odber"][method="post"]');
    expect(footer?.querySelector('input[name="email"]')).not.toBeNull();
    expect(footer?.querySelector('input[name="zdroj"]')?.getAttribute("value")).toBe("paticka");
    // The list, a tag's list, an article and the timeline lead to the form, saying where from.
    expect(posts.doc.querySelector('main a[href="/odber?od=zoznam"]')).not.toBeNull();
    const tagged = await new Client(base).get(`/posts?tag=${encodeURIComponent("Stredovek")}`);
    expect(tagged.doc.querySelector(`main a[href="/odber?od=stitok&stitok=${encodeURIComponent("Stredovek")}"]`)).not.toBeNull();
    const article = posts.doc.querySelector('main a[href^="/posts/"]')!.getAttribute("href")!;
    expect((await new Client(base).get(article)).doc.querySelector('main a[href="/odber?od=clanok"]')).not.toBeNull();
    expect((await new Client(base).get("/timeline?century=15")).doc.querySelector('main a[href="/odber?od=casova-os&storocie=15"]')).not.toBeNull();
    // A tag's link comes with the tag ticked.
    const fromTag = await new Client(base).get(`/odber?od=stitok&stitok=${encodeURIComponent("Stredovek")}`);
    expect(fromTag.doc.querySelector('input[name="tags"][value="Stredovek"]')?.hasAttribute("checked")).toBe(true);
  });

  it("mails a fixed text with one link (valid a day, only its hash kept), records the consent, and sends nothing else until confirmed", async () => {
    const email = uniqueEmail("odber");
    const client = new Client(base);
    const { response } = await subscribeForm(client, { email: email.toUpperCase(), tags: ["Stredovek", "Starovek"], centuries: ["15", "-1"], frequency: "weekly", zdroj: "clanok" });
    const page = await follow(client, response);
    expect(page.doc.querySelector("main .notice")?.text).toBe(SUBSCRIPTION_NOTICES.subscribeSent);

    const [mail, ...more] = await settled(email, 1);
    expect(more).toHaveLength(0);
    expect(mail.subject).toBe("Potvrdenie odberu nových článkov – Dejiny");
    const link = mail.text.match(/\S+\/odber\/potvrdit\?token=\S+/)![0];
    expect(link.startsWith(`${TEST_PUBLIC_URL}/odber/potvrdit?token=`)).toBe(true);
    // Nothing the visitor chose or typed, besides the address it goes to.
    for (const part of [mail.subject, mail.text, mail.html]) for (const typed of ["Stredovek", "Starovek", "storočie", "odber-"]) expect(part).not.toContain(typed);

    const row = subscriber(email)!;
    expect(row).toMatchObject({ status: "pending", frequency: "weekly", consent_source: "clanok", confirmed_at: null });
    expect(row.confirm_expires_at! - row.consent_at).toBe(24 * 60 * 60 * 1000);
    expect(row.confirm_token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row.confirm_token_hash).not.toContain(new URL(link).searchParams.get("token")!);
    expect(topics(row.id)).toEqual({ tags: ["Starovek", "Stredovek"], centuries: [-1, 15] });
  });

  it("confirms by the page's button, never by opening the link; the link works once and leads to the settings", async () => {
    const email = uniqueEmail("odber");
    await subscribeForm(new Client(base), { email });
    const path = await confirmationPath(email);
    const scanned = await new Client(base).get(path);
    expect(scanned.response.status).toBe(200);
    expect(scanned.response.headers.get("cache-control")).toBe("no-store");
    expect(scanned.doc.querySelector('meta[name="referrer"]')?.getAttribute("content")).toBe("same-origin");
    expect(scanned.doc.querySelector("main button")?.text.trim()).toBe("Potvrdiť odber");
    expect(subscriber(email)?.status).toBe("pending");

    const client = new Client(base);
    const token = new URLSearchParams(path.split("?")[1]).get("token")!;
    const sent = await client.post(path, { token });
    const settings = await follow(client, sent.response);
    expect(settings.doc.querySelector("main .notice")?.text).toBe(SUBSCRIPTION_NOTICES.confirmed);
    expect(settings.doc.querySelector("main")?.text).toContain(email);
    const row = subscriber(email)!;
    expect(row.status).toBe("confirmed");
    expect(row.confirmed_at).toBeGreaterThan(0);
    expect(row.confirm_token_hash).toBeNull();

    const again = await new Client(base).post(path, { token });
    expect(again.response.status).toBe(400);
    expect(again.doc.querySelector(".form-error")?.text).toBe(SUBSCRIPTION_MESSAGES.linkInvalid);
    expect((await new Client(base).get(path)).doc.querySelector("main form")).toBeNull();
  });

  it("refuses an expired link and a made-up one", async () => {
    const email = uniqueEmail("odber");
    await subscribeForm(new Client(base), { email });
    const path = await confirmationPath(email);
    const token = new URLSearchParams(path.split("?")[1]).get("token")!;
    const madeUp = `${token.slice(0, -2)}${token.endsWith("AA") ? "BB" : "AA"}`;
    expect((await new Client(base).post(`/odber/potvrdit?token=${madeUp}`, { token: madeUp })).response.status).toBe(400);
    db((d) => d.prepare("UPDATE subscribers SET confirm_expires_at = ? WHERE email = ?").run(Date.now() - 1, email), true);
    expect((await new Client(base).post(path, { token })).response.status).toBe(400);
    expect(subscriber(email)?.status).not.toBe("confirmed");
  });

  it("answers every address alike: unknown, pending or confirmed (a confirmed one is left as it is and gets no mail)", async () => {
    const confirmed = uniqueEmail("odber");
    await confirmedSubscription(confirmed, { tags: "Stredovek" });
    const pending = uniqueEmail("odber");
    await subscribeForm(new Client(base), { email: pending });
    await settled(pending, 1);
    const answers = [];
    for (const email of [uniqueEmail("odber"), pending, confirmed]) {
      const client = new Client(base);
      const { response } = await subscribeForm(client, { email, tags: "Starovek" });
      const page = await follow(client, response);
      answers.push([response.status, response.headers.get("location"), page.doc.querySelector("main .notice")?.text]);
    }
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
    expect(await settled(confirmed, 1)).toHaveLength(1);
    expect(await settled(pending, 2)).toHaveLength(2);
    // A stranger cannot change a confirmed subscription's topics.
    expect(topics(subscriber(confirmed)!.id).tags).toEqual(["Stredovek"]);
  });

  it("mails one address at most 3 confirmation links a day, answering the same past it", async () => {
    const email = uniqueEmail("odber");
    const answers = new Set<string>();
    for (let i = 0; i < 5; i++) {
      const { response } = await subscribeForm(new Client(base), { email });
      answers.add(`${response.status} ${response.headers.get("location")}`);
    }
    expect([...answers]).toEqual(["303 /odber"]);
    expect(await settled(email, 3)).toHaveLength(3);
  });

  it("lets one client address start 10 subscriptions an hour, then answers 429 with Retry-After", async () => {
    const client = new Client(base);
    for (let i = 0; i < 10; i++) expect((await subscribeForm(client, { email: uniqueEmail("odber") })).response.status).toBe(303);
    const email = uniqueEmail("odber");
    const refused = await subscribeForm(client, { email });
    expect(refused.response.status).toBe(429);
    expect(Number(refused.response.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(refused.doc.querySelector(".form-error")?.text).toBe(SUBSCRIPTION_MESSAGES.tooMany);
    expect(refused.doc.querySelector('input[name="email"]')?.getAttribute("value")).toBe(email);
    expect(subscriber(email)).toBeUndefined();
    // Another client is not held back.
    expect((await subscribeForm(new Client(base), { email })).response.status).toBe(303);
  });

  it("refuses a bad address, an unknown tag or century and an unknown frequency, keeping what was typed", async () => {
    const cases: [Record<string, string | string[]>, string][] = [
      [{ email: "" }, SUBSCRIPTION_MESSAGES.emailMissing],
      [{ email: "nie-adresa" }, SUBSCRIPTION_MESSAGES.emailInvalid],
      [{ email: uniqueEmail("odber"), tags: "Neexistuje" }, SUBSCRIPTION_MESSAGES.badChoice],
      [{ email: uniqueEmail("odber"), centuries: "0" }, SUBSCRIPTION_MESSAGES.badChoice],
      [{ email: uniqueEmail("odber"), centuries: "99" }, SUBSCRIPTION_MESSAGES.badChoice],
      [{ email: uniqueEmail("odber"), frequency: "hourly" }, SUBSCRIPTION_MESSAGES.frequency],
    ];
    for (const [fields, message] of cases) {
      const { response, doc } = await subscribeForm(new Client(base), fields);
      expect(response.status).toBe(400);
      expect(doc.querySelector(".form-error")?.text).toBe(message);
      if (fields.email) expect(subscriber(String(fields.email))).toBeUndefined();
    }
  });

  it("subscribes a signed-in reader with a confirmed address in one step, with no mail", async () => {
    const { client, email } = await registerConfirmedUser(base, databasePath);
    const page = await client.get("/odber");
    expect(page.doc.querySelector('main input[name="email"]')).toBeNull();
    const { response } = await client.post("/odber", { zdroj: "casova-os", centuries: "20", frequency: "instant" });
    const settings = await follow(client, response);
    expect(settings.doc.querySelector("main .notice")?.text).toBe(SUBSCRIPTION_NOTICES.subscribed);
    const row = subscriber(email)!;
    expect(row).toMatchObject({ status: "confirmed", consent_source: "casova-os" });
    expect(topics(row.id).centuries).toEqual([20]);
    expect(await settled(email, 0)).toHaveLength(0);
  });
});

describe("a subscription's settings and its end", () => {
  it("changes tags, centuries and frequency by the signed link, with no sign-in; a forged link opens nothing", async () => {
    const email = uniqueEmail("odber");
    const { settings, token } = await confirmedSubscription(email, { tags: "Stredovek" });
    const client = new Client(base);
    const page = await client.get(settings);
    expect(page.response.headers.get("cache-control")).toBe("no-store");
    expect(page.doc.querySelector('input[name="tags"][value="Stredovek"]')?.getAttribute("checked")).not.toBeUndefined();
    const saved = await client.post(settings, { token, tags: ["Starovek", "Starovek"], centuries: "-2", frequency: "weekly" });
    const after = await follow(client, saved.response);
    expect(after.doc.querySelector("main .notice")?.text).toBe(SUBSCRIPTION_NOTICES.saved);
    const row = subscriber(email)!;
    expect(row.frequency).toBe("weekly");
    expect(topics(row.id)).toEqual({ tags: ["Starovek"], centuries: [-2] });
    // Nothing ticked: every new article.
    await client.post(settings, { token, frequency: "instant" });
    expect(topics(row.id)).toEqual({ tags: [], centuries: [] });

    const [id, signature] = token.split(".");
    const forged = `${id}.${signature.slice(0, -2)}${signature.endsWith("AA") ? "BB" : "AA"}`;
    expect((await new Client(base).get(`/odber/nastavenia?token=${forged}`)).response.status).toBe(404);
    expect((await new Client(base).post(`/odber/nastavenia?token=${forged}`, { token: forged, frequency: "weekly" })).response.status).toBe(404);
    expect(subscriber(email)!.frequency).toBe("instant");
  });

  it("ends a subscription by a raw RFC 8058 POST (no cookie, no Origin, no CSRF token), forgetting the address but for its digest", async () => {
    const email = uniqueEmail("odber");
    const { token } = await confirmedSubscription(email, { tags: "Stredovek" });
    const id = subscriber(email)!.id;
    // As a mail provider sends it: no browser headers at all.
    const oneClick = () =>
      fetch(`${base}/odber/odhlasit?token=${token}`, { method: "POST", body: "List-Unsubscribe=One-Click", headers: { "Content-Type": "application/x-www-form-urlencoded" }, redirect: "manual" });
    const response = await oneClick();
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("Odber je zrušený.");
    expect(subscriber(email)).toBeUndefined();
    expect(topics(id)).toEqual({ tags: [], centuries: [] });
    expect(suppressed(email)).toBe(true);
    const rows = db((d) => d.prepare("SELECT * FROM subscription_suppressions").all()) as Record<string, unknown>[];
    expect(JSON.stringify(rows)).not.toContain(email);
    // A provider may repeat it.
    expect((await oneClick()).status).toBe(200);
    // The settings link opens nothing now.
    expect((await new Client(base).get(`/odber/nastavenia?token=${token}`)).response.status).toBe(404);
  });

  it("takes the one-click POST as multipart/form-data too (RFC 8058 allows either)", async () => {
    const email = uniqueEmail("odber");
    const { token } = await confirmedSubscription(email);
    const body = new FormData();
    body.append("List-Unsubscribe", "One-Click");
    const response = await fetch(`${base}/odber/odhlasit?token=${token}`, { method: "POST", body, redirect: "manual" });
    expect(response.status).toBe(200);
    expect(subscriber(email)).toBeUndefined();
  });

  it("never ends a subscription on a GET (link scanners): the link leads to a page whose button ends it", async () => {
    const email = uniqueEmail("odber");
    const { token } = await confirmedSubscription(email);
    const client = new Client(base);
    const opened = await client.get(`/odber/odhlasit?token=${token}`);
    expect(opened.response.status).toBe(303);
    const page = await follow(client, opened.response);
    expect(page.response.headers.get("cache-control")).toBe("no-store");
    expect(page.doc.querySelector("main button")?.text.trim()).toBe("Zrušiť odber");
    expect(subscriber(email)?.status).toBe("confirmed");
    const ended = await client.post(`/odber/zrusit?token=${token}`, { token });
    const done = await follow(client, ended.response);
    expect(done.doc.querySelector("main .notice")?.text).toContain("Odber je zrušený");
    expect(subscriber(email)).toBeUndefined();
    expect(suppressed(email)).toBe(true);
  });

  it("refuses an unsigned unsubscribe link; a new confirmed subscription lifts the suppression and has new links", async () => {
    const bad = await fetch(`${base}/odber/odhlasit?token=nic.nic`, { method: "POST", body: "List-Unsubscribe=One-Click", headers: { "Content-Type": "application/x-www-form-urlencoded" } });
    expect(bad.status).toBe(400);
    const email = uniqueEmail("odber");
    const first = await confirmedSubscription(email);
    const { response } = await new Client(base).post(`/odber/nastavenia?token=${first.token}`, { token: first.token, intent: "unsubscribe" });
    expect(response.headers.get("location")).toBe("/odber/zrusit?hotovo");
    expect(suppressed(email)).toBe(true);
    const second = await confirmedSubscription(email);
    expect(suppressed(email)).toBe(false);
    expect(second.token).not.toBe(first.token);
    expect((await new Client(base).get(`/odber/nastavenia?token=${first.token}`)).response.status).toBe(404);
  });
});

describe("deleting an account", () => {
  it("ends the subscription of the account's confirmed address, as unsubscribing does, and says so first", async () => {
    const { client, email } = await registerConfirmedUser(base, databasePath);
    const { response } = await client.post("/odber", { zdroj: "odber", tags: "Stredovek", frequency: "weekly" });
    const settings = response.headers.get("location")!;
    expect(settings).toMatch(/^\/odber\/nastavenia\?token=/);
    expect(subscriber(email)?.status).toBe("confirmed");

    const page = await client.get("/account/delete");
    expect(page.doc.querySelector("main ul")?.text).toContain("váš odber nových článkov e-mailom.");
    const deleted = await client.post("/account/delete", { password: GOOD_PASSWORD });
    expect(deleted.response.status).toBe(303);
    expect(subscriber(email)).toBeUndefined();
    expect(suppressed(email)).toBe(true);
    const old = await new Client(base).get(settings);
    expect(old.response.status).toBe(404);
    expect(old.doc.querySelector(".form-error")?.text).toBe(SUBSCRIPTION_MESSAGES.manageInvalid);
  });

  it("leaves alone the subscription of an address the account never confirmed (it may be a stranger's)", async () => {
    const email = uniqueEmail("odber");
    const { settings } = await confirmedSubscription(email);
    const { client } = await registerUser(base, { email });
    expect((await client.get("/account/delete")).doc.querySelector("main ul")?.text).not.toContain("odber");
    expect((await client.post("/account/delete", { password: GOOD_PASSWORD })).response.status).toBe(303);
    expect(subscriber(email)?.status).toBe("confirmed");
    expect(suppressed(email)).toBe(false);
    expect((await new Client(base).get(settings)).response.status).toBe(200);
  });
});
