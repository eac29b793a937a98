import { describe, expect, it } from "vitest";
import { Client, uniqueEmail } from "../../../scripts/lib/client";
import { publish, saveEdit } from "../../../scripts/lib/publish";
import { sentMails, type SentMail } from "../../../scripts/lib/resend-stand-in";
import { grantAdmin, registerConfirmedUser } from "../../support/accounts";
import { TEST_PUBLIC_URL } from "../../support/accounts-env";
import { readDatabase } from "../../support/http";
import { serverWithMail, until } from "../../support/mail-server";
import { confirmedSubscription } from "../../support/subscriptions";

/**
 * What subscribers are mailed, on a server of its own (its Resend stand-in
 * is taken down and brought back): a new article to those who follow its
 * tags or century, once, in batches, with RFC 8058's headers; nothing after
 * a one-click unsubscribe; an article hidden while its mails wait is not
 * sent, nor announced again when shown; the weekly digest; the admins' page
 * and export.
 */

const site = serverWithMail("mailings", { LIST_UNSUBSCRIBE_MAILTO: "odhlasenie@dejiny.test" });

const query = <T>(sql: string, ...params: unknown[]) => readDatabase(site.server.databasePath, (db) => db.prepare(sql).all(...params)) as T[];
type MailingRow = { id: string; kind: string; recipients: number; sent: number; skipped: number; failed: number; queued_at: number | null };
const mailingOf = (postId: string) => query<MailingRow>("SELECT * FROM subscription_mailings WHERE post_id = ?", postId);
const NOT_A_CONFIRMATION = (m: SentMail) => !/^Potvrdenie/.test(m.subject);
const mailsTo = async (email: string) => (await sentMails(site.standIn.url)).filter((m) => [m.to].flat().includes(email) && NOT_A_CONFIRMATION(m));


/** Every mail of an article's mailing done with (sent, skipped or given up). */
const settled = (postId: string) =>
  until(`the mailing of ${postId}`, () => mailingOf(postId).find((m) => m.queued_at !== null && m.sent + m.skipped + m.failed === m.recipients), 20_000);

async function author() {
  return (await registerConfirmedUser(site.server.url, site.server.databasePath)).client;
}

async function admin() {
  const { client, email } = await registerConfirmedUser(site.server.url, site.server.databasePath);
  grantAdmin(site.server.databasePath, email);
  return client;
}

describe("mailing new articles", () => {
  it("mails a new article once to those who follow its tags or century, in a batch, with the RFC 8058 headers and the settings link", async () => {
    const [all, medieval, century15, ancient, weekly] = ["vsetko", "stredovek", "storocie", "starovek", "tyzdenne"].map((p) => uniqueEmail(`odber-${p}`));
    const everything = await confirmedSubscription(site.server.url, site.standIn.url, all);
    await confirmedSubscription(site.server.url, site.standIn.url, medieval, { tags: "Stredovek" });
    await confirmedSubscription(site.server.url, site.standIn.url, century15, { centuries: "15" });
    await confirmedSubscription(site.server.url, site.standIn.url, ancient, { tags: "Starovek" });
    await confirmedSubscription(site.server.url, site.standIn.url, weekly, { frequency: "weekly" });

    const writer = await author();
    const title = `Bitka pri Belehrade <${Date.now()}>`;
    const postId = (await publish(writer, title, ["Stredovek"], "Ján Hunyadi bránil pevnosť v roku 1456.", { period: "1456" }))!;
    expect(postId).toBeTruthy();
    expect(await settled(postId)).toMatchObject({ kind: "article", recipients: 3, sent: 3, skipped: 0, failed: 0 });

    const [mail, ...more] = await until("the article's mail", async () => (await mailsTo(all)).length > 0 && mailsTo(all));
    expect(more).toHaveLength(0);
    expect(mail.batch).toBe(true);
    expect(mail.subject).toBe(`Nový článok: ${title}`);
    const link = `${TEST_PUBLIC_URL}/posts/${postId}`;
    for (const part of [title, "1456", "Ján Hunyadi bránil pevnosť", link, `${TEST_PUBLIC_URL}${everything.settings}`]) expect(mail.text).toContain(part);
    // The HTML part: the same words, the title escaped, the image linked to the article.
    expect(mail.html).toContain("Bitka pri Belehrade &lt;");
    expect(mail.html).not.toContain("<" + String(Date.now()).slice(0, 4));
    expect(mail.html).toMatch(new RegExp(`<a href="${link}"><img src="${TEST_PUBLIC_URL}/images/[^"]+-800\\.jpg"`));
    const oneClick = `${TEST_PUBLIC_URL}/odber/odhlasit?token=${everything.token}`;
    expect(mail.headers).toEqual({ "List-Unsubscribe": `<${oneClick}>, <mailto:odhlasenie@dejiny.test?subject=unsubscribe>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" });

    expect(await mailsTo(medieval)).toHaveLength(1);
    expect(await mailsTo(century15)).toHaveLength(1);
    // Neither its tag nor its century; a weekly subscriber waits for the digest.
    expect(await mailsTo(ancient)).toHaveLength(0);
    expect(await mailsTo(weekly)).toHaveLength(0);

    // An edit is not news.
    expect((await saveEdit(writer, postId, { title: `${title} (opravené)`, content: "Ján Hunyadi bránil pevnosť v roku 1456. Doplnené.", sources: "", summary: "Oprava" })).response.status).toBe(303);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(mailingOf(postId)).toHaveLength(1);
    expect(await mailsTo(all)).toHaveLength(1);

    // RFC 8058: the provider POSTs the header's address with this body, no cookie, no Origin; nothing is mailed after it.
    const unsubscribed = await fetch(oneClick.replace(TEST_PUBLIC_URL, site.server.url), { method: "POST", body: "List-Unsubscribe=One-Click", headers: { "Content-Type": "application/x-www-form-urlencoded" }, redirect: "manual" });
    expect(unsubscribed.status).toBe(200);
    expect(query("SELECT id FROM subscribers WHERE email = ?", all)).toHaveLength(0);
    const next = (await publish(writer, `Ďalší článok ${Date.now()}`, ["Stredovek"]))!;
    expect(await settled(next)).toMatchObject({ recipients: 1, sent: 1 });
    expect(await mailsTo(all)).toHaveLength(1);
    expect(await mailsTo(medieval)).toHaveLength(2);
  });

  it("does not send an article hidden while its mails wait, nor announce it again when it is shown, and a lost answer is no second mail, even to a reader who unsubscribed before the retry", async () => {
    const reader = uniqueEmail("odber-skryte");
    await confirmedSubscription(site.server.url, site.standIn.url, reader, { tags: "Kolonizácia" });
    const writer = await author();
    const editor = await admin();

    await site.standIn.setMode("down");
    const hiddenId = (await publish(writer, `Skrytý pred odoslaním ${Date.now()}`, ["Kolonizácia"]))!;
    await until("a failed attempt", () => query<{ attempts: number }>("SELECT attempts FROM mail_outbox WHERE mailing_id = ?", mailingOf(hiddenId)[0]?.id)[0]?.attempts === 1);
    expect((await editor.post(`/posts/${hiddenId}`, { intent: "hide", reason: "Overujeme zdroje." })).response.status).toBe(303);
    await site.standIn.setMode("ok");
    // A start tries every waiting mail at once: this one is skipped, as its article is no longer public.
    await site.restart();
    expect(await settled(hiddenId)).toMatchObject({ recipients: 1, sent: 0, skipped: 1 });
    expect((await mailsTo(reader)).filter((m) => m.subject.includes("Skrytý"))).toHaveLength(0);

    // Shown again: not new. (The restarted server has a new port: new clients.)
    expect((await (await admin()).post(`/posts/${hiddenId}`, { intent: "restoreHidden", reason: "Zdroje sú doplnené." })).response.status).toBe(303);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(mailingOf(hiddenId)).toHaveLength(1);
    expect(await mailsTo(reader)).toHaveLength(0);

    // The stand-in takes the batch but its answer is lost. The reader unsubscribes before the retry (at the next start):
    // the mail may have gone, so the retry is the same request under the same key, and the reader has one mail.
    await site.standIn.setMode("loseAnswers");
    const lostId = (await publish(await author(), `Stratená odpoveď ${Date.now()}`, ["Kolonizácia"]))!;
    const failed = await until("a failed attempt", () => query<{ last_error: string | null; batch_id: string }>("SELECT last_error, batch_id FROM mail_outbox WHERE mailing_id = ?", mailingOf(lostId)[0]?.id).find((m) => m.last_error));
    const [taken] = await mailsTo(reader);
    expect(taken.subject).toMatch(/^Nový článok: Stratená odpoveď/);
    await site.standIn.setMode("ok");
    const oneClick = /<(https?:[^>]+)>/.exec(taken.headers!["List-Unsubscribe"])![1].replace(TEST_PUBLIC_URL, site.server.url);
    expect((await fetch(oneClick, { method: "POST", body: "List-Unsubscribe=One-Click", headers: { "Content-Type": "application/x-www-form-urlencoded" } })).status).toBe(200);
    const requests = await site.standIn.requests();
    await site.restart();
    expect(await settled(lostId)).toMatchObject({ recipients: 1, sent: 1 });
    expect(await site.standIn.requests()).toBe(requests + 1);
    expect(await mailsTo(reader)).toEqual([taken]);
    expect(taken.idempotencyKey).toBe(failed.batch_id);
  });

  it("sends the weekly digest of the articles each subscriber follows, and the admins see counts and the export", async () => {
    const reader = uniqueEmail("odber-prehlad");
    await confirmedSubscription(site.server.url, site.standIn.url, reader, { tags: "Stredovek", frequency: "weekly" });
    const editor = await admin();
    // What was announced before is not in the next digest.
    expect((await editor.post("/admin/odber", { intent: "digest" })).response.status).toBe(303);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const before = (await mailsTo(reader)).length;

    const writer = await author();
    const stamp = Date.now();
    const first = (await publish(writer, `Prvý v prehľade ${stamp}`, ["Stredovek"]))!;
    const second = (await publish(writer, `Druhý v prehľade ${stamp}`, ["Stredovek", "Osobnosti"]))!;
    const other = (await publish(writer, `Mimo prehľadu ${stamp}`, ["Starovek"]))!;
    for (const id of [first, second, other]) await settled(id);
    expect(await mailsTo(reader)).toHaveLength(before);

    const pressed = await editor.post("/admin/odber", { intent: "digest" });
    expect(pressed.response.status).toBe(303);
    const [digest] = await until("the digest", async () => (await mailsTo(reader)).length > before && (await mailsTo(reader)).slice(before));
    expect(digest.subject).toBe("Dejiny: týždenný prehľad, 2 nové články");
    expect(digest.text).toContain("Na stránke Dejiny pribudli 2 nové články z tém, ktoré sledujete:");
    expect(digest.text).toContain(`Prvý v prehľade ${stamp}`);
    expect(digest.text).toContain(`Druhý v prehľade ${stamp}`);
    expect(digest.text).not.toContain(`Mimo prehľadu ${stamp}`);
    expect(digest.headers?.["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");

    // /admin says how many subscribe and leads to their page: counts per tag and the mailings; the export lists the address with its topics.
    const mail = (await editor.get("/admin")).doc.querySelector('section[aria-labelledby="posta"]')!;
    expect(mail.text).toMatch(/Potvrdených odberov nových článkov: [1-9]\d*\./);
    expect(mail.querySelector('a[href="/admin/odber"]')).not.toBeNull();
    const page = await editor.get("/admin/odber");
    expect(page.response.status).toBe(200);
    expect(page.doc.querySelector(".subscription-counts")?.text).toContain("Stredovek:");
    expect(page.doc.querySelector("table")?.text).toContain(`Prvý v prehľade ${stamp}`);
    const csv = await editor.request("/admin/odber.csv");
    expect(csv.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    const line = (await csv.text()).split("\r\n").find((row) => row.startsWith(`"${reader}"`));
    expect(line).toMatch(/^"[^"]+","weekly","Stredovek","","odber","\d{4}-\d\d-\d\dT[^"]+","\d{4}-\d\d-\d\dT[^"]+"$/);
    // Nobody else sees them.
    for (const client of [new Client(site.server.url), writer]) {
      expect((await client.get("/admin/odber")).response.status).not.toBe(200);
      expect((await client.request("/admin/odber.csv")).status).not.toBe(200);
    }
  });
});
