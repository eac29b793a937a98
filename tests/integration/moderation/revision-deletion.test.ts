import { describe, expect, inject, it } from "vitest";
import { HIDDEN_PART_WORDS, REVISION_MESSAGES } from "~/lib/revisions";
import { MODERATION_MESSAGES } from "~/lib/moderation/moderation";
import { POST_MESSAGES } from "~/lib/rules";
import { Client, registerUser } from "../../../scripts/lib/client";
import { publish, saveEdit } from "../../../scripts/lib/publish";
import { readDatabase } from "../../support/http";
import { sentMails } from "../../../scripts/lib/resend-stand-in";

const base = inject("baseUrl");
const databasePath = inject("databasePath");
const resendUrl = inject("resendUrl");

/** The mails to `to` with `subject` in their subject, once the first has come (the outbox sends a moment after the answer). */
async function mailsAbout(to: string, subject: string) {
  for (let i = 0; i < 100; i++) {
    const mails = (await sentMails(resendUrl)).filter((mail) => [mail.to].flat().includes(to) && mail.subject.includes(subject));
    if (mails.length > 0) return mails;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return [];
}

/** What an admin edits out of an article: a name, a phone number, a street. */
const PERSONAL = "Ján Novák, tel. 0905 123 456, Hlavná 12";

const sql = <T>(query: string, ...params: unknown[]) => readDatabase(databasePath, (db) => db.prepare(query).all(...params) as T[]);
const write = (query: string, ...params: unknown[]) => readDatabase(databasePath, (db) => db.prepare(query).run(...params), true);
const userId = (email: string) => sql<{ id: string }>("SELECT id FROM users WHERE email = ?", email)[0].id;
const revisionsOf = (postId: string) =>
  sql<{ id: string; number: number; title: string; content: string; content_source: string | null; summary: string; editor_name: string; editor_id: string | null; size: number; erased_at: number | null }>(
    "SELECT * FROM revisions WHERE post_id = ? ORDER BY number",
    postId,
  );
const history = (id: string, query = "") => `/posts/${id}/history${query}`;
const confirmed = (email: string) => write("UPDATE users SET email_confirmed_at = ? WHERE email = ?", Date.now(), email);

async function admin() {
  const account = await registerUser(base);
  write("UPDATE users SET is_admin = 1, email_confirmed_at = ? WHERE email = ?", Date.now(), account.email);
  return account;
}

/**
 * An article whose revision 2 says PERSONAL (in its text and its summary),
 * and whose revision 3, an admin's edit, takes it out again.
 */
async function articleWithPersonalData() {
  const author = await registerUser(base);
  confirmed(author.email);
  const title = "Skrývanie verzií: Bitka pri Lipanoch";
  const id = (await publish(author.client, title, ["Stredovek"], "Prvá verzia textu o bitke."))!;
  const leaked = await saveEdit(author.client, id, { title, content: `Prvá verzia textu o bitke. Svedok: ${PERSONAL}.`, summary: `Doplnený svedok ${PERSONAL}` }, `/posts/${id}?edit`);
  expect(leaked.response.status).toBe(303);
  const moderator = await admin();
  const fixed = await saveEdit(moderator.client, id, { title, content: "Prvá verzia textu o bitke. Svedok: (odstránené).", summary: "Osobné údaje preč" }, `/posts/${id}?edit`);
  expect(fixed.response.status).toBe(303);
  const [first, second, third] = revisionsOf(id);
  return { id, title, author, moderator, first, second, third };
}

const hide = (client: Client, id: string, revisions: string[], parts: string[], intent = "hideRevision", extra: Record<string, string> = {}) =>
  client.post(history(id), { intent, revision: revisions, part: parts, reason: "Osobné údaje tretej osoby.", ...extra });

describe("hiding and erasing old revisions", () => {
  it("hides an old revision's text, summary and editor from everyone but admins, on every page of the history and in .data", async () => {
    const { id, author, moderator, first, second, third } = await articleWithPersonalData();
    const visitor = new Client(base);
    // No proxy keeps a history page: what is hidden later must not outlive the decision there.
    for (const query of ["", `?revision=${second.id}`, `?from=${third.id}&to=${second.id}`]) {
      expect((await visitor.request(history(id, query))).headers.get("cache-control"), query).toMatch(/^private\b/);
      expect((await visitor.request(history(id, query))).headers.get("cache-control"), query).toMatch(/^private\b/);
    }
    // Before: anyone reads it, and the comparison shows it inside <del>.
    expect((await visitor.get(history(id, `?revision=${second.id}`))).html).toContain("0905 123 456");
    expect((await visitor.get(history(id, `?from=${third.id}&to=${second.id}`))).html).toContain("0905 123 456");

    const decided = await hide(moderator.client, id, [second.id], ["text", "summary", "editor"]);
    expect(decided.response.status).toBe(303);
    expect(decided.response.headers.get("location")).toBe(history(id));

    for (const reader of [visitor, author.client]) {
      for (const path of [
        history(id),
        history(id, `?revision=${second.id}`),
        history(id, `?revision=${second.id}&utm=x`),
        history(id, `?from=${third.id}&to=${second.id}`),
        history(id, `?from=${second.id}&to=${first.id}`),
        `/posts/${id}/history.data?revision=${second.id}`,
        `/posts/${id}/history.data?from=${third.id}&to=${second.id}`,
        `/posts/${id}/history.data`,
      ]) {
        const response = await reader.request(path);
        const text = await response.text();
        expect(text, path).not.toContain("0905 123 456");
        expect(text, path).not.toContain("Doplnený svedok");
      }
    }
    // The row stays, with its date and size; the page says what was hidden, and offers nothing to compare it by.
    const { doc } = await visitor.get(history(id));
    const row = doc.querySelectorAll(".history-table tbody tr")[1];
    expect(row.querySelector('[data-label="Verzia"]')!.text).toContain("text skrytý redakciou");
    expect(row.querySelector('[data-label="Verzia"] a')).toBeNull();
    expect(row.querySelector('[data-label="Kto"]')!.text).toBe(HIDDEN_PART_WORDS.editor);
    expect(row.querySelector('[data-label="Popis zmeny"]')!.text).toBe(HIDDEN_PART_WORDS.summary);
    expect(row.querySelector('input[type="radio"]')).toBeNull();
    expect(row.querySelector('[data-label="Znaky"]')!.text).not.toBe("");
    const page = await visitor.get(history(id, `?revision=${second.id}`));
    expect(page.response.status).toBe(200);
    expect(page.doc.querySelector(".revision-notice")?.text).toContain("text skrytý redakciou");
    expect(page.html).toContain(HIDDEN_PART_WORDS.text);
    // Admins still read it.
    expect((await moderator.client.get(history(id, `?revision=${second.id}`))).html).toContain("0905 123 456");
    expect((await moderator.client.get(history(id, `?from=${third.id}&to=${second.id}`))).html).toContain("0905 123 456");
  });

  it("lets nobody but admins restore a hidden revision, and nobody hide the current one or hide without being an admin", async () => {
    const { id, author, moderator, second, third } = await articleWithPersonalData();
    expect((await hide(moderator.client, id, [second.id], ["text"])).response.status).toBe(303);
    const restore = await author.client.post(history(id, `?revision=${second.id}`), { intent: "restore", revision: second.id, confirm: "yes", baseRevision: "3" });
    expect(restore.response.status).toBe(404);
    expect(revisionsOf(id)).toHaveLength(3);
    // The author is no admin: the form is not theirs, the answer is the site's 404.
    expect((await hide(author.client, id, [third.id], ["text"])).response.status).toBe(404);
    // Refused, the form comes back as it was filled in.
    const noPart = await moderator.client.post(history(id), { intent: "hideRevision", revision: second.id, reason: "Dôvod, ktorý som napísal." });
    expect(noPart.response.status).toBe(400);
    expect(noPart.doc.querySelector(".form-error")?.text).toBe(MODERATION_MESSAGES.noPartChosen);
    expect(noPart.doc.querySelector("#revision-reason")?.text).toBe("Dôvod, ktorý som napísal.");
    expect(noPart.doc.querySelector(`input[name="revision"][value="${second.id}"]`)?.hasAttribute("checked")).toBe(true);
    const current = await hide(moderator.client, id, [third.id], ["text"]);
    expect(current.response.status).toBe(400);
    expect(current.doc.querySelector(".form-error")?.text).toBe(MODERATION_MESSAGES.currentRevision);
    expect(revisionsOf(id).map((r) => r.content)).toContain("Prvá verzia textu o bitke. Svedok: (odstránené).");
  });

  it("makes each hiding a decision: the editor's statement of reasons and appeal, the public log without the text, the admins' log", async () => {
    const { id, title, author, moderator, second } = await articleWithPersonalData();
    expect((await hide(moderator.client, id, [second.id], ["text", "summary"])).response.status).toBe(303);
    const [decision] = sql<{ id: number; action: string; user_id: string; post_id: string; reason: string; ground_detail: string }>(
      "SELECT * FROM moderation_decisions WHERE post_id = ? ORDER BY id DESC",
      id,
    );
    expect(decision).toMatchObject({ action: "hideRevision", user_id: userId(author.email), ground_detail: "verzia 2 (text, popis zmeny)" });
    const [statement] = await mailsAbout(author.email, "Rozhodnutie redakcie o vašom obsahu");
    expect(statement.text).toContain("Časti staršej verzie článku skryté");
    expect(statement.text).toContain("verzia 2 (text, popis zmeny)");
    expect(statement.text + statement.html).not.toContain("0905 123 456");
    // The public log names the decision and the revision, never the text.
    const log = await new Client(base).get("/moderation");
    expect(log.html).toContain("Časti staršej verzie článku skryté");
    expect(log.html).not.toContain("0905 123 456");
    const entries = sql<{ action: string; target_post_title: string }>("SELECT action, target_post_title FROM moderation_log WHERE target_post_id = ? AND action = 'hideRevision'", id);
    expect(entries).toEqual([{ action: "hideRevision", target_post_title: title }]);

    // The editor contests it; another admin grants the appeal: the revision is shown again.
    const appealed = await author.client.post("/account/decisions", { intent: "appeal", decision: String(decision.id), text: "Ten svedok súhlasil so zverejnením." });
    expect(appealed.response.status).toBeLessThan(400);
    const [appeal] = sql<{ id: number }>("SELECT id FROM appeals WHERE decision_id = ?", decision.id);
    const second_admin = await admin();
    const granted = await second_admin.client.post("/admin", { intent: "decideAppeal", appeal: String(appeal.id), outcome: "granted", reason: "Súhlas doložený." });
    expect(granted.response.status).toBeLessThan(400);
    expect((await new Client(base).get(history(id, `?revision=${second.id}`))).html).toContain("0905 123 456");
  });

  it("erases a revision's text for good, after a confirmation step, keeping its row, date and size", async () => {
    const { id, moderator, second } = await articleWithPersonalData();
    const asked = await hide(moderator.client, id, [second.id], ["text", "summary"], "eraseRevision");
    expect(asked.response.status).toBe(200);
    expect(asked.doc.querySelector("#confirm-erase-text")).not.toBeNull();
    expect(revisionsOf(id)[1].content).toContain("0905 123 456");
    expect(revisionsOf(id)[1].content_source).toContain("0905 123 456");
    const erased = await hide(moderator.client, id, [second.id], ["text", "summary"], "eraseRevision", { confirm: "yes" });
    expect(erased.response.status).toBe(303);
    const row = revisionsOf(id)[1];
    // The text as written too: nothing of it is left.
    expect(row).toMatchObject({ number: 2, title: "", content: "", content_source: null, summary: "" });
    expect(row.size).toBeGreaterThan(0);
    expect(row.erased_at).not.toBeNull();
    // Admins too see only that it was erased; it cannot be shown again.
    const page = await moderator.client.get(history(id, `?revision=${second.id}`));
    expect(page.html).not.toContain("0905 123 456");
    expect(page.doc.querySelector(".revision-notice")?.text).toContain(HIDDEN_PART_WORDS.erased);
    expect((await hide(moderator.client, id, [second.id], ["text"], "showRevision")).response.status).toBe(409);
    // Nor restored: it would empty the article.
    expect(page.doc.querySelector('input[name="intent"][value="restore"]')).toBeNull();
    const restore = await moderator.client.post(history(id, `?revision=${second.id}`), { intent: "restore", revision: second.id, confirm: "yes", baseRevision: "3" });
    expect(restore.response.status).toBe(400);
    expect(restore.doc.querySelector(".form-error")?.text).toBe(REVISION_MESSAGES.erasedText);
    expect(revisionsOf(id)).toHaveLength(3);
  });

  it("leaves decisions on an admin's own article to another admin", async () => {
    const moderator = await admin();
    await admin();
    const title = "Skrývanie verzií: vlastný článok";
    const id = (await publish(moderator.client, title, ["Stredovek"], `Text so ${PERSONAL}.`))!;
    await saveEdit(moderator.client, id, { title, content: "Text bez údajov." }, `/posts/${id}?edit`);
    const [first] = revisionsOf(id);
    const own = await hide(moderator.client, id, [first.id], ["text"]);
    expect(own.response.status).toBe(403);
    expect(own.doc.querySelector(".form-error")?.text).toBe(MODERATION_MESSAGES.ownRevisions);
  });
});

describe("restores and saves on an old base", () => {
  it("refuses a restore confirmed on a revision an edit has since overtaken, restoring nothing", async () => {
    const author = await registerUser(base);
    const title = "Obnova: prekonaná úprava";
    const id = (await publish(author.client, title, ["Stredovek"], "Prvý text."))!;
    await saveEdit(author.client, id, { title, content: "Druhý text." }, `/posts/${id}?edit`);
    const [first] = revisionsOf(id);
    // The confirmation is shown at revision 2 …
    const asked = await author.client.post(history(id, `?revision=${first.id}`), { intent: "restore", revision: first.id });
    const confirmedOn = asked.doc.querySelector('#confirm-restore-text ~ input[name="baseRevision"]')?.getAttribute("value");
    expect(confirmedOn).toBe("2");
    // … then an edit makes revision 3 …
    await saveEdit(author.client, id, { title, content: "Tretí text, ktorý nik nevidel." }, `/posts/${id}?edit`);
    // … and the confirmation is sent: nothing is restored.
    const restored = await author.client.post(history(id, `?revision=${first.id}`), { intent: "restore", revision: first.id, confirm: "yes", baseRevision: confirmedOn! });
    expect(restored.response.status).toBe(409);
    expect(restored.doc.querySelector(".form-error")?.text).toMatch(/^Kým ste písali, článok upravil\(a\) .+ Nič nebolo obnovené/);
    expect(revisionsOf(id)).toHaveLength(3);
  });

  it("counts a save on an old base against the edit quota before comparing anything", async () => {
    const author = await registerUser(base);
    const title = "Kvóta: zastaraný základ";
    const id = (await publish(author.client, title, ["Stredovek"], "Prvý text."))!;
    await saveEdit(author.client, id, { title, content: "Druhý text." }, `/posts/${id}?edit`);
    write("INSERT OR REPLACE INTO rate_limits (key, window_start, count) VALUES (?, ?, ?)", `editsPerAccountPerHour:${userId(author.email)}`, Date.now(), 1_000_000);
    const stale = await author.client.post(`/posts/${id}?edit`, { intent: "save", baseRevision: "1", title, content: "Iný text." });
    expect(stale.response.status).toBe(429);
    expect(stale.doc.querySelector(".form-error")?.text).toBe(POST_MESSAGES.editQuota);
    // Stale (revision 2 is current), and past the quota: refused without a comparison.
    const older = await author.client.post(`/posts/${id}?edit`, { intent: "save", baseRevision: "7", title, content: "Iný text." });
    expect(older.response.status).toBe(429);
  });
});

describe("a hidden article shown again", () => {
  it("is an admin's own article's decision for another admin, and tells the readers whose reports the hiding upheld", async () => {
    const owner = await admin();
    const other = await admin();
    const title = "Znova zverejnenie: vlastný článok";
    const id = (await publish(owner.client, title, ["Stredovek"], "Text."))!;
    const reader = await registerUser(base);
    confirmed(reader.email);
    expect((await reader.client.post(`/posts/${id}/report`, { reason: "spam", note: "" })).response.status).toBeLessThan(400);
    const hidden = await other.client.post(`/posts/${id}`, { intent: "hide", reason: "Spam." });
    expect(hidden.response.status).toBeLessThan(400);
    expect(sql<{ hidden_at: number | null }>("SELECT hidden_at FROM posts WHERE id = ?", id)[0].hidden_at).not.toBeNull();

    const own = await owner.client.post(`/posts/${id}`, { intent: "restoreHidden", reason: "Nie je to spam." });
    expect(own.response.status).toBe(403);
    expect(own.html).toContain(MODERATION_MESSAGES.ownRestore);
    expect(sql<{ hidden_at: number | null }>("SELECT hidden_at FROM posts WHERE id = ?", id)[0].hidden_at).not.toBeNull();

    const restored = await other.client.post(`/posts/${id}`, { intent: "restoreHidden", reason: "Omyl: nie je to spam." });
    expect(restored.response.status).toBeLessThan(400);
    expect(sql<{ hidden_at: number | null }>("SELECT hidden_at FROM posts WHERE id = ?", id)[0].hidden_at).toBeNull();
    const [told] = await mailsAbout(reader.email, "Skrytý článok je znova zverejnený");
    expect(told.text).toContain("Omyl: nie je to spam.");
    const reports = await reader.client.get("/account/reports");
    expect(reports.html).toContain("Redakcia článok neskôr znova zverejnila");
  });
});
