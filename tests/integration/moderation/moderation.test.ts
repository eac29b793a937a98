import Database from "better-sqlite3";
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, GOOD_PASSWORD, registerUser, uniqueEmail } from "../../../scripts/lib/client";
import { publish, saveEdit } from "../../../scripts/lib/publish";
import { startServer, type RunningServer } from "../../../scripts/lib/server";
import { registerConfirmedUser } from "../../support/accounts";
import { runBuildCommand } from "../../support/commands";
import { settledMailsTo, SUBJECTS } from "../../support/outbox";
import { pageStatus, readDatabase } from "../../support/http";

// A server of its own: these tests count admins (the last one may not go) and use up the report quota.
let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ DEMO_CONTENT: "on", TRUST_PROXY: "true" });
});
afterAll(async () => {
  await server.stop();
});

const cli = (...args: string[]) => runBuildCommand("runAdminCommand", args, server);
const query = <T>(sql: string, ...params: unknown[]) => readDatabase(server.databasePath, (db: Database.Database) => db.prepare(sql).all(...params) as T[]);
const userId = (email: string) => query<{ id: string }>("SELECT id FROM users WHERE email = ?", email)[0].id;
const userRow = (email: string) => query<{ is_admin: number; disabled_at: number | null }>("SELECT is_admin, disabled_at FROM users WHERE email = ?", email)[0];
const logRows = () => query<{ actor_name: string; action: string; target_user_name: string | null; target_post_title: string | null; detail: string }>("SELECT * FROM moderation_log ORDER BY id");

async function signedIn(email: string, password = GOOD_PASSWORD): Promise<Client> {
  const client = new Client(server.url);
  const { response } = await client.post("/signinsignup", { intent: "signin", email, password });
  expect(response.status).toBe(303);
  return client;
}

/** A new account made an admin with the command line, signed in. */
async function newAdmin(name: string): Promise<{ client: Client; email: string }> {
  const { email } = await registerUser(server.url, { displayName: name });
  expect((await cli("grant", email)).code).toBe(0);
  return { client: await signedIn(email), email };
}

function imageFilesOf(key: string): string[] {
  return readdirSync(server.uploadsDir).filter((name) => name.startsWith(key));
}

const imageKeyOf = (postId: string) => query<{ image: string }>("SELECT image FROM posts WHERE id = ?", postId)[0].image;

describe("who reaches the admin pages", () => {
  it("sends a visitor to sign in and back, and an admin gets there after signing in", async () => {
    const visitor = new Client(server.url);
    for (const page of ["/admin", "/admin/log", "/admin/users/nieco"]) {
      const { response } = await visitor.get(page);
      expect(response.status).toBe(302);
      expect(response.headers.get("location")).toBe(`/signinsignup?redirectTo=${page}`);
    }
    const { email } = await registerUser(server.url, { displayName: "Budúca Adminka" });
    await cli("grant", email);
    const { response } = await visitor.post("/signinsignup", { intent: "signin", email, password: GOOD_PASSWORD, redirectTo: "/admin" });
    expect(response.headers.get("location")).toBe("/admin");
    const admin = await visitor.get("/admin");
    expect(admin.response.status).toBe(200);
    expect(admin.doc.querySelector("h1")?.text).toBe("Administrácia");
    // The header shows admins the way there.
    expect(admin.doc.querySelector('.site-nav a[href="/admin"]')?.text).toBe("Administrácia");
  });

  it("answers a signed-in user the site's 404 on every admin page and action, and changes nothing", async () => {
    const { client } = await registerUser(server.url);
    const { email: victim } = await registerUser(server.url, { displayName: "Obeť" });
    const id = userId(victim);
    for (const page of ["/admin", "/admin/log", `/admin/users/${id}`]) {
      const { response, doc } = await client.get(page);
      expect(response.status).toBe(404);
      expect(doc.querySelector("h1")?.text).toBe("Stránka sa nenašla");
    }
    expect((await client.post(`/admin/users/${id}`, { intent: "disable", confirm: "yes" })).response.status).toBe(404);
    expect((await client.post(`/admin/users/${id}`, { intent: "grant", confirm: "yes" })).response.status).toBe(404);
    expect((await client.post("/admin", { intent: "dismissReport", report: "1", confirm: "yes" })).response.status).toBe(404);
    expect(userRow(victim)).toMatchObject({ is_admin: 0, disabled_at: null });
    const { doc } = await client.get("/posts");
    expect(doc.querySelector('a[href="/admin"]')).toBeNull();
  });
});

describe("admin actions on accounts", () => {
  it("asks first, then disables: the user's live session ends at once and they cannot sign in; enabling lets them back", async () => {
    const { client: admin } = await newAdmin("Adam Admin");
    const { client: user, email } = await registerUser(server.url, { displayName: "Peter Problémový" });
    expect(await user.isSignedIn()).toBe(true);
    const id = userId(email);

    const ask = await admin.post(`/admin/users/${id}`, { intent: "disable" });
    expect(ask.response.status).toBe(200);
    expect(ask.doc.querySelector(".confirm-box")?.text).toContain("Zablokovať účet Peter Problémový?");
    expect(ask.doc.querySelector('.confirm-box input[name="confirm"]')?.getAttribute("value")).toBe("yes");
    expect(userRow(email).disabled_at).toBeNull();
    expect(await user.isSignedIn()).toBe(true);

    expect(ask.doc.querySelector(".confirm-box textarea[name=reason]")).not.toBeNull();
    // A reason is required: its owner reads it as a statement of reasons, and may contest it.
    const noReason = await admin.post(`/admin/users/${id}`, { intent: "disable", confirm: "yes", reason: " " });
    expect(noReason.response.status).toBe(400);
    expect(noReason.doc.querySelector(".form-error")?.text).toBe("Napíšte odôvodnenie: prečítajú si ho nahlasovatelia aj autor.");
    expect(noReason.doc.querySelector(".confirm-box textarea[name=reason]")).not.toBeNull();
    expect(userRow(email).disabled_at).toBeNull();
    const done = await admin.post(`/admin/users/${id}`, { intent: "disable", confirm: "yes", reason: "Opakovaný spam v komentároch." });
    expect(done.response.status).toBe(303);
    expect(query("SELECT action, reason, ground, post_id FROM moderation_decisions WHERE user_id = ?", id)).toEqual([
      { action: "disable", reason: "Opakovaný spam v komentároch.", ground: "initiative", post_id: null },
    ]);
    expect(done.response.headers.get("location")).toBe(`/admin/users/${id}`);
    expect(pageStatus((await admin.get(`/admin/users/${id}`)).doc)).toBe("Účet je zablokovaný.");
    expect(await user.isSignedIn()).toBe(false);
    expect(query("SELECT 1 FROM sessions WHERE user_id = ?", id)).toHaveLength(0);
    const again = await new Client(server.url).post("/signinsignup", { intent: "signin", email, password: GOOD_PASSWORD });
    expect(again.response.status).toBe(403);
    expect(again.doc.querySelector(".disabled-statement")?.text).toContain("Opakovaný spam v komentároch.");

    await admin.post(`/admin/users/${id}`, { intent: "enable", confirm: "yes" });
    await signedIn(email);
    const log = logRows().filter((row) => row.target_user_name === "Peter Problémový");
    expect(log.map((row) => [row.actor_name, row.action])).toEqual([
      ["Adam Admin", "disable"],
      ["Adam Admin", "enable"],
    ]);
  });

  it("does not let an admin disable or demote themselves", async () => {
    const { client: admin, email } = await newAdmin("Sebavedomý Admin");
    const id = userId(email);
    for (const intent of ["disable", "revoke"]) {
      const { response, doc } = await admin.post(`/admin/users/${id}`, { intent, confirm: "yes" });
      expect(response.status).toBe(400);
      expect(doc.querySelector(".form-error")?.text).toBe("Vlastný účet nemôžete zablokovať ani mu odobrať práva administrátora.");
    }
    expect(userRow(email)).toMatchObject({ is_admin: 1, disabled_at: null });
    // Nor does the page offer it.
    const { doc } = await admin.get(`/admin/users/${id}`);
    const buttons = doc.querySelectorAll("form button").map((b) => b.text.trim());
    expect(buttons).not.toContain("Zablokovať");
    expect(buttons).not.toContain("Odobrať práva administrátora");
  });

  it("keeps the last active admin, on the page and on the command line", async () => {
    // Demote every admin but one, through the command line.
    const { email: keeper } = await newAdmin("Posledná Strážkyňa");
    const admins = query<{ email: string }>("SELECT email FROM users WHERE is_admin = 1 AND disabled_at IS NULL AND email != ?", keeper);
    for (const { email } of admins) expect((await cli("revoke", email)).code).toBe(0);
    // An admin who cannot sign in (the demo author has no password) does not count.
    expect((await cli("grant", "demo@dejiny.invalid")).code).toBe(0);
    for (const command of ["revoke", "disable"]) {
      const refused = await cli(command, keeper, "Posledný pokus.");
      expect(refused.code).toBe(1);
      expect(refused.output).toContain("posledný aktívny administrátor");
    }
    expect(userRow(keeper)).toMatchObject({ is_admin: 1, disabled_at: null });
    // The last admin cannot leave by deleting the account either.
    const client = await signedIn(keeper);
    const { response, doc } = await client.post("/account/delete", { password: GOOD_PASSWORD });
    expect(response.status).toBe(400);
    expect(doc.querySelector(".form-error")?.text).toContain("Ste posledný aktívny administrátor");
    expect(userRow(keeper)).toMatchObject({ is_admin: 1 });
    // The password-less admin itself can still be demoted: it was never one who could act.
    expect((await cli("revoke", "demo@dejiny.invalid")).code).toBe(0);
    // With a second admin, the first may be demoted (by the other).
    const { client: second } = await newAdmin("Druhý Strážca");
    const { response: demoted } = await second.post(`/admin/users/${userId(keeper)}`, { intent: "revoke", confirm: "yes" });
    expect(demoted.status).toBe(303);
    expect(userRow(keeper).is_admin).toBe(0);
  });

  it("removes every article of an account with its image files as one decision: a reason its owner reads, the reports upheld, the public log", async () => {
    const { client: admin } = await newAdmin("Čistič Spamu");
    // Both confirmed their addresses: the owner's statement and the reporter's decision are mailed.
    const { client: spammer, email } = await registerConfirmedUser(server.url, server.databasePath, { displayName: "Spamer" });
    const ids = [await publish(spammer, "Kúpte si hodinky"), await publish(spammer, "Lacné hodinky")];
    expect(ids).not.toContain(null);
    const keys = ids.map((id) => imageKeyOf(id!));
    for (const key of keys) expect(imageFilesOf(key).length).toBeGreaterThan(0);
    const { client: bystander } = await registerUser(server.url);
    const kept = await publish(bystander, "Článok, ktorý zostane");
    const reporter = await registerConfirmedUser(server.url, server.databasePath);
    expect((await reporter.client.post(`/posts/${ids[0]}/report`, { reason: "misinformation", note: "" })).response.status).toBe(200);

    const ask = await admin.post(`/admin/users/${userId(email)}`, { intent: "removeArticles" });
    expect(ask.doc.querySelector(".confirm-box")?.text).toContain("(2 články)");
    expect(ask.doc.querySelector("#removeArticles-reason")).not.toBeNull();
    // Without a reason: asked again, nothing removed.
    const refused = await admin.post(`/admin/users/${userId(email)}`, { intent: "removeArticles", confirm: "yes", reason: "" });
    expect(refused.response.status).toBe(400);
    expect(refused.doc.querySelector("#removeArticles-reason")?.getAttribute("aria-invalid")).toBe("true");
    expect((await admin.get(`/posts/${ids[0]}`)).response.status).toBe(200);

    const reason = "Reklama na hodinky, nie články o histórii.";
    const { response } = await admin.post(`/admin/users/${userId(email)}`, { intent: "removeArticles", confirm: "yes", reason });
    expect(response.status).toBe(303);
    for (const id of ids) expect((await admin.get(`/posts/${id}`)).response.status).toBe(404);
    for (const key of keys) expect(imageFilesOf(key)).toEqual([]);
    expect((await admin.get(`/posts/${kept}`)).response.status).toBe(200);
    expect(logRows().at(-1)).toMatchObject({ actor_name: "Čistič Spamu", action: "removeArticles", target_user_name: "Spamer", detail: `2 články. ${reason}` });
    const [decision] = query<{ id: number; action: string; ground: string; reason: string; user_id: string }>("SELECT * FROM moderation_decisions WHERE user_id = ?", userId(email));
    expect(decision).toMatchObject({ action: "removeArticles", ground: "reports", reason });
    expect(query("SELECT state, decision_id FROM reports WHERE reporter_id = ?", userId(reporter.email))).toEqual([{ state: "upheld", decision_id: decision.id }]);
    // The owner gets one statement of reasons, the reporter the decision on the article they reported.
    const statement = await settledMailsTo(server.databasePath, email, 1, SUBJECTS.notConfirmation);
    expect(statement).toHaveLength(1);
    expect(statement[0]).toContain("redakcia rozhodla o všetkých vašich článkoch");
    expect(statement[0]).toContain(reason);
    const told = await settledMailsTo(server.databasePath, reporter.email, 2, SUBJECTS.notConfirmation);
    expect(told).toHaveLength(2);
    expect(told[1]).toContain("Kúpte si hodinky");
    const statements = await spammer.get("/account/decisions");
    expect(statements.doc.querySelector("main")?.text).toContain("Všetky články autora odstránené");
    expect((await new Client(server.url).get("/moderation")).doc.querySelector("main")?.text).toContain("Všetky články autora odstránené");

    // The command line does the same, and says who it was in the log; it too needs the reason.
    const another = await publish(spammer, "Ešte lacnejšie hodinky");
    expect((await cli("remove-articles", email)).code).toBe(1);
    expect((await admin.get(`/posts/${another}`)).response.status).toBe(200);
    expect((await cli("remove-articles", email, "Znova", "reklama.")).code).toBe(0);
    expect((await admin.get(`/posts/${another}`)).response.status).toBe(404);
    expect(logRows().at(-1)).toMatchObject({ actor_name: "Príkazový riadok (npm run admin)", action: "removeArticles", detail: "1 článok. Znova reklama." });
    // Nothing left to remove is no decision.
    expect((await cli("remove-articles", email, "Znova.")).code).toBe(0);
    expect(query("SELECT id FROM moderation_decisions WHERE user_id = ?", userId(email))).toHaveLength(2);
  });

  it("finds accounts by name or e-mail without diacritics, and pages the list with links", async () => {
    const { client: admin } = await newAdmin("Hľadačka");
    const { email } = await registerUser(server.url, { displayName: "Ľudovít Štúr" });
    for (const q of ["ludovit stur", "ŠTÚR", "Ľudo", email.slice(0, 12)]) {
      const { doc } = await admin.get(`/admin?q=${encodeURIComponent(q)}`);
      expect(doc.querySelectorAll(".account-table tbody th").map((th) => th.text), q).toContain("Ľudovít Štúr");
    }
    // LIKE's wildcards are taken as they are.
    expect((await admin.get("/admin?q=%25")).doc.querySelector(".account-table")).toBeNull();
    const first = await admin.get("/admin");
    const total = Number(first.doc.querySelector("#ucty")?.text.match(/\d+/)?.[0]);
    expect(total).toBeGreaterThan(0);
    // Far past the end: the last page.
    const last = await admin.get("/admin?page=999999999");
    expect(last.response.status).toBe(200);
    expect(last.doc.querySelectorAll(".account-table tbody tr").length).toBeGreaterThan(0);
  });
});

describe("reports", () => {
  it("lets a reader report an article once, with a reason and a note; the admins' queue shows it; deciding is logged", async () => {
    const { client: author } = await registerUser(server.url, { displayName: "Autor Sporného" });
    const postId = (await publish(author, "Sporný článok"))!;
    const { client: reader } = await registerUser(server.url, { displayName: "Pozorná Čitateľka" });

    // A visitor is asked to sign in; the author cannot report their own article.
    expect((await new Client(server.url).get(`/posts/${postId}/report`)).response.status).toBe(302);
    expect((await author.post(`/posts/${postId}/report`, { reason: "spam" })).doc.querySelector(".form-error")?.text).toBe("Vlastný článok nemôžete nahlásiť.");
    // The article page offers it to other signed-in readers.
    expect((await reader.get(`/posts/${postId}`)).doc.querySelector(`a[href="/posts/${postId}/report"]`)?.text).toBe("Nahlásiť");

    const noReason = await reader.post(`/posts/${postId}/report`, { note: "Niečo" });
    expect(noReason.response.status).toBe(400);
    expect(noReason.doc.querySelector(".form-error")?.text).toBe("Vyberte dôvod nahlásenia.");
    expect(noReason.doc.querySelector('[role="radiogroup"]')?.getAttribute("aria-invalid")).toBe("true");
    expect(noReason.doc.querySelector("textarea")?.text).toBe("Niečo");
    expect((await reader.post(`/posts/${postId}/report`, { reason: "iné" })).response.status).toBe(400);
    expect((await reader.post(`/posts/${postId}/report`, { reason: "other", note: "x".repeat(501) })).doc.querySelector(".form-error")?.text).toBe(
      "Poznámka môže mať najviac 500 znakov.",
    );

    const sent = await reader.post(`/posts/${postId}/report`, { reason: "misinformation", note: "Bitka pri Moháči bola v roku 1526,\nnie 1626." });
    expect(sent.response.status).toBe(200);
    expect(sent.doc.querySelector('[role="status"]')?.text).toContain("Ďakujeme");
    const twice = await reader.post(`/posts/${postId}/report`, { reason: "spam" });
    expect(twice.doc.querySelector(".form-error")?.text).toBe("Tento článok ste už nahlásili. Redakcia sa vaším hlásením zaoberá.");

    const { client: admin } = await newAdmin("Redaktorka");
    const listed = (await admin.get("/admin")).doc.querySelectorAll(".report-list > li").find((li) => li.text.includes("Sporný článok"))!;
    expect(listed.text).toContain("Nepravdivé alebo zavádzajúce informácie");
    expect(listed.text).toContain("Pozorná Čitateľka");
    expect(listed.querySelector("p.report-note")?.text).toBe("Bitka pri Moháči bola v roku 1526,\nnie 1626.");

    // The decision deletes the article: the admin's log has both the decision and the deletion, with the reason.
    const key = imageKeyOf(postId);
    const decided = await admin.post("/admin", { intent: "decide", post: postId, decision: "delete", reason: "Nepravdivé dátumy." });
    expect(decided.response.status).toBe(303);
    expect((await admin.get(`/posts/${postId}`)).response.status).toBe(404);
    expect(imageFilesOf(key)).toEqual([]);
    expect(query("SELECT state FROM reports WHERE post_title = ?", "Sporný článok")).toEqual([{ state: "upheld" }]);
    expect(logRows().slice(-2)).toMatchObject([
      { actor_name: "Redaktorka", action: "decideReports", target_user_name: "Autor Sporného", target_post_title: "Sporný článok", detail: "Článok odstránený. Nepravdivé dátumy. (hlásenia: Nepravdivé alebo zavádzajúce informácie)" },
      { actor_name: "Redaktorka", action: "deleteArticle", target_post_title: "Sporný článok", detail: "Článok odstránený: Nepravdivé dátumy." },
    ]);
  });

  it("throttles one reader's reports", async () => {
    const { client: reader } = await registerUser(server.url);
    const demo = query<{ id: string }>("SELECT id FROM posts WHERE author_id = (SELECT id FROM users WHERE password_hash IS NULL) LIMIT 11");
    expect(demo).toHaveLength(11);
    const statuses: number[] = [];
    for (const { id } of demo) statuses.push((await reader.post(`/posts/${id}/report`, { reason: "spam" })).response.status);
    expect(statuses).toEqual([...Array(10).fill(200), 429]);
  });
});

describe("the moderation log", () => {
  it("records an admin's edit and delete of someone else's article, not an author's own", async () => {
    const { client: admin } = await newAdmin("Editorka");
    const { client: author } = await registerUser(server.url, { displayName: "Pôvodný Autor" });
    const postId = (await publish(author, "Pôvodný nadpis"))!;
    const entries = logRows().length;
    await saveEdit(author, postId, { title: "Autorova oprava", content: "Text" });
    expect(logRows()).toHaveLength(entries);
    expect((await saveEdit(admin, postId, { title: "Opravený nadpis", content: "Text" })).response.status).toBe(303);
    expect(logRows().at(-1)).toMatchObject({ actor_name: "Editorka", action: "editArticle", target_user_name: "Pôvodný Autor", target_post_title: "Autorova oprava" });
    expect((await admin.post(`/posts/${postId}`, { intent: "delete", confirm: "yes", reason: "Duplicitný článok." })).response.status).toBe(303);
    expect(logRows().at(-1)).toMatchObject({ action: "deleteArticle", target_post_title: "Opravený nadpis" });

    const page = await admin.get("/admin/log");
    const first = page.doc.querySelector(".log-table tbody tr")!;
    expect(first.text).toContain("Odstránenie cudzieho článku");
    expect(first.text).toContain("Editorka");
    expect(first.text).toContain("„Opravený nadpis“");
  });

  it("cannot be changed: the page has no action, and the database refuses", async () => {
    const { client: admin } = await newAdmin("Zvedavý Admin");
    const { response } = await admin.post("/admin/log", { intent: "delete" });
    expect(response.status).toBe(405);
    expect(() => readDatabase(server.databasePath, (db) => db.prepare("DELETE FROM moderation_log").run(), true)).toThrow(/cannot be changed/);
    expect(() => readDatabase(server.databasePath, (db) => db.prepare("UPDATE moderation_log SET actor_name = 'nikto'").run(), true)).toThrow(/cannot be changed/);
  });

  it("keeps entries naming an account after the account is deleted, with its name as it was", async () => {
    const { client: admin } = await newAdmin("Pamätníčka");
    const email = uniqueEmail("odchadza");
    const { client: user } = await registerUser(server.url, { email, displayName: "Odchádzajúci" });
    await admin.post(`/admin/users/${userId(email)}`, { intent: "grant", confirm: "yes" });
    await admin.post(`/admin/users/${userId(email)}`, { intent: "revoke", confirm: "yes" });
    expect((await user.post("/account/delete", { password: GOOD_PASSWORD })).response.status).toBe(303);
    expect(query("SELECT 1 FROM users WHERE email = ?", email)).toHaveLength(0);
    const named = logRows().filter((row) => row.target_user_name === "Odchádzajúci");
    expect(named.map((row) => row.action)).toEqual(["grant", "revoke", "deleteAccount"]);
    expect((await admin.get("/admin/log")).html).toContain("Odchádzajúci");
  });
});

it("leaves no image file that no article refers to", () => {
  const keys = new Set(query<{ image: string }>("SELECT image FROM posts UNION SELECT key FROM pending_images").map((r) => r.image));
  const orphans = readdirSync(server.uploadsDir).filter((name) => !keys.has(name.slice(0, 16)));
  expect(orphans).toEqual([]);
  expect(existsSync(path.join(server.uploadsDir))).toBe(true);
});
