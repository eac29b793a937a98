import Database from "better-sqlite3";
import { readdirSync } from "node:fs";
import { describe, expect, inject, it } from "vitest";
import { Client, GOOD_PASSWORD, registerUser } from "../../../scripts/lib/client";
import { publish } from "../../../scripts/lib/publish";
import { expectFieldRefused, pageStatus, readDatabase } from "../../support/http";

const base = inject("baseUrl");
const databasePath = inject("databasePath");
const uploadsDir = inject("uploadsDir");

const query = <T>(sql: string, ...params: unknown[]) => readDatabase(databasePath, (db: Database.Database) => db.prepare(sql).all(...params) as T[]);
const userId = (email: string) => query<{ id: string }>("SELECT id FROM users WHERE email = ?", email)[0]?.id;

const FIREFOX = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:132.0) Gecko/20100101 Firefox/132.0";
const CHROME_ANDROID = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36";

/** Another browser of the same account, signed in with its own User-Agent. */
async function anotherDevice(email: string, userAgent: string, password = GOOD_PASSWORD): Promise<Client> {
  const client = new Client(base);
  const { response } = await client.post("/signinsignup", { intent: "signin", email, password }, { "User-Agent": userAgent });
  expect(response.status).toBe(303);
  return client;
}

const errorOf = (doc: { querySelector(s: string): { text: string } | null }) => doc.querySelector(".form-error")?.text;

describe("/account", () => {
  it("is for signed-in users only", async () => {
    for (const page of ["/account", "/account/delete"]) {
      const { response } = await new Client(base).get(page);
      expect(response.status).toBe(302);
      expect(response.headers.get("location")).toBe(`/signinsignup?redirectTo=${page}`);
    }
  });

  it("lists the user's own articles, newest first, with links to open and edit them; the header names the user and links here", async () => {
    const { client } = await registerUser(base, { displayName: "Samo Chalupka" });
    const { client: other } = await registerUser(base);
    const older = await publish(client, "Starší článok");
    const newer = await publish(client, "Novší článok");
    await publish(other, "Cudzí článok");
    const { doc } = await client.get("/account");
    const items = doc.querySelectorAll(".article-list > li");
    expect(items.map((li) => li.querySelector(".article-list-title")?.text)).toEqual(["Novší článok", "Starší článok"]);
    expect(items[0].querySelector(".article-list-title")?.getAttribute("href")).toBe(`/posts/${newer}`);
    expect(items[1].querySelector(".article-list-edit")?.getAttribute("href")).toBe(`/posts/${older}?edit`);
    const account = doc.querySelector('.site-nav a[href="/account"]');
    expect(account?.text.replace(/\s+/g, " ").trim()).toBe("Účet: Samo Chalupka");
  });

  it("changes the display name with the registration's rules, and every page shows the new one", async () => {
    const { client, email } = await registerUser(base, { displayName: "Staré Meno" });
    const postId = await publish(client, "Článok s menom autora");
    expect((await client.get(`/posts/${postId}`)).doc.querySelector(".post-meta")?.text).toContain("Staré Meno");

    const cases: [string, string][] = [
      ["   ", "Vyplňte, prosím, všetky polia."],
      ["x".repeat(51), "Zobrazované meno môže mať najviac 50 znakov."],
      ["Meno\u202eobrátené", "Zobrazované meno nesmie obsahovať riadiace ani neviditeľné znaky."],
    ];
    for (const [displayName, message] of cases) expectFieldRefused(await client.post("/account", { intent: "rename", displayName }), "displayName", message, displayName);
    expect(query<{ display_name: string }>("SELECT display_name FROM users WHERE email = ?", email)[0].display_name).toBe("Staré Meno");

    const { response } = await client.post("/account", { intent: "rename", displayName: "  Nové Meno  " });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/account");
    // Said on the page the redirect leads to, in its own status line (not by the toast), and not again on reload.
    const renamed = (await client.get("/account")).doc;
    expect(pageStatus(renamed)).toBe("Meno je zmenené.");
    expect(renamed.querySelector(".action-notice")?.text).toBe("");
    expect(pageStatus((await client.get("/account")).doc)).toBeUndefined();
    // The page cache follows the change: the article names its author anew.
    expect((await client.get(`/posts/${postId}`)).doc.querySelector(".post-meta")?.text).toContain("Nové Meno");
    expect((await new Client(base).get(`/posts/${postId}`)).doc.querySelector(".post-meta")?.text).toContain("Nové Meno");
  });

  it("changes the password with the current one, ending every other session but this one", async () => {
    const { client, email } = await registerUser(base);
    const phone = await anotherDevice(email, CHROME_ANDROID);

    const wrong = await client.post("/account", { intent: "password", currentPassword: "nespravne-heslo", password: "nové-heslo-123", confirmPassword: "nové-heslo-123" });
    expect(wrong.response.status).toBe(400);
    expect(errorOf(wrong.doc)).toBe("Heslo nie je správne.");
    expect(wrong.doc.querySelector("#field-currentPassword")?.getAttribute("aria-invalid")).toBe("true");
    const differ = await client.post("/account", { intent: "password", currentPassword: GOOD_PASSWORD, password: "nové-heslo-123", confirmPassword: "ine-heslo-123" });
    expect(errorOf(differ.doc)).toBe("Passwords do not match");
    const short = await client.post("/account", { intent: "password", currentPassword: GOOD_PASSWORD, password: "kratke", confirmPassword: "kratke" });
    expect(errorOf(short.doc)).toBe("Heslo musí mať aspoň 8 znakov.");
    expect(await phone.isSignedIn()).toBe(true);

    const { response } = await client.post("/account", { intent: "password", currentPassword: GOOD_PASSWORD, password: "nové-heslo-123", confirmPassword: "nové-heslo-123" });
    expect(response.status).toBe(303);
    expect(await client.isSignedIn()).toBe(true);
    expect(await phone.isSignedIn()).toBe(false);
    expect((await new Client(base).post("/signinsignup", { intent: "signin", email, password: GOOD_PASSWORD })).response.status).toBe(400);
    await anotherDevice(email, FIREFOX, "nové-heslo-123");
  });

  it("throttles wrong current passwords like sign-ins", async () => {
    const { client } = await registerUser(base);
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      statuses.push((await client.post("/account", { intent: "password", currentPassword: `zle-heslo-${i}`, password: "nové-heslo-123", confirmPassword: "nové-heslo-123" })).response.status);
    }
    expect(statuses).toEqual([...Array(10).fill(400), 429]);
  });

  it("lists the account's sessions by device and signs one out, or all", async () => {
    const { client, email } = await registerUser(base);
    const laptop = await anotherDevice(email, FIREFOX);
    const phone = await anotherDevice(email, CHROME_ANDROID);
    const { doc } = await laptop.get("/account");
    const sessions = doc.querySelectorAll(".session-list > li");
    expect(sessions).toHaveLength(3);
    const text = sessions.map((li) => li.text.replace(/\s+/g, " "));
    expect(text.filter((t) => t.includes("Firefox · Windows"))).toHaveLength(1);
    expect(text.find((t) => t.includes("Firefox · Windows"))).toContain("toto zariadenie");
    expect(text.some((t) => t.includes("Chrome · Android"))).toBe(true);

    const phoneHandle = sessions.find((li) => li.text.includes("Chrome · Android"))!.querySelector('input[name="session"]')!.getAttribute("value")!;
    // Nothing in the page leads to a cookie: handles are not the stored hashes.
    const hashes = query<{ id_hash: string }>("SELECT id_hash FROM sessions WHERE user_id = ?", userId(email)).map((r) => r.id_hash);
    for (const hash of hashes) expect(doc.toString()).not.toContain(hash.slice(0, 16));
    const { response } = await laptop.post("/account", { intent: "endSession", session: phoneHandle });
    expect(response.status).toBe(303);
    expect(await phone.isSignedIn()).toBe(false);
    expect(await client.isSignedIn()).toBe(true);

    const all = await laptop.post("/account", { intent: "endAll" });
    expect(all.response.headers.get("location")).toBe("/signinsignup");
    expect(pageStatus((await laptop.get("/signinsignup")).doc)).toBe("Odhlásili sme vás na všetkých zariadeniach.");
    expect(await laptop.isSignedIn()).toBe(false);
    expect(await client.isSignedIn()).toBe(false);
    expect(query("SELECT 1 FROM sessions WHERE user_id = ?", userId(email))).toHaveLength(0);
  });

  it("refuses a forged form for another account's session", async () => {
    const { email: victimEmail } = await registerUser(base);
    const victim = await anotherDevice(victimEmail, CHROME_ANDROID);
    // Each device lists the others' handles: here, the victim's first session's.
    const handles = (await victim.get("/account")).doc.querySelectorAll(".session-list input[name='session']").map((i) => i.getAttribute("value")!);
    expect(handles.length).toBeGreaterThan(0);
    const { client: attacker } = await registerUser(base);
    for (const handle of handles) {
      await attacker.post("/account", { intent: "endSession", session: handle });
    }
    expect(query("SELECT 1 FROM sessions WHERE user_id = ?", userId(victimEmail))).toHaveLength(2);
    expect(await victim.isSignedIn()).toBe(true);
    // A form from another site does not get through at all.
    const crossSite = await attacker.post("/account", { intent: "endAll" }, { Origin: "https://zly.example" });
    expect(crossSite.response.status).toBe(403);
    expect(await attacker.isSignedIn()).toBe(true);
  });

  it("keeps at most 20 sessions per account (as docs/accounts.md says), ending the one unused longest", async () => {
    const { client, email } = await registerUser(base);
    const id = userId(email);
    // As if 19 more devices had signed in earlier (each sign-in costs 130 ms of bcrypt), the registration's session used most recently.
    readDatabase(databasePath, (db) => {
      const insert = db.prepare("INSERT INTO sessions (id_hash, user_id, remember, created_at, expires_at, user_agent, last_seen_at) VALUES (?, ?, 0, ?, ?, '', ?)");
      for (let i = 0; i < 19; i++) insert.run(`stary-${id}-${i}`, id, Date.now() - 60_000 + i, Date.now() + 3_600_000, Date.now() - 60_000 + i);
    }, true);
    expect(query("SELECT 1 FROM sessions WHERE user_id = ?", id)).toHaveLength(20);
    await anotherDevice(email, FIREFOX);
    const left = query<{ id_hash: string }>("SELECT id_hash FROM sessions WHERE user_id = ?", id).map((r) => r.id_hash);
    expect(left).toHaveLength(20);
    expect(left).not.toContain(`stary-${id}-0`);
    expect(await client.isSignedIn()).toBe(true);
  });
});

describe("/account/delete", () => {
  it("says what happens, needs the password, then deletes the account with its articles, images, sessions and tokens", async () => {
    const { client, email } = await registerUser(base, { displayName: "Odchádzam" });
    const id = userId(email);
    const postId = (await publish(client, "Článok odchádzajúceho"))!;
    const image = query<{ image: string }>("SELECT image FROM posts WHERE id = ?", postId)[0].image;
    const other = await anotherDevice(email, FIREFOX);
    await new Client(base).post("/signinsignup", { intent: "forgot", email });
    // The reset link is made after the answer: wait for it, so that its deletion is tested.
    for (let i = 0; i < 50 && query("SELECT 1 FROM password_reset_tokens WHERE user_id = ?", id).length === 0; i++) await new Promise((r) => setTimeout(r, 100));
    expect(query("SELECT 1 FROM password_reset_tokens WHERE user_id = ?", id)).toHaveLength(1);

    const page = await client.get("/account/delete");
    expect(page.doc.querySelector("main")?.text).toContain("všetky vaše články (1 článok)");
    expect(page.doc.querySelector("main")?.text).toContain("Vrátiť sa to nedá.");

    const wrong = await client.post("/account/delete", { password: "zle-heslo-123" });
    expect(wrong.response.status).toBe(400);
    expect(errorOf(wrong.doc)).toBe("Heslo nie je správne.");
    expect(wrong.doc.querySelector("#field-password")?.getAttribute("aria-invalid")).toBe("true");
    expect(userId(email)).toBe(id);

    const { response } = await client.post("/account/delete", { password: GOOD_PASSWORD });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/signinsignup");
    expect(response.headers.getSetCookie().join()).toMatch(/dejiny_session=;.*Max-Age=0/i);
    // The session's cookie ends and the notice's comes in the same answer: the sign-in page (a visitor's) says it once.
    expect(pageStatus((await client.get("/signinsignup")).doc)).toBe("Váš účet je zrušený. Ďakujeme, že ste s\u00a0nami písali históriu.");
    expect(pageStatus((await client.get("/signinsignup")).doc)).toBeUndefined();
    expect(userId(email)).toBeUndefined();
    for (const table of ["sessions", "password_reset_tokens", "pending_images", "reports"]) {
      expect(query(`SELECT 1 FROM ${table} WHERE ${table === "reports" ? "reporter_id" : "user_id"} = ?`, id), table).toHaveLength(0);
    }
    expect(query("SELECT 1 FROM posts WHERE author_id = ?", id)).toHaveLength(0);
    expect(readdirSync(uploadsDir).filter((name) => name.startsWith(image))).toEqual([]);
    expect((await new Client(base).get(`/posts/${postId}`)).response.status).toBe(404);
    expect(await other.isSignedIn()).toBe(false);
    expect((await new Client(base).post("/signinsignup", { intent: "signin", email, password: GOOD_PASSWORD })).response.status).toBe(400);
  });
});
