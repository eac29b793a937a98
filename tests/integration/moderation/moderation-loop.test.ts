import type Database from "better-sqlite3";
import { describe, expect, inject, it } from "vitest";
import { ADMIN_NOTICES, DECISIONS_NOTICES } from "~/lib/notices";
import { Client, GOOD_PASSWORD } from "../../../scripts/lib/client";
import { publish } from "../../../scripts/lib/publish";
import { registerConfirmedUser } from "../../support/accounts";
import { pageStatus, readDatabase } from "../../support/http";
import { SUBJECTS } from "../../support/outbox";
import { sentMails, waitForMail } from "../../../scripts/lib/resend-stand-in";

/**
 * The moderation loop over HTTP (issue 23): a report's life from open to
 * decided, who is told what (pages and mails, read from the outbox), the
 * author's statement of reasons and appeal, and every refusal on the way.
 */

const base = inject("baseUrl");
const databasePath = inject("databasePath");
const resendUrl = inject("resendUrl");

/** The text of the `nth` mail (1, 2, …) sent to `email` after its confirmation link, once it has come. */
const mail = async (email: string, nth: number) => (await waitForMail(resendUrl, email, nth - 1, SUBJECTS.notConfirmation)).text;
/** The mails sent to `email` but its confirmation link. */
const mailsTo = async (email: string) => (await sentMails(resendUrl)).filter((m) => [m.to].flat().includes(email) && SUBJECTS.notConfirmation.test(m.subject));

/** Every account here has confirmed its address: the site mails moderation's news to confirmed addresses only (tests/integration/accounts/email-confirmation.test.ts). */
const registerUser = (b: string) => registerConfirmedUser(b, databasePath);

const db = <T>(work: (db: Database.Database) => T, write = false) => readDatabase(databasePath, work, write);
const one = <T>(sql: string, ...params: unknown[]) => db((d) => d.prepare(sql).get(...params) as T);
const reportsOf = (postId: string) => db((d) => d.prepare("SELECT * FROM reports WHERE post_id = ? ORDER BY id").all(postId) as ReportRow[]);
type ReportRow = { id: number; state: string; decision_id: number | null; post_id: string | null; post_title: string };
const hiddenAt = (postId: string) => one<{ hidden_at: number | null } | undefined>("SELECT hidden_at FROM posts WHERE id = ?", postId)?.hidden_at;

async function reader() {
  return registerUser(base);
}

async function admin() {
  const account = await registerUser(base);
  db((d) => d.prepare("UPDATE users SET is_admin = 1 WHERE email = ?").run(account.email), true);
  return account;
}

async function signIn(email: string, password = GOOD_PASSWORD) {
  const client = new Client(base);
  const answer = await client.post("/signinsignup", { intent: "signin", email, password });
  return { client, answer };
}

/** An article by a new author, reported by a new reader. */
async function reportedArticle(title: string, reason = "misinformation") {
  const author = await registerUser(base);
  const postId = (await publish(author.client, title))!;
  const reporter = await reader();
  expect((await reporter.client.post(`/posts/${postId}/report`, { reason, note: "Rok nesedí." })).response.status).toBe(200);
  return { author, postId, reporter };
}

const decide = (client: Client, fields: Record<string, string | string[]>) => client.post("/admin", { intent: "decide", ...fields });
const errorOf = (answer: { doc: { querySelector(s: string): { text: string } | null } }) => answer.doc.querySelector(".form-error")?.text;

describe("a report's life", () => {
  it("is confirmed at once, refused twice, dismissed with a reason the reporter reads on Moje hlásenia and by mail", async () => {
    const { postId, reporter } = await reportedArticle("Bitka, ktorá sa nestala");
    const confirmation = await mail(reporter.email, 1);
    expect(confirmation).toContain("Bitka, ktorá sa nestala");
    expect(confirmation).toContain("prijali sme vaše hlásenie");
    const twice = await reporter.client.post(`/posts/${postId}/report`, { reason: "spam" });
    expect(errorOf(twice)).toBe("Tento článok ste už nahlásili. Redakcia sa vaším hlásením zaoberá.");

    const mine = await reporter.client.get("/account/reports");
    expect(mine.doc.querySelector(".report-list li")?.text).toContain("Otvorené");

    const { client: moderator } = await admin();
    const queue = await moderator.get("/admin");
    const entry = queue.doc.querySelectorAll(".report-list > li").find((li) => li.text.includes("Bitka, ktorá sa nestala"))!;
    expect(entry.querySelector('input[name="post"]')?.getAttribute("value")).toBe(postId);
    expect(entry.text).toContain("Rok nesedí.");

    // Every refusal keeps what was typed and changes nothing.
    const refusals: [Record<string, string | string[]>, string][] = [
      [{ decision: "dismiss", reason: "Je to v poriadku." }, "Vyberte aspoň jeden nahlásený článok."],
      [{ post: postId, reason: "Je to v poriadku." }, "Vyberte rozhodnutie."],
      [{ post: postId, decision: "dismiss", reason: "  " }, "Napíšte odôvodnenie: prečítajú si ho nahlasovatelia aj autor."],
      [{ post: postId, decision: "dismiss", reason: "x".repeat(501) }, "Odôvodnenie môže mať najviac 500 znakov."],
      [{ post: postId, decision: "dismiss", reason: "Je to\u202e v poriadku" }, "Odôvodnenie nesmie obsahovať riadiace ani neviditeľné znaky."],
      [{ post: postId, decision: "ban", reason: "Je to v poriadku." }, "Vyberte rozhodnutie."],
      [{ post: Array.from({ length: 51 }, (_, i) => `${postId}${i}`), decision: "dismiss", reason: "Veľa." }, "Naraz môžete rozhodnúť najviac o 50 článkoch."],
    ];
    for (const [fields, message] of refusals) {
      const refused = await decide(moderator, fields);
      expect(refused.response.status, message).toBe(400);
      expect(errorOf(refused)).toBe(message);
      if (typeof fields.reason === "string" && fields.reason.trim() && fields.reason.length < 100) expect(refused.doc.querySelector("#decision-reason")?.text).toBe(fields.reason);
    }
    expect(reportsOf(postId).map((r) => r.state)).toEqual(["open"]);

    // A reader is no admin: the admin pages are not there for them.
    expect((await decide(reporter.client, { post: postId, decision: "dismiss", reason: "Nie." })).response.status).toBe(404);
    expect(reportsOf(postId).map((r) => r.state)).toEqual(["open"]);

    const done = await decide(moderator, { post: postId, decision: "dismiss", reason: "Dátum v článku je správny (1526)." });
    expect(done.response.status).toBe(303);
    expect(done.response.headers.get("location")).toBe("/admin");
    expect(pageStatus((await moderator.get("/admin")).doc)).toBe(ADMIN_NOTICES.decided);
    const [report] = reportsOf(postId);
    expect(report).toMatchObject({ state: "dismissed" });
    expect(one("SELECT action, reason, ground FROM moderation_decisions WHERE id = ?", report.decision_id)).toEqual({
      action: "dismiss",
      reason: "Dátum v článku je správny (1526).",
      ground: "reports",
    });
    // Decided once: the same form again is told so.
    const again = await decide(moderator, { post: postId, decision: "hide", reason: "Predsa skryť." });
    expect(again.response.status).toBe(409);
    expect(errorOf(again)).toBe("O týchto hláseniach už bolo rozhodnuté.");
    expect(hiddenAt(postId)).toBeNull();

    const told = await mail(reporter.email, 2);
    expect(told).toContain("Hlásenie zamietnuté");
    expect(told).toContain("Dátum v článku je správny (1526).");
    const page = (await reporter.client.get("/account/reports")).doc.querySelector(".report-list li")!.text;
    expect(page).toContain("Zamietnuté");
    expect(page).toContain("Dátum v článku je správny (1526).");
  });

  it("resolves every report of an article together, and several articles at once; each reporter and author is told once", async () => {
    const first = await reportedArticle("Prvý sporný článok");
    const second = await reportedArticle("Druhý sporný článok", "spam");
    const another = await reader();
    expect((await another.client.post(`/posts/${first.postId}/report`, { reason: "offensive" })).response.status).toBe(200);
    const { client: moderator } = await admin();
    const done = await decide(moderator, { post: [first.postId, second.postId], decision: "hide", reason: "Nepravdivé tvrdenia bez zdroja." });
    expect(done.response.status).toBe(303);
    for (const { postId } of [first, second]) {
      expect(hiddenAt(postId)).not.toBeNull();
      expect(reportsOf(postId).every((r) => r.state === "upheld")).toBe(true);
    }
    expect(new Set(reportsOf(first.postId).map((r) => r.decision_id)).size).toBe(1);
    for (const person of [first.reporter, another, second.reporter]) expect(await mail(person.email, 2)).toContain("Článok skrytý");
    const statement = await mail(first.author.email, 1);
    expect(statement).toContain("Prvý sporný článok");
    expect(statement).toContain("Nepravdivé tvrdenia bez zdroja.");
    expect(statement).toContain("hlásenia čitateľov (Nepravdivé alebo zavádzajúce informácie, Urážlivý alebo nenávistný obsah)");
    // Reporters stay anonymous to the author; no mail carries another person's address.
    expect(statement).not.toContain(first.reporter.email);
    expect(statement).not.toContain(another.email);
    // A hidden article takes no more reports.
    expect((await (await reader()).client.post(`/posts/${first.postId}/report`, { reason: "spam" })).response.status).toBe(404);
  });

  it("tells a reporter of every decision of one bulk form, past the outbox's five waiting mails per address", async () => {
    const reporter = await reader();
    const author = await registerUser(base);
    const posts: string[] = [];
    for (let i = 0; i < 7; i++) {
      const postId = (await publish(author.client, `Hromadne rozhodnutý článok ${i}`))!;
      expect((await reporter.client.post(`/posts/${postId}/report`, { reason: "spam" })).response.status).toBe(200);
      posts.push(postId);
    }
    await waitForMail(resendUrl, reporter.email, 6, SUBJECTS.notConfirmation);
    expect((await decide((await admin()).client, { post: posts, decision: "dismiss", reason: "Nie je to spam." })).response.status).toBe(303);
    // Seven confirmations, then seven decisions, all queued in one transaction.
    await waitForMail(resendUrl, reporter.email, 13, SUBJECTS.notConfirmation);
    const decided = (await mailsTo(reporter.email)).filter((m) => m.subject.startsWith("Rozhodnutie o vašom hlásení"));
    expect(decided).toHaveLength(7);
  });

  it("closes the open reports of an article its author deletes; a deleted article's reports keep its title", async () => {
    const { author, postId, reporter } = await reportedArticle("Článok, ktorý autor zmaže");
    expect((await author.client.post(`/posts/${postId}`, { intent: "delete", confirm: "yes" })).response.status).toBe(303);
    const row = one<ReportRow>("SELECT * FROM reports WHERE post_title = ?", "Článok, ktorý autor zmaže");
    expect(row).toMatchObject({ state: "closed", post_id: null });
    const page = (await reporter.client.get("/account/reports")).doc.querySelector(".report-list li")!;
    expect(page.text).toContain("Uzavreté");
    expect(page.querySelector("a")).toBeNull();

    const deleted = await reportedArticle("Článok, ktorý zmaže redakcia");
    const { client: moderator } = await admin();
    expect((await decide(moderator, { post: deleted.postId, decision: "delete", reason: "Kopírovaný text." })).response.status).toBe(303);
    expect(one("SELECT count(*) AS n FROM posts WHERE id = ?", deleted.postId)).toEqual({ n: 0 });
    expect(one("SELECT state, post_id FROM reports WHERE post_title = ?", "Článok, ktorý zmaže redakcia")).toEqual({ state: "upheld", post_id: null });
    const statements = await deleted.author.client.get("/account/decisions");
    expect(statements.doc.querySelector(".statement")?.text).toContain("Článok odstránený");
  });

  it("makes an admin's delete of someone else's article from its page a decision: a reason required, the reports upheld, reporters and author told, the public log", async () => {
    const { author, postId, reporter } = await reportedArticle("Článok, ktorý zmaže administrátor");
    const { client: moderator } = await admin();
    // The confirmation step asks for the reason; without one (or with a bad one) nothing is deleted.
    const asked = await moderator.post(`/posts/${postId}`, { intent: "delete" });
    expect(asked.response.status).toBe(200);
    expect(asked.doc.querySelector("form.confirm-delete textarea[name=reason]")).not.toBeNull();
    for (const [reason, message] of [
      ["", "Napíšte odôvodnenie: prečítajú si ho nahlasovatelia aj autor."],
      ["x".repeat(501), "Odôvodnenie môže mať najviac 500 znakov."],
      ["Kopírované\u202e", "Odôvodnenie nesmie obsahovať riadiace ani neviditeľné znaky."],
    ]) {
      const refused = await moderator.post(`/posts/${postId}`, { intent: "delete", confirm: "yes", reason });
      expect(refused.response.status, message).toBe(400);
      expect(refused.doc.querySelector("#delete-reason-error")?.text).toBe(message);
      expect(refused.doc.querySelector("#delete-reason")?.getAttribute("aria-invalid")).toBe("true");
    }
    expect(one("SELECT count(*) AS n FROM posts WHERE id = ?", postId)).toEqual({ n: 1 });
    expect(reportsOf(postId).map((r) => r.state)).toEqual(["open"]);

    expect((await moderator.post(`/posts/${postId}`, { intent: "delete", confirm: "yes", reason: "Celý text je kopírovaný z knihy." })).response.status).toBe(303);
    expect(one("SELECT count(*) AS n FROM posts WHERE id = ?", postId)).toEqual({ n: 0 });
    const decision = one<{ id: number; action: string; ground: string; reason: string }>(
      "SELECT id, action, ground, reason FROM moderation_decisions WHERE post_title = ? ORDER BY id DESC LIMIT 1",
      "Článok, ktorý zmaže administrátor",
    );
    expect(decision).toMatchObject({ action: "delete", ground: "reports", reason: "Celý text je kopírovaný z knihy." });
    expect(one("SELECT state, decision_id FROM reports WHERE post_title = ?", "Článok, ktorý zmaže administrátor")).toEqual({ state: "upheld", decision_id: decision.id });
    const told = await mail(reporter.email, 2);
    expect(told).toContain("Článok odstránený");
    expect(told).toContain("Celý text je kopírovaný z knihy.");
    const statement = await mail(author.email, 1);
    expect(statement).toContain("„Článok, ktorý zmaže administrátor“");
    expect(statement).toContain("Celý text je kopírovaný z knihy.");
    expect(statement).not.toContain(reporter.email);
    expect((await author.client.get("/account/decisions")).doc.querySelector(`#rozhodnutie-${decision.id} textarea[name=text]`)).not.toBeNull();
    const row = (await new Client(base).get("/moderation")).doc.querySelector(`#rozhodnutie-${decision.id}`);
    if (row) expect(row.text).toContain("odstránený článok");

    // Without reports, on the moderators' own initiative.
    const quiet = await registerUser(base);
    const quietId = (await publish(quiet.client, "Nenahlásený článok na zmazanie"))!;
    expect((await moderator.post(`/posts/${quietId}`, { intent: "delete", confirm: "yes", reason: "Reklama." })).response.status).toBe(303);
    expect(one("SELECT action, ground FROM moderation_decisions WHERE post_id = ?", quietId)).toEqual({ action: "delete", ground: "initiative" });
    expect(await mail(quiet.email, 1)).toContain("vlastný podnet redakcie");
  });

  it("tells the author what to fix when a report is upheld with a request to fix; the article stays", async () => {
    const { author, postId, reporter } = await reportedArticle("Článok na opravu");
    const { client: moderator } = await admin();
    expect((await decide(moderator, { post: postId, decision: "requestFix", reason: "Doplňte prameň k roku 1526." })).response.status).toBe(303);
    expect(reportsOf(postId).map((r) => r.state)).toEqual(["upheld"]);
    expect(hiddenAt(postId)).toBeNull();
    const told = await waitForMail(resendUrl, author.email, 0, SUBJECTS.notConfirmation);
    expect(told.subject).toBe("Výzva na opravu vášho článku – Dejiny");
    expect(told.text).toContain("„Článok na opravu“");
    expect(told.text).toContain("Doplňte prameň k roku 1526.");
    expect(told.text).toContain("hlásenia čitateľov (Nepravdivé alebo zavádzajúce informácie)");
    expect(told.text).toContain(`/posts/${postId}?edit`);
    expect(told.text).not.toContain(reporter.email);
    expect((await new Client(base).get(`/posts/${postId}`)).response.status).toBe(200);
  });

  it("holds a reader to the daily limit of reports, whatever the hourly one allows", async () => {
    const author = await registerUser(base);
    const [first, second] = [(await publish(author.client, "Denný limit 1"))!, (await publish(author.client, "Denný limit 2"))!];
    const reporter = await reader();
    expect((await reporter.client.post(`/posts/${first}/report`, { reason: "spam" })).response.status).toBe(200);
    const id = one<{ id: string }>("SELECT id FROM users WHERE email = ?", reporter.email).id;
    // 30 reports today, none in the last hour.
    db((d) => {
      d.prepare("UPDATE rate_limits SET count = 30 WHERE key = ?").run(`reportsPerAccountPerDay:${id}`);
      d.prepare("UPDATE rate_limits SET count = 0 WHERE key = ?").run(`reportsPerAccountPerHour:${id}`);
    }, true);
    const refused = await reporter.client.post(`/posts/${second}/report`, { reason: "spam" });
    expect(refused.response.status).toBe(429);
    expect(refused.response.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(errorOf(refused)).toBe("Dosiahli ste limit hlásení. Skúste to, prosím, neskôr.");
    expect(reportsOf(second)).toEqual([]);
  });

  it("leaves the reports of an admin's own article to another admin, and keeps its reporters anonymous to its author", async () => {
    const author = await admin();
    const postId = (await publish(author.client, "Článok administrátorky"))!;
    const reporter = await reader();
    expect((await reporter.client.post(`/posts/${postId}/report`, { reason: "misinformation", note: "" })).response.status).toBe(200);
    const reporterName = one<{ display_name: string }>("SELECT display_name FROM users WHERE email = ?", reporter.email).display_name;

    const own = (await author.client.get("/admin")).doc.querySelectorAll(".report-list > li").find((li) => li.text.includes("Článok administrátorky"))!;
    expect(own.text).toContain("o jeho hláseniach rozhodne iný administrátor");
    expect(own.text).not.toContain(reporterName);
    expect(own.querySelector("input[name=post]")).toBeNull();
    const refused = await decide(author.client, { post: postId, decision: "dismiss", reason: "Je to v poriadku." });
    expect(refused.response.status).toBe(403);
    expect(errorOf(refused)).toBe("O hláseniach vášho vlastného článku rozhodne iný administrátor.");
    expect(reportsOf(postId).map((r) => r.state)).toEqual(["open"]);

    // Another admin sees who reported it, and decides.
    const { client: other } = await admin();
    const theirs = (await other.get("/admin")).doc.querySelectorAll(".report-list > li").find((li) => li.text.includes("Článok administrátorky"))!;
    expect(theirs.text).toContain(reporterName);
    expect((await decide(other, { post: postId, decision: "dismiss", reason: "Je to v poriadku." })).response.status).toBe(303);
  });

  it("counts a reporter's reports dismissed as abusive on the admin's view of the account", async () => {
    const { postId, reporter } = await reportedArticle("Dobrý článok", "spam");
    const { client: moderator } = await admin();
    expect((await decide(moderator, { post: postId, decision: "dismissAbusive", reason: "Hlásenie bez dôvodu." })).response.status).toBe(303);
    const id = one<{ id: string }>("SELECT id FROM users WHERE email = ?", reporter.email).id;
    expect((await moderator.get(`/admin/users/${id}`)).doc.querySelector(".facts")?.text).toContain("z toho zamietnuté ako zneužité: 1");
  });
});

describe("statements of reasons and appeals", () => {
  it("lets the author contest a hiding once; another admin grants it and the article comes back", async () => {
    const { author, postId, reporter } = await reportedArticle("Článok na námietku");
    const deciding = await admin();
    expect((await decide(deciding.client, { post: postId, decision: "hide", reason: "Chýbajú zdroje." })).response.status).toBe(303);
    const decisionId = reportsOf(postId)[0].decision_id!;

    const page = await author.client.get("/account/decisions");
    const statement = page.doc.querySelector(`#rozhodnutie-${decisionId}`)!;
    expect(statement.text).toContain("Chýbajú zdroje.");
    expect(statement.querySelector("textarea[name=text]")).not.toBeNull();

    for (const [text, message] of [
      ["", "Napíšte, prečo s rozhodnutím nesúhlasíte."],
      ["x".repeat(2001), "Námietka môže mať najviac 2000 znakov."],
      ["Zdroje\u0007 sú", "Námietka nesmie obsahovať riadiace ani neviditeľné znaky."],
    ]) {
      const refused = await author.client.post("/account/decisions", { intent: "appeal", decision: String(decisionId), text });
      expect(refused.response.status).toBe(400);
      expect(refused.doc.querySelector(`#rozhodnutie-${decisionId} .form-error`)?.text).toBe(message);
    }
    // Someone else's decision.
    const stranger = await reader();
    const foreign = await stranger.client.post("/account/decisions", { intent: "appeal", decision: String(decisionId), text: "Nesúhlasím." });
    expect(foreign.response.status).toBe(403);
    expect(errorOf(foreign)).toBe("Toto rozhodnutie sa netýka vás: nemôžete ho napadnúť.");

    const filed = await author.client.post("/account/decisions", { intent: "appeal", decision: String(decisionId), text: "Zdroje sú v texte, odsek 2." });
    expect(filed.response.status).toBe(303);
    expect(filed.response.headers.get("location")).toBe(`/account/decisions#rozhodnutie-${decisionId}`);
    // Said on the page the answer leads to, once.
    expect(pageStatus((await author.client.get("/account/decisions")).doc)).toBe(DECISIONS_NOTICES.appealed);
    expect(pageStatus((await author.client.get("/account/decisions")).doc)).toBeUndefined();
    const twice = await author.client.post("/account/decisions", { intent: "appeal", decision: String(decisionId), text: "Ešte raz." });
    expect(twice.response.status).toBe(403);
    expect(twice.doc.querySelector(`#rozhodnutie-${decisionId} .form-error`)?.text).toBe("Proti tomuto rozhodnutiu ste už podali námietku.");
    expect(twice.doc.querySelectorAll(".form-error")).toHaveLength(1);
    expect(await mail(author.email, 2)).toContain("prijali sme vašu námietku");

    const appealId = one<{ id: number }>("SELECT id FROM appeals WHERE decision_id = ?", decisionId).id;
    const queue = await deciding.client.get("/admin");
    expect(queue.doc.querySelector("#namietky")?.text).toMatch(/Námietky autorov \(\d+\)/);
    expect(queue.html).toContain("Zdroje sú v texte, odsek 2.");
    // The admin who decided does not judge their own decision while another admin can.
    const own = await deciding.client.post("/admin", { intent: "decideAppeal", appeal: String(appealId), outcome: "granted", reason: "Áno." });
    expect(own.response.status).toBe(403);
    expect(errorOf(own)).toBe("O námietke proti vlastnému rozhodnutiu musí rozhodnúť iný administrátor.");

    const other = await admin();
    const noReason = await other.client.post("/admin", { intent: "decideAppeal", appeal: String(appealId), outcome: "granted", reason: "" });
    expect(noReason.response.status).toBe(400);
    // Said at the appeal's own form, its field marked.
    expect(noReason.doc.querySelector(`#appeal-error-${appealId}`)?.text).toBe("Napíšte odôvodnenie: prečítajú si ho nahlasovatelia aj autor.");
    expect(noReason.doc.querySelector(`#appeal-reason-${appealId}`)?.getAttribute("aria-invalid")).toBe("true");
    expect(hiddenAt(postId)).not.toBeNull();
    const granted = await other.client.post("/admin", { intent: "decideAppeal", appeal: String(appealId), outcome: "granted", reason: "Zdroje tam naozaj sú." });
    expect(granted.response.status).toBe(303);
    expect(hiddenAt(postId)).toBeNull();
    expect((await new Client(base).get(`/posts/${postId}`)).response.status).toBe(200);
    const again = await other.client.post("/admin", { intent: "decideAppeal", appeal: String(appealId), outcome: "rejected", reason: "Nie." });
    expect(again.response.status).toBe(409);
    expect(await mail(author.email, 3)).toContain("Zdroje tam naozaj sú.");
    const after = (await author.client.get("/account/decisions")).doc.querySelector(`#rozhodnutie-${decisionId}`)!;
    expect(after.text).toContain("Námietke sa vyhovelo");
    expect(after.querySelector("textarea")).toBeNull();
    // The reporter learns that the decision on their report no longer stands.
    const reversed = await mail(reporter.email, 3);
    expect(reversed).toContain("rozhodnutie už neplatí");
    expect(reversed).toContain("Zdroje tam naozaj sú.");
    expect((await reporter.client.get("/account/reports")).doc.querySelector(".report-list li")?.text).toContain("toto rozhodnutie už neplatí");
  });

  it("rejects an appeal with a reason the author reads on the page and by mail; the article stays hidden and the reporter is not told of a reversal", async () => {
    const { author, postId, reporter } = await reportedArticle("Článok so zamietnutou námietkou");
    expect((await decide((await admin()).client, { post: postId, decision: "hide", reason: "Chýbajú zdroje." })).response.status).toBe(303);
    const decisionId = reportsOf(postId)[0].decision_id!;
    expect((await author.client.post("/account/decisions", { intent: "appeal", decision: String(decisionId), text: "Zdroje nie sú treba." })).response.status).toBe(303);
    const appealId = one<{ id: number }>("SELECT id FROM appeals WHERE decision_id = ?", decisionId).id;
    const rejected = await (await admin()).client.post("/admin", { intent: "decideAppeal", appeal: String(appealId), outcome: "rejected", reason: "Tvrdenia o roku 1526 sú bez prameňa." });
    expect(rejected.response.status).toBe(303);
    expect(hiddenAt(postId)).not.toBeNull();
    expect((await new Client(base).get(`/posts/${postId}`)).response.status).toBe(404);
    const told = await mail(author.email, 3);
    expect(told).toContain("námietka bola zamietnutá");
    expect(told).toContain("Tvrdenia o roku 1526 sú bez prameňa.");
    const statement = (await author.client.get("/account/decisions")).doc.querySelector(`#rozhodnutie-${decisionId}`)!;
    expect(statement.text).toContain("Námietka bola zamietnutá");
    expect(statement.text).toContain("Tvrdenia o roku 1526 sú bez prameňa.");
    expect(statement.querySelector("textarea")).toBeNull();
    // The reporter's decision stands: two mails (the report's receipt, the decision), nothing about a reversal.
    await mail(reporter.email, 2);
    expect((await mailsTo(reporter.email)).map((m) => m.subject)).toEqual([
      "Vaše hlásenie sme prijali – Dejiny",
      "Rozhodnutie o vašom hlásení – Dejiny",
    ]);
    expect((await reporter.client.get("/account/reports")).doc.querySelector(".report-list li")?.text).not.toContain("už neplatí");
  });

  it("does not let an admin decide their own appeal", async () => {
    const author = await admin();
    const postId = (await publish(author.client, "Článok administrátora na námietku"))!;
    expect((await (await reader()).client.post(`/posts/${postId}/report`, { reason: "offensive" })).response.status).toBe(200);
    const deciding = await admin();
    expect((await decide(deciding.client, { post: postId, decision: "hide", reason: "Urážlivé." })).response.status).toBe(303);
    const decisionId = reportsOf(postId)[0].decision_id!;
    expect((await author.client.post("/account/decisions", { intent: "appeal", decision: String(decisionId), text: "Nie je urážlivý." })).response.status).toBe(303);
    const appealId = one<{ id: number }>("SELECT id FROM appeals WHERE decision_id = ?", decisionId).id;

    const own = await author.client.post("/admin", { intent: "decideAppeal", appeal: String(appealId), outcome: "granted", reason: "Vyhoviem si." });
    expect(own.response.status).toBe(403);
    expect(errorOf(own)).toBe("O vlastnej námietke nemôžete rozhodnúť: rozhodne o nej iný administrátor.");
    expect(one("SELECT state FROM appeals WHERE id = ?", appealId)).toEqual({ state: "open" });
    expect(hiddenAt(postId)).not.toBeNull();
  });

  it("a granted appeal does not show an article that a later decision hid again", async () => {
    const { author, postId } = await reportedArticle("Článok skrytý dvakrát");
    const deciding = await admin();
    expect((await decide(deciding.client, { post: postId, decision: "hide", reason: "Chýbajú zdroje." })).response.status).toBe(303);
    const first = reportsOf(postId)[0].decision_id!;
    expect((await author.client.post("/account/decisions", { intent: "appeal", decision: String(first), text: "Zdroje sú tam." })).response.status).toBe(303);
    expect((await deciding.client.post(`/posts/${postId}`, { intent: "restoreHidden", reason: "Zdroje doplnené." })).response.status).toBe(303);
    expect((await deciding.client.post(`/posts/${postId}`, { intent: "hide", reason: "Nová verzia je urážlivá." })).response.status).toBe(303);
    expect(hiddenAt(postId)).not.toBeNull();

    const appealId = one<{ id: number }>("SELECT id FROM appeals WHERE decision_id = ?", first).id;
    const granted = await (await admin()).client.post("/admin", { intent: "decideAppeal", appeal: String(appealId), outcome: "granted", reason: "Prvé skrytie nebolo správne." });
    expect(granted.response.status).toBe(303);
    // The second hiding stands, with its own statement the author may contest.
    expect(hiddenAt(postId)).not.toBeNull();
    expect((await new Client(base).get(`/posts/${postId}`)).response.status).toBe(404);
  });

  it("refuses an appeal after six months", async () => {
    const { author, postId } = await reportedArticle("Starý spor");
    expect((await decide((await admin()).client, { post: postId, decision: "hide", reason: "Skryté." })).response.status).toBe(303);
    const decisionId = reportsOf(postId)[0].decision_id!;
    db((d) => d.prepare("UPDATE moderation_decisions SET created_at = created_at - 184 * 86400000 WHERE id = ?").run(decisionId), true);
    const late = await author.client.post("/account/decisions", { intent: "appeal", decision: String(decisionId), text: "Neskoro." });
    expect(late.response.status).toBe(403);
    expect(late.doc.querySelector(`#rozhodnutie-${decisionId} .form-error`)?.text).toBe("Lehota na námietku (6 mesiacov) uplynula.");
    expect(late.doc.querySelectorAll(".form-error")).toHaveLength(1);
    expect((await author.client.get("/account/decisions")).doc.querySelector(`#rozhodnutie-${decisionId}`)?.text).toContain("Lehota na námietku uplynula.");
  });

  it("shows a disabled author the statement on the sign-in page, takes the appeal there, and a granted appeal enables the account", async () => {
    const { author, postId } = await reportedArticle("Článok blokovaného autora");
    const deciding = await admin();
    expect((await decide(deciding.client, { post: postId, decision: "disable", reason: "Opakované nepravdy." })).response.status).toBe(303);
    // The statement's mail sends a disabled author to the sign-in page (its account pages are closed to it).
    const statementMail = await mail(author.email, 1);
    expect(statementMail).toContain("/signinsignup");
    expect(statementMail).not.toContain("/account/decisions");
    // Signed out at once.
    expect((await author.client.get("/account")).response.status).toBe(302);

    const wrong = await signIn(author.email, "zlé-heslo-123");
    expect(wrong.answer.doc.querySelector(".disabled-statement")).toBeNull();
    const { answer } = await signIn(author.email);
    expect(answer.response.status).toBe(403);
    const statement = answer.doc.querySelector(".disabled-statement")!;
    expect(statement.text).toContain("Opakované nepravdy.");
    expect(statement.text).toContain("Článok blokovaného autora");
    const token = statement.querySelector('input[name="token"]')!.getAttribute("value")!;
    const decision = statement.querySelector('input[name="decision"]')!.getAttribute("value")!;

    const forged = await new Client(base).post("/signinsignup", { intent: "appeal", token: token.replace(/.$/, (c) => (c === "A" ? "B" : "A")), decision, text: "Nesúhlasím." });
    expect(forged.response.status).toBe(403);
    expect(one("SELECT count(*) AS n FROM appeals WHERE decision_id = ?", Number(decision))).toEqual({ n: 0 });
    const empty = await new Client(base).post("/signinsignup", { intent: "appeal", token, decision, text: "" });
    expect(empty.response.status).toBe(400);
    expect(empty.doc.querySelector(".disabled-statement .form-error")?.text).toBe("Napíšte, prečo s rozhodnutím nesúhlasíte.");
    const filed = await new Client(base).post("/signinsignup", { intent: "appeal", token, decision, text: "Tie roky sú správne." });
    expect(filed.response.status).toBe(200);
    expect(filed.doc.querySelector(".disabled-statement [role=status]")?.text).toContain("Námietku sme prijali");
    // A second appeal is refused, and the page says why (beside the first, which waits).
    const second = await new Client(base).post("/signinsignup", { intent: "appeal", token, decision, text: "Ešte raz." });
    expect(second.response.status).toBe(403);
    expect(second.doc.querySelector(".disabled-statement .form-error")?.text).toBe("Proti tomuto rozhodnutiu ste už podali námietku.");
    expect(second.doc.querySelector(".disabled-statement")?.text).toContain("Námietka čaká na rozhodnutie");

    const appealId = one<{ id: number }>("SELECT id FROM appeals WHERE decision_id = ?", Number(decision)).id;
    const other = await admin();
    expect((await other.client.post("/admin", { intent: "decideAppeal", appeal: String(appealId), outcome: "granted", reason: "Overené, roky sedia." })).response.status).toBe(303);
    expect((await signIn(author.email)).answer.response.status).toBe(303);
    expect(hiddenAt(postId)).toBeNull();
  });

  it("does not disable an admin from the report queue", async () => {
    const adminAuthor = await admin();
    const postId = (await publish(adminAuthor.client, "Článok administrátora"))!;
    expect((await (await reader()).client.post(`/posts/${postId}/report`, { reason: "spam" })).response.status).toBe(200);
    const refused = await decide((await admin()).client, { post: postId, decision: "disable", reason: "Nie." });
    expect(refused.response.status).toBe(400);
    expect(errorOf(refused)).toBe("Autor jedného z článkov je administrátor: jeho účet zablokujete na stránke účtu.");
    expect(reportsOf(postId).map((r) => r.state)).toEqual(["open"]);
  });

  it("names a disabling from the account page as the account's alone, not as an article hidden", async () => {
    const owner = await reader();
    const { id } = one<{ id: string }>("SELECT id FROM users WHERE email = ?", owner.email);
    const disabled = await (await admin()).client.post(`/admin/users/${id}`, { intent: "disable", confirm: "yes", reason: "Opakovaný spam v hláseniach." });
    expect(disabled.response.status).toBe(303);
    const decision = one<{ id: number }>("SELECT id FROM moderation_decisions WHERE user_id = ? AND action = 'disable'", id).id;
    const statement = await mail(owner.email, 1);
    expect(statement).toContain("Rozhodnutie: Účet zablokovaný.");
    expect(statement).not.toContain("Článok skrytý");
    const row = (await new Client(base).get("/moderation")).doc.querySelector(`#rozhodnutie-${decision}`);
    // The log may be past its first page on the shared server only when many decisions came after this one.
    if (row) expect(row.querySelector("th")?.text).toBe("Účet zablokovaný");
    const signIn = await new Client(base).post("/signinsignup", { intent: "signin", email: owner.email, password: GOOD_PASSWORD });
    expect(signIn.doc.querySelector(`#rozhodnutie-${decision}`)?.text).toContain("Účet zablokovaný");
  });
});
