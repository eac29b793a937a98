import Database from "better-sqlite3";
import type { HTMLElement } from "node-html-parser";
import { describe, expect, inject, it } from "vitest";
import { Client, GOOD_PASSWORD, registerUser, uniqueEmail } from "../../../scripts/lib/client";
import { TEST_PUBLIC_URL } from "../../support/accounts-env";
import { INTERNALS, pageStatus, readDatabase } from "../../support/http";
import { SUBJECTS } from "../../support/outbox";
import { sentMails, waitForMail } from "../../../scripts/lib/resend-stand-in";

const base = inject("baseUrl");
const databasePath = inject("databasePath");
const resendUrl = inject("resendUrl");

const withDatabase = <T>(run: (db: Database.Database) => T): T => readDatabase(databasePath, run, true);

async function signIn(client: Client, email: string, password: string, extra: Record<string, string> = {}) {
  return client.post("/signinsignup", { intent: "signin", email, password, ...extra });
}

function errorOf(doc: HTMLElement) {
  return doc.querySelector(".form-error")?.text;
}

describe("register", () => {
  it("creates the account, starts a session and lands on /", async () => {
    const client = new Client(base);
    const email = uniqueEmail();
    const { response } = await client.post("/signinsignup", {
      intent: "register",
      displayName: "Mária Terézia",
      email,
      password: GOOD_PASSWORD,
      confirmPassword: GOOD_PASSWORD,
    });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/");
    const cookie = response.headers.getSetCookie().find((c) => c.startsWith("dejiny_session="))!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).toMatch(/Path=\//);
    expect(cookie).not.toMatch(/Secure/i); // plain http here; PUBLIC_URL https: turns it on
    expect(cookie).not.toMatch(/Max-Age/i); // no "Zapamätať si ma": ends with the browser
    const { doc } = await client.get("/");
    expect(doc.querySelector(".nav-signout button")?.text).toBe("Odhlásiť sa");
    expect(doc.querySelectorAll('a[href="/create-post"]').length).toBeGreaterThan(0);
    expect(doc.querySelector('a[href="/signinsignup"]')).toBeNull();
    // Only a hash of the password is stored: bcrypt, at the test servers' cost (the site's own is checked in hardening.test.ts).
    const stored = withDatabase((db) => db.prepare("SELECT password_hash, email FROM users WHERE email = ?").get(email)) as {
      password_hash: string;
    };
    expect(stored.password_hash).toMatch(/^\$2[aby]\$04\$.{53}$/);
  });

  it("keeps a remembered session beyond the browser", async () => {
    const client = new Client(base);
    const { response } = await client.post("/signinsignup", {
      intent: "register",
      displayName: "Ľudovít Štúr",
      email: uniqueEmail(),
      password: GOOD_PASSWORD,
      confirmPassword: GOOD_PASSWORD,
      remember: "on",
    });
    expect(response.headers.getSetCookie().join()).toMatch(/Max-Age=\d{6,}/);
  });

  const cases: [string, Record<string, string>, string, string[]][] = [
    ["passwords that differ", { confirmPassword: "ine-heslo-123" }, "Passwords do not match", ["password", "confirmPassword"]],
    ["a short password", { password: "kratke", confirmPassword: "kratke" }, "Heslo musí mať aspoň 8 znakov.", ["password"]],
    ["a password over 72 bytes", { password: "ž".repeat(37), confirmPassword: "ž".repeat(37) }, "najviac 72 bajtov", ["password"]],
    ["a malformed e-mail", { email: "nie-je-email" }, "Zlý e-mail alebo heslo", ["email"]],
    ["a missing display name", { displayName: "  " }, "Vyplňte, prosím, všetky polia.", ["displayName"]],
    ["a too long display name", { displayName: "x".repeat(51) }, "najviac 50 znakov", ["displayName"]],
  ];
  for (const [what, fields, message, invalid] of cases) {
    it(`refuses ${what}, keeping the input but never the password`, async () => {
      const client = new Client(base);
      const email = fields.email ?? uniqueEmail();
      const { response, doc, html } = await client.post("/signinsignup?mode=register", {
        intent: "register",
        displayName: "Janko Hraško",
        email,
        password: GOOD_PASSWORD,
        confirmPassword: GOOD_PASSWORD,
        ...fields,
      });
      expect(response.status).toBe(400);
      expect(errorOf(doc)).toContain(message);
      for (const name of invalid) {
        const input = doc.querySelector(`[name="${name}"]`)!;
        expect(input.getAttribute("aria-invalid")).toBe("true");
        expect(input.getAttribute("aria-describedby")).toBe("auth-error");
      }
      expect(doc.querySelector('#auth-error')).not.toBeNull();
      expect(doc.querySelector('[name="email"]')?.getAttribute("value")).toBe(email);
      expect(html).not.toContain(GOOD_PASSWORD);
      expect(response.headers.getSetCookie()).toEqual([]);
      const count = withDatabase((db) => (db.prepare("SELECT count(*) AS n FROM users WHERE email = ?").get(email.toLowerCase()) as { n: number }).n);
      expect(count).toBe(0);
    });
  }

  it("refuses an e-mail that is already registered, whatever its case", async () => {
    const { email } = await registerUser(base);
    const { response, doc } = await new Client(base).post("/signinsignup", {
      intent: "register",
      displayName: "Druhý",
      email: email.toUpperCase(),
      password: GOOD_PASSWORD,
      confirmPassword: GOOD_PASSWORD,
    });
    expect(response.status).toBe(400);
    expect(errorOf(doc)).toContain("už zaregistrovaný");
  });
});

describe("sign in", () => {
  it("starts a new session each time and honours a same-site redirectTo", async () => {
    const { email } = await registerUser(base);
    const first = new Client(base);
    const r1 = await signIn(first, email.toUpperCase(), GOOD_PASSWORD, { redirectTo: "/posts?tag=Morava" });
    expect(r1.response.status).toBe(303);
    expect(r1.response.headers.get("location")).toBe("/posts?tag=Morava");
    const second = new Client(base);
    await signIn(second, email, GOOD_PASSWORD);
    expect(first.cookies.get("dejiny_session")).toBeTruthy();
    expect(first.cookies.get("dejiny_session")).not.toBe(second.cookies.get("dejiny_session"));
    expect(await first.isSignedIn()).toBe(true);
    expect(await second.isSignedIn()).toBe(true);
  });

  it("never redirects to another site", async () => {
    const { email } = await registerUser(base);
    for (const target of ["//evil.example/x", "https://evil.example", "/\\evil.example", "javascript:alert(1)", "/%2F%2Fevil.example", "  //evil.example"]) {
      const { response } = await signIn(new Client(base), email, GOOD_PASSWORD, { redirectTo: target });
      const location = response.headers.get("location")!;
      expect(location.startsWith("/") && !location.startsWith("//") && !location.startsWith("/\\"), `${target} → ${location}`).toBe(true);
      expect(new URL(location, "http://dejiny.test").host).toBe("dejiny.test");
    }
  });

  // That both take the same time (one bcrypt comparison, at the real cost) is timed in hardening.test.ts.
  it("answers a wrong password and an unknown e-mail the same way", async () => {
    const { email } = await registerUser(base);
    const answers = new Set<string>();
    for (const address of [email, uniqueEmail("nobody")]) {
      const { response, doc } = await signIn(new Client(base), address, "nespravne-heslo");
      answers.add(`${response.status} ${errorOf(doc)}`);
    }
    expect([...answers]).toEqual(["400 Zlý e-mail alebo heslo"]);
  });

  it("answers a malformed e-mail with the same message", async () => {
    const { response, doc } = await signIn(new Client(base), "bez-zavinaca", "heslo12345");
    expect(response.status).toBe(400);
    expect(errorOf(doc)).toBe("Zlý e-mail alebo heslo");
  });

  it("names the e-mail fields as e-mail and the passwords as current or new, for autofill and password managers", async () => {
    const autocomplete = async (path: string) =>
      (await new Client(base).get(path)).doc.querySelectorAll('main input[type="email"], main input[type="password"]').map((input) => [input.getAttribute("name"), input.getAttribute("autocomplete")]);
    expect(await autocomplete("/signinsignup")).toEqual([
      ["email", "email"],
      ["password", "current-password"],
    ]);
    expect(await autocomplete("/signinsignup?mode=register")).toEqual([
      ["email", "email"],
      ["password", "new-password"],
      ["confirmPassword", "new-password"],
    ]);
    expect(await autocomplete("/signinsignup?forgot")).toContainEqual(["email", "email"]);
  });

  it("keeps the e-mail but not the password after a failure", async () => {
    const { email } = await registerUser(base);
    const { doc, html } = await signIn(new Client(base), email, "zle-heslo-12345");
    expect(doc.querySelector('[name="email"]')?.getAttribute("value")).toBe(email);
    expect(doc.querySelector('[name="password"]')?.getAttribute("value")).toBeUndefined();
    expect(html).not.toContain("zle-heslo-12345");
  });
});

describe("sessions", () => {
  it("sign-out ends the session on the server: a replayed cookie is a visitor", async () => {
    const { client } = await registerUser(base);
    const stolen = client.cookieHeader();
    expect(await client.isSignedIn()).toBe(true);
    const { response } = await client.post("/signout", {});
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/");
    expect(await client.isSignedIn()).toBe(false);
    const replay = await new Client(base).get("/posts", { headers: { Cookie: stolen } });
    expect(replay.doc.querySelector(".nav-signout")).toBeNull();
    expect(replay.doc.querySelector('a[href="/signinsignup"]')).not.toBeNull();
  });

  it("ignores a forged or tampered cookie", async () => {
    const { client } = await registerUser(base);
    const value = client.cookies.get("dejiny_session")!;
    const tampered = value.slice(0, 5) + (value[5] === "A" ? "B" : "A") + value.slice(6);
    for (const cookie of [`dejiny_session=${tampered}`, "dejiny_session=abc", "dejiny_session="]) {
      const { response, doc } = await new Client(base).get("/posts", { headers: { Cookie: cookie } });
      expect(response.status).toBe(200);
      expect(doc.querySelector(".nav-signout")).toBeNull();
    }
  });

  it("keeps signed-in pages out of shared caches", async () => {
    const { client } = await registerUser(base);
    for (const path of ["/", "/posts", "/conflicts"]) {
      const response = await client.request(path);
      expect(response.headers.get("cache-control")).toBe("private, no-store");
    }
    const data = await client.request("/posts.data");
    expect(data.headers.get("cache-control")).toBe("private, no-store");
  });

  it("signs out a disabled account at its next request, and lets it back when enabled", async () => {
    const { client, email } = await registerUser(base);
    withDatabase((db) => db.prepare("UPDATE users SET disabled_at = ? WHERE email = ?").run(Date.now(), email));
    expect(await client.isSignedIn()).toBe(false);
    const refused = await signIn(new Client(base), email, GOOD_PASSWORD);
    expect(refused.response.status).toBe(403);
    expect(errorOf(refused.doc)).toContain("zablokovaný");
    withDatabase((db) => db.prepare("UPDATE users SET disabled_at = NULL WHERE email = ?").run(email));
    const again = await signIn(new Client(base), email, GOOD_PASSWORD);
    expect(again.response.status).toBe(303);
  });

  it("expires sessions and purges old ones", async () => {
    const { client } = await registerUser(base);
    withDatabase((db) => db.prepare("UPDATE sessions SET expires_at = ?").run(Date.now() - 1000));
    expect(await client.isSignedIn()).toBe(false);
    await registerUser(base); // a sign-in purges expired sessions
    const left = withDatabase((db) => (db.prepare("SELECT count(*) AS n FROM sessions WHERE expires_at < ?").get(Date.now()) as { n: number }).n);
    expect(left).toBe(0);
  });
});

describe("navigation by state", () => {
  it("shows sign-in to visitors (not on the sign-in page) and add-article/sign-out to users", async () => {
    const visitor = new Client(base);
    const home = await visitor.get("/");
    expect(home.doc.querySelectorAll('header a[href="/signinsignup"]').length).toBe(1); // one navigation for every width
    expect(home.doc.querySelector('header a[href="/create-post"]')).toBeNull();
    expect(home.doc.querySelector(".nav-signout")).toBeNull();
    const signInPage = await visitor.get("/signinsignup");
    expect(signInPage.doc.querySelector('header a[href="/signinsignup"]')).toBeNull();
  });

  it("sends a signed-in user away from the sign-in page", async () => {
    const { client } = await registerUser(base);
    const { response } = await client.get("/signinsignup");
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/");
  });
});

describe("cross-site requests", () => {
  it("refuses state-changing requests from another site", async () => {
    const { email } = await registerUser(base);
    const attempts: Record<string, string>[] = [
      { Origin: "https://evil.example" },
      { Origin: "null" },
      { "Sec-Fetch-Site": "cross-site" },
      { "Sec-Fetch-Site": "same-site", Origin: "http://sub.evil.example" },
    ];
    for (const headers of attempts) {
      const client = new Client(base);
      const response = await client.request("/signinsignup", {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers },
        body: new URLSearchParams({ intent: "signin", email, password: GOOD_PASSWORD }),
      });
      expect(response.status, JSON.stringify(headers)).toBe(403);
      expect(client.cookies.size).toBe(0);
    }
  });

  it("refuses a cross-site sign-out", async () => {
    const { client } = await registerUser(base);
    const response = await client.request("/signout", { method: "POST", headers: { Origin: "https://evil.example" } });
    expect(response.status).toBe(403);
    expect(await client.isSignedIn()).toBe(true);
  });

  it("accepts same-origin requests", async () => {
    const { email } = await registerUser(base);
    const { response } = await signIn(new Client(base), email, GOOD_PASSWORD, {});
    expect(response.status).toBe(303);
    const fetchMetadata = await new Client(base).request("/signinsignup", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", "Sec-Fetch-Site": "same-origin", Origin: base },
      body: new URLSearchParams({ intent: "signin", email, password: GOOD_PASSWORD }),
    });
    expect(fetchMetadata.status).toBe(303);
  });
});

describe("password reset", () => {
  async function requestReset(email: string, headers: Record<string, string> = {}, client = new Client(base)) {
    return client.post("/signinsignup?forgot", { intent: "forgot", email }, headers);
  }

  async function resetLink(email: string) {
    const before = (await sentMails(resendUrl)).filter((m) => [m.to].flat().includes(email) && SUBJECTS.reset.test(m.subject)).length;
    const { response } = await requestReset(email, { Host: "evil.example" });
    expect(response.status).toBe(303);
    const mail = await waitForMail(resendUrl, email, before, SUBJECTS.reset);
    const link = mail.text.match(/https?:\/\/\S+\/reset-password\?token=\S+/)![0];
    return { mail, link, path: link.slice(TEST_PUBLIC_URL.length) };
  }

  it("asks for the e-mail when it is empty", async () => {
    const { response, doc } = await requestReset("");
    expect(response.status).toBe(400);
    expect(doc.querySelector("#forgot-error")?.text).toBe("Please enter your email address.");
    expect(doc.querySelector('[role="dialog"]')).not.toBeNull();
  });

  it("answers the same for known and unknown e-mails, and mails only the known", async () => {
    const { email } = await registerUser(base);
    const unknown = uniqueEmail("nobody");
    for (const address of [email, unknown]) {
      const client = new Client(base);
      const asked = await requestReset(address, {}, client);
      expect(asked.response.status).toBe(303);
      expect(asked.response.headers.get("location")).toBe("/signinsignup");
      // Said on the sign-in page the answer leads to, the dialog closed; a reload says it no more.
      const page = await client.get("/signinsignup");
      expect(pageStatus(page.doc)).toContain("Ak k\u00a0tomuto e-mailu existuje účet");
      expect(page.doc.querySelector('[role="dialog"]')).toBeNull();
      expect(pageStatus((await client.get("/signinsignup")).doc)).toBeUndefined();
    }
    await waitForMail(resendUrl, email, 0, SUBJECTS.reset);
    // An address that once said it (a bookmark, a shared link) says nothing.
    expect(pageStatus((await new Client(base).get("/signinsignup?resetSent")).doc)).toBeUndefined();
    await new Promise((r) => setTimeout(r, 200));
    expect((await sentMails(resendUrl)).some((m) => [m.to].flat().includes(unknown))).toBe(false);
  });

  it("sends a Slovak e-mail through the Resend API with a link built from PUBLIC_URL", async () => {
    const { email } = await registerUser(base);
    const { mail, link } = await resetLink(email);
    expect(mail.authorization).toBe("Bearer re_test_key");
    expect(mail.from).toBe("Dejiny <noreply@dejiny.test>");
    expect(mail.subject).toContain("Obnovenie hesla");
    expect(mail.html).toContain(link.replace(/&/g, "&amp;"));
    expect(link.startsWith(`${TEST_PUBLIC_URL}/reset-password?token=`)).toBe(true);
    expect(link).not.toContain("evil.example");
    const token = new URL(link).searchParams.get("token")!;
    expect(Buffer.from(token, "base64url")).toHaveLength(32);
    // Only a hash of the token is stored.
    const stored = withDatabase((db) => db.prepare("SELECT token_hash FROM password_reset_tokens").all()) as { token_hash: string }[];
    expect(stored.some((row) => row.token_hash === token)).toBe(false);
    expect(stored.every((row) => /^[0-9a-f]{64}$/.test(row.token_hash))).toBe(true);
  });

  it("sets a new password once, revokes every session, and cancels the other links", async () => {
    const { client, email } = await registerUser(base);
    const older = await resetLink(email);
    const { path } = await resetLink(email);
    const form = await new Client(base).get(path);
    expect(form.doc.querySelector('input[name="password"]')).not.toBeNull();

    const mismatch = await new Client(base).post(path, { password: "nove-heslo-123", confirmPassword: "ine-heslo-123" });
    expect(mismatch.response.status).toBe(400);
    expect(mismatch.doc.querySelector(".form-error")?.text).toBe("Passwords do not match");

    const browser = new Client(base);
    const done = await browser.post(path, { password: "nove-heslo-123", confirmPassword: "nove-heslo-123" });
    expect(done.response.status).toBe(303);
    expect(done.response.headers.get("location")).toBe("/signinsignup");
    // Both cookies came with the answer: the device's (this browser's own sign-in budget) and the notice's, said on the sign-in page.
    expect(browser.cookies.has("dejiny_device")).toBe(true);
    expect(pageStatus((await browser.get("/signinsignup")).doc)).toBe("Heslo je zmenené. Prihláste sa, prosím, novým heslom.");
    expect(await client.isSignedIn()).toBe(false);
    expect((await signIn(new Client(base), email, GOOD_PASSWORD)).response.status).toBe(400);
    expect((await signIn(new Client(base), email, "nove-heslo-123")).response.status).toBe(303);

    const reuse = await new Client(base).post(path, { password: "tretie-heslo-1", confirmPassword: "tretie-heslo-1" });
    expect(reuse.response.status).toBe(400);
    expect(reuse.doc.querySelector(".form-error")?.text).toContain("neplatný");
    const olderLink = await new Client(base).get(older.path);
    expect(olderLink.doc.querySelector('input[name="password"]')).toBeNull();
    expect(olderLink.doc.querySelector(".form-error")?.text).toContain("neplatný");
  });

  it("refuses tampered and expired tokens", async () => {
    const { email } = await registerUser(base);
    const { path } = await resetLink(email);
    const tampered = path.slice(0, -2) + (path.endsWith("AA") ? "BB" : "AA");
    const t = await new Client(base).post(tampered, { password: "nove-heslo-123", confirmPassword: "nove-heslo-123" });
    expect(t.response.status).toBe(400);
    withDatabase((db) => db.prepare("UPDATE password_reset_tokens SET expires_at = ? WHERE used_at IS NULL").run(Date.now() - 1));
    const expired = await new Client(base).post(path, { password: "nove-heslo-123", confirmPassword: "nove-heslo-123" });
    expect(expired.response.status).toBe(400);
    expect((await signIn(new Client(base), email, GOOD_PASSWORD)).response.status).toBe(303);
  });

  it("never shows internals on odd input", async () => {
    for (const path of ["/reset-password", "/reset-password?token=", "/reset-password?token=%00%FF", "/reset-password?token[]=x"]) {
      const { response, html } = await new Client(base).get(path);
      expect(response.status).toBe(200);
      expect(html).not.toMatch(INTERNALS);
    }
  });
});
