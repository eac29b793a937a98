import type Database from "better-sqlite3";
import { describe, expect, inject, it } from "vitest";
import { Client, GOOD_PASSWORD, registerUser, uniqueEmail } from "../../../scripts/lib/client";
import { makeImage } from "../../../scripts/lib/images";
import { postForm, publish } from "../../../scripts/lib/publish";
import { expectFieldRefused, readDatabase } from "../../support/http";

/** Issue 27, finding 6: look-alike and invisible identities, over HTTP against the built server. */

const base = inject("baseUrl");
const databasePath = inject("databasePath");

const ZWSP = "\u200b";
const RLO = "\u202e";
const CYRILLIC_A = "\u0410";

const NAME_INVISIBLE = "Zobrazované meno musí obsahovať aspoň jedno viditeľné písmeno, číslicu alebo znak.";
const NAME_CONTROLS = "Zobrazované meno nesmie obsahovať riadiace ani neviditeľné znaky.";
const NAME_TAKEN = "Toto meno, alebo meno, ktoré sa naň na nerozoznanie podobá, už má iný účet. Zvoľte si, prosím, iné.";
const BAD_EMAIL = "Zlý e-mail alebo heslo";

const query = <T>(sql: string, ...params: unknown[]) => readDatabase(databasePath, (db: Database.Database) => db.prepare(sql).all(...params) as T[]);
const nameOf = (email: string) => query<{ display_name: string }>("SELECT display_name FROM users WHERE email = ?", email)[0]?.display_name;
const errorOf = (doc: { querySelector(s: string): { text: string } | null }) => doc.querySelector(".form-error")?.text;

const register = (displayName: string, email = uniqueEmail("identity")) =>
  new Client(base).post("/signinsignup", { intent: "register", displayName, email, password: GOOD_PASSWORD, confirmPassword: GOOD_PASSWORD });

// "Admin" is the audit's name; the account that owns it is made once, here.
const admin = registerUser(base, { displayName: "Admin" });

describe("registration refuses the audit's names and e-mails, keeping the form", () => {
  const names: [string, string, string][] = [
    ["a lone zero-width space", ZWSP, NAME_INVISIBLE],
    ['"Admin" and an invisible character', `Admin${ZWSP}`, NAME_CONTROLS],
    ["an exact copy of another user's name", "Admin", NAME_TAKEN],
    ['a Cyrillic "Аdmin"', `${CYRILLIC_A}dmin`, NAME_TAKEN],
    ["the same name in other case and spacing", " ad min ", NAME_TAKEN],
    ["the demo author's name", "Redakcia Dejín", NAME_TAKEN],
  ];
  it.each(names)("%s", async (_, displayName, message) => {
    await admin;
    const email = uniqueEmail("identity");
    const reply = await register(displayName, email);
    expectFieldRefused(reply, "displayName", message, displayName.trim());
    expect(reply.doc.querySelector("#field-email")?.getAttribute("value")).toBe(email);
    expect(nameOf(email)).toBeUndefined();
  });

  const emails: [string, string][] = [
    ["a Cyrillic look-alike", `${CYRILLIC_A}dmin@example.com`],
    ["an invisible character", `admin${ZWSP}@example.com`],
    ["display-name syntax", "<admin@example.com>"],
  ];
  it.each(emails)("an e-mail with %s", async (_, email) => {
    expectFieldRefused(await register("Nový Čitateľ Identity", email), "email", BAD_EMAIL, email);
    expect(query("SELECT 1 FROM users WHERE email = ?", email.toLowerCase())).toEqual([]);
    // Signing in with it says what any failed sign-in says.
    const signIn = await new Client(base).post("/signinsignup", { intent: "signin", email, password: GOOD_PASSWORD });
    expect(signIn.response.status).toBe(400);
    expect(errorOf(signIn.doc)).toBe(BAD_EMAIL);
  });

  it("accepts Slovak names that differ only in their diacritics, stored NFC", async () => {
    const names = ["Žofia Identitná", "Zofia Identitna", "Ľudovít Identita", "Ludovit Identita"];
    for (const name of names) expect((await register(name)).response.status).toBe(303);
    const email = uniqueEmail("nfc");
    // "Ž" typed as Z and a combining caron.
    expect((await register("Z\u030cofka Identitná", email)).response.status).toBe(303);
    expect(nameOf(email)).toBe("Žofka Identitná");
    expect((await register("Žofka Identitná")).response.status).toBe(400);
  });
});

describe("renaming refuses the audit's names", () => {
  it("refuses each, keeps the name, and lets the owner change the look of their own", async () => {
    await admin;
    const { client, email } = await registerUser(base, { displayName: "Premenovaný Identita" });
    const cases: [string, string][] = [
      [ZWSP, NAME_INVISIBLE],
      [`Admin${ZWSP}`, NAME_CONTROLS],
      ["Admin", NAME_TAKEN],
      [`${CYRILLIC_A}dmin`, NAME_TAKEN],
    ];
    for (const [displayName, message] of cases) expectFieldRefused(await client.post("/account", { intent: "rename", displayName }), "displayName", message, displayName);
    expect(nameOf(email)).toBe("Premenovaný Identita");
    // Its own name in another case is no one else's.
    expect((await client.post("/account", { intent: "rename", displayName: "PREMENOVANÝ IDENTITA" })).response.status).toBe(303);
    expect(nameOf(email)).toBe("PREMENOVANÝ IDENTITA");
    // A name it leaves is free again.
    expect((await client.post("/account", { intent: "rename", displayName: "Celkom Iná Identita" })).response.status).toBe(303);
    expect((await register("Premenovaný Identita")).response.status).toBe(303);
  });

  it("shows an admin an old look-alike account's unseen characters and likeness", async () => {
    const { email: adminEmail, client: adminClient } = await registerUser(base, { displayName: "Správca Identít" });
    const { email: original } = await registerUser(base, { displayName: "Stará Identita" });
    const { email: copy } = await registerUser(base, { displayName: "Kópia Identity" });
    // A look-alike made before the rules, as the audit left it: written straight into the database.
    readDatabase(
      databasePath,
      (db: Database.Database) => {
        db.prepare("UPDATE users SET is_admin = 1 WHERE email = ?").run(adminEmail);
        const like = "(SELECT name_skeleton FROM users WHERE email = :original)";
        db.prepare(`UPDATE users SET display_name = :name, email = :email, name_skeleton = ${like}, search_text = 'stara identita' WHERE email = :copy`).run({
          name: `Stará Identita${ZWSP}`,
          email: `st${CYRILLIC_A}ra@example.com`,
          original,
          copy,
        });
      },
      true,
    );
    const { doc } = await adminClient.get(`/admin?q=${encodeURIComponent("Stará Identita")}`);
    const rows = doc.querySelectorAll(".account-table tbody tr").map((tr) => tr.text);
    expect(rows).toHaveLength(2);
    for (const row of rows) expect(row).toContain("(podobá sa na meno iného účtu)");
    expect(rows.find((row) => row.includes("\\u{200b}"))).toContain("st\\u{410}ra@example.com");
  });
});

describe("article bodies", () => {
  it("lose a raw NUL: neither stored nor sent", async () => {
    const { client } = await registerUser(base);
    const id = await publish(client, "Článok s NUL", ["Ostatné"], "Pred\u0000po, a \u001b[31mescape");
    expect(id).not.toBeNull();
    const [{ content, source }] = query<{ content: string; source: string }>("SELECT content, content_source AS source FROM posts WHERE id = ?", id);
    expect(content).toBe("Predpo, a [31mescape");
    expect(source).toBe("Predpo, a [31mescape");
    const page = await new Client(base).get(`/posts/${id}`);
    expect(page.html.includes("\u0000") || page.html.includes("\u001b")).toBe(false);
    expect(page.html).toContain("Predpo");
  });

  it("refuse an unclosed bidi override, with the form kept", async () => {
    const { client } = await registerUser(base);
    const content = `Text ${RLO}obrátený bez konca`;
    const response = await client.request("/create-post", {
      method: "POST",
      body: postForm("Článok s obrátením", content, await makeImage("jpeg", 480, 300)),
      headers: { Origin: client.base },
    });
    expect(response.status).toBe(400);
    const { parse } = await import("node-html-parser");
    const doc = parse(await response.text());
    expect(errorOf(doc)).toContain("značku smeru textu");
    expect(doc.querySelector("#field-content")?.getAttribute("aria-invalid")).toBe("true");
    expect(doc.querySelector("#field-content")?.text).toBe(content);
    expect(query("SELECT 1 FROM posts WHERE title = ?", "Článok s obrátením")).toEqual([]);
  });
});
