import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ACCOUNT_MESSAGES } from "~/lib/rules";
import { Client, GOOD_PASSWORD, registerUser, uniqueEmail } from "../../../scripts/lib/client";
import { startServer, type RunningServer } from "../../../scripts/lib/server";
import { readDatabase } from "../../support/http";
import { resetLinkIn, settledMailsTo, SUBJECTS } from "../../support/outbox";

// Issue 27, finding 5: nobody can lock an owner out. A server of its own (these
// tests use up throttling budgets), behind a "proxy" (TRUST_PROXY, an https
// PUBLIC_URL), so each client speaks from the address its X-Forwarded-For names.
let server: RunningServer;

beforeAll(async () => {
  server = await startServer({ TRUST_PROXY: "true", PUBLIC_URL: "https://dejiny.example", DEMO_CONTENT: "off" });
});
afterAll(async () => {
  await server.stop();
});

const signIn = (client: Client, email: string, password: string) => client.post("/signinsignup", { intent: "signin", email, password });
const status = async (answer: Promise<{ response: Response }>) => (await answer).response.status;
const tally = (statuses: number[]) => statuses.reduce<Record<number, number>>((t, s) => ({ ...t, [s]: (t[s] ?? 0) + 1 }), {});
const WRONG = "zle-heslo-123";

/** A browser of the owner that has signed in to the account before, and signed out again. */
async function ownersBrowser(email: string, password = GOOD_PASSWORD): Promise<Client> {
  const browser = new Client(server.url);
  expect(await status(signIn(browser, email, password))).toBe(303);
  expect(await status(browser.post("/signout", {}))).toBe(303);
  expect(browser.cookies.has("dejiny_session")).toBe(false);
  expect(browser.cookies.has("dejiny_device")).toBe(true);
  return browser;
}

/** `perAddress` wrong passwords for `email` from each of `attackers` (new addresses by default), side by side. */
async function attack(email: string, attackers: number | Client[], perAddress = 10): Promise<number[]> {
  const clients = typeof attackers === "number" ? Array.from({ length: attackers }, () => new Client(server.url)) : attackers;
  const statuses = await Promise.all(
    clients.map(async (attacker) => {
      const mine: number[] = [];
      for (let i = 0; i < perAddress; i++) mine.push(await status(signIn(attacker, email, `${WRONG}-${i}`)));
      return mine;
    }),
  );
  return statuses.flat();
}

describe("the audit's lock-out: 10 wrong passwords from each of many addresses", () => {
  it("lock out only browsers that never signed in; the owner's browser signs in, from anywhere", { timeout: 120_000 }, async () => {
    const { email } = await registerUser(server.url);
    const owner = await ownersBrowser(email);

    // 12 addresses × 10 wrong passwords: the untrusted pool (100) is used up, the rest refused unchecked.
    const attackers = Array.from({ length: 12 }, () => new Client(server.url));
    expect(tally(await attack(email, attackers))).toEqual({ 400: 100, 429: 20 });

    // A browser that never signed in, from a new address, is slowed as designed: refused, right password or not.
    const stranger = await signIn(new Client(server.url), email, GOOD_PASSWORD);
    expect(stranger.response.status).toBe(429);
    expect(stranger.doc.querySelector(".form-error")?.text).toContain("Príliš veľa pokusov");

    // The owner's browser that signed in before: on its own budget, from a new address…
    expect(await status(signIn(owner, email, GOOD_PASSWORD))).toBe(303);
    expect(await owner.isSignedIn()).toBe(true);
    // …and from one of the attacker's addresses (no per-address limit holds a trusted browser back).
    const atAttackers = new Client(server.url, attackers[0].address);
    atAttackers.cookies = new Map(owner.cookies);
    atAttackers.cookies.delete("dejiny_session");
    expect(await status(signIn(atAttackers, email, GOOD_PASSWORD))).toBe(303);
  });

  it("locks a trusted browser that fails too often out on its own, and no other", { timeout: 60_000 }, async () => {
    const { email } = await registerUser(server.url);
    const laptop = await ownersBrowser(email);
    const phone = await ownersBrowser(email);
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push(await status(signIn(laptop, email, `${WRONG}-${i}`)));
    expect(statuses).toEqual([...Array(10).fill(400), 429]);
    expect(await status(signIn(laptop, email, GOOD_PASSWORD))).toBe(429);
    // The owner's other browser, and browsers that never signed in, are not touched by the laptop's failures.
    expect(await status(signIn(phone, email, GOOD_PASSWORD))).toBe(303);
    expect(await status(signIn(new Client(server.url), email, GOOD_PASSWORD))).toBe(303);
  });
});

describe("a device cookie", () => {
  it("of another account, forged or tampered with, counts as none", async () => {
    const { email: victim } = await registerUser(server.url);
    const { email: other } = await registerUser(server.url);
    const otherBrowser = await ownersBrowser(other);
    const victimBrowser = await ownersBrowser(victim);
    const otherCookie = otherBrowser.cookies.get("dejiny_device")!;
    const victimCookie = victimBrowser.cookies.get("dejiny_device")!;

    // Lock the victim's account from one address (10 untrusted failures).
    const attacker = new Client(server.url);
    for (let i = 0; i < 10; i++) expect(await status(signIn(attacker, victim, `${WRONG}-${i}`))).toBe(400);
    const from = (cookie: string) => {
      const client = new Client(server.url, attacker.address);
      client.cookies.set("dejiny_device", cookie);
      return status(signIn(client, victim, GOOD_PASSWORD));
    };
    const [value, signature] = [victimCookie.slice(0, victimCookie.lastIndexOf(".")), victimCookie.slice(victimCookie.lastIndexOf(".") + 1)];
    const json = (tokens: string[]) => Buffer.from(encodeURIComponent(JSON.stringify(tokens))).toString("base64");
    const forged = [
      otherCookie, // another account's, signed by the site
      json(["A".repeat(32)]), // unsigned
      `${json(["A".repeat(32)])}.${signature}`, // someone else's signature
      `${value}x.${signature}`, // tampered
      value, // without its signature
      "x".repeat(8_000),
    ];
    for (const cookie of forged) expect(await from(cookie), cookie.slice(0, 40)).toBe(429);
    // The victim's own cookie, at the same address, is what counts.
    expect(await from(victimCookie)).toBe(303);
  });

  it("is HttpOnly, SameSite=Lax, kept for a year, and Secure when PUBLIC_URL is https, like the session cookie", async () => {
    const { email } = await registerUser(server.url);
    const { response } = await signIn(new Client(server.url), email, GOOD_PASSWORD);
    const [session] = response.headers.getSetCookie().filter((c) => c.startsWith("dejiny_session="));
    const [device] = response.headers.getSetCookie().filter((c) => c.startsWith("dejiny_device="));
    expect(device).toMatch(/; Max-Age=31536000/);
    for (const attribute of ["HttpOnly", "SameSite=Lax", "Secure", "Path=/"]) {
      expect(device).toContain(`; ${attribute}`);
      expect(session).toContain(`; ${attribute}`);
    }
  });

  it("is a new token at each sign-in, the old one forgotten; an account keeps at most 20 devices; a new password forgets the others", { timeout: 60_000 }, async () => {
    const { email } = await registerUser(server.url);
    const devices = () =>
      readDatabase(server.databasePath, (db) => (db.prepare("SELECT count(*) AS n FROM trusted_devices WHERE user_id = (SELECT id FROM users WHERE email = ?)").get(email) as { n: number }).n);
    expect(devices()).toBe(1);
    const others: Client[] = [];
    for (let i = 0; i < 21; i++) others.push(await ownersBrowser(email));
    expect(devices()).toBe(20);
    const browser = await ownersBrowser(email);
    const first = browser.cookies.get("dejiny_device");
    expect(await status(signIn(browser, email, GOOD_PASSWORD))).toBe(303);
    expect(browser.cookies.get("dejiny_device")).not.toBe(first);
    expect(devices()).toBe(20);

    // A new password on /account keeps this browser's device only.
    const newPassword = "nové-heslo-zariadenia-9";
    const changed = await browser.post("/account", { intent: "password", currentPassword: GOOD_PASSWORD, password: newPassword, confirmPassword: newPassword });
    expect(changed.response.status).toBe(303);
    expect(devices()).toBe(1);
    // The browser of someone who knew the old password is untrusted now: its failures count for the account from its address.
    const old = others.at(-1)!;
    for (let i = 0; i < 10; i++) expect(await status(signIn(old, email, `${WRONG}-${i}`))).toBe(400);
    expect(await status(signIn(old, email, newPassword))).toBe(429);
    expect(await status(signIn(browser, email, newPassword))).toBe(303);
  });
});

describe("password reset", () => {
  it("always gives the owner a working link: same answer for every request, at most 3 mails per 30 minutes", { timeout: 60_000 }, async () => {
    const { email } = await registerUser(server.url);
    // A stranger asks for the owner's reset 8 times, from several addresses.
    const answers = await Promise.all(Array.from({ length: 8 }, () => new Client(server.url).post("/signinsignup", { intent: "forgot", email })));
    expect(answers.map((a) => a.response.headers.get("location"))).toEqual(Array(8).fill("/signinsignup"));
    expect(await settledMailsTo(server.databasePath, email, 3, SUBJECTS.reset)).toHaveLength(3);

    // The owner asks too: the same answer, no fourth mail, and the newest link in the mailbox works.
    const owner = new Client(server.url);
    const asked = await owner.post("/signinsignup", { intent: "forgot", email });
    expect(asked.response.headers.get("location")).toBe("/signinsignup");
    const mails = await settledMailsTo(server.databasePath, email, 4, SUBJECTS.reset);
    expect(mails).toHaveLength(3);
    const link = resetLinkIn(mails.at(-1)!)!;
    const newPassword = "nové-heslo-po-útoku-5";
    expect(await status(owner.post(link, { password: newPassword, confirmPassword: newPassword }))).toBe(303);
    expect(await status(signIn(owner, email, newPassword))).toBe(303);
  });

  it("gets the owner in while strangers keep the account locked: the browser that reset the password is trusted", { timeout: 120_000 }, async () => {
    const { email } = await registerUser(server.url);
    await attack(email, 10);
    // The owner's new phone has never signed in: locked out with the others…
    const phone = new Client(server.url);
    expect(await status(signIn(phone, email, GOOD_PASSWORD))).toBe(429);
    // …so it asks for a link and sets a new password; the strangers lock the account again at once.
    expect(await status(phone.post("/signinsignup", { intent: "forgot", email }))).toBe(303);
    const [mail] = await settledMailsTo(server.databasePath, email, 1, SUBJECTS.reset);
    const newPassword = "nové-heslo-z-telefónu-3";
    expect(await status(phone.post(resetLinkIn(mail)!, { password: newPassword, confirmPassword: newPassword }))).toBe(303);
    expect(tally(await attack(email, 10))).toEqual({ 400: 100 });
    expect(await status(signIn(new Client(server.url), email, newPassword))).toBe(429);
    expect(await status(signIn(phone, email, newPassword))).toBe(303);
  });
});

describe("client addresses", () => {
  it("count an IPv6 client by its /64: rotating addresses inside it meets the limit", async () => {
    const { email } = await registerUser(server.url);
    const inside = (i: number) => new Client(server.url, `2001:db8:77:1:${i.toString(16)}:0:0:1`);
    for (let i = 1; i <= 10; i++) expect(await status(signIn(inside(i), email, `${WRONG}-${i}`))).toBe(400);
    expect(await status(signIn(inside(11), email, GOOD_PASSWORD))).toBe(429);
    expect(await status(signIn(new Client(server.url, "2001:db8:77:1::ffff"), email, GOOD_PASSWORD))).toBe(429);
    // Another /64 is another client.
    expect(await status(signIn(new Client(server.url, "2001:db8:77:2::1"), email, GOOD_PASSWORD))).toBe(303);
  });

  it("count ::ffff:a.b.c.d as the IPv4 address a.b.c.d", async () => {
    const { email } = await registerUser(server.url);
    for (let i = 0; i < 10; i++) expect(await status(signIn(new Client(server.url, "::ffff:203.0.113.9"), email, `${WRONG}-${i}`))).toBe(400);
    expect(await status(signIn(new Client(server.url, "203.0.113.9"), email, GOOD_PASSWORD))).toBe(429);
    expect(await status(signIn(new Client(server.url, "203.0.113.10"), email, GOOD_PASSWORD))).toBe(303);
  });
});

describe("registration with an e-mail that has an account", () => {
  it("says so, and one /64 can ask at most 30 times an hour, existing e-mails or new", { timeout: 60_000 }, async () => {
    const { email: taken } = await registerUser(server.url);
    const register = (i: number, email: string) =>
      new Client(server.url, `2001:db8:99:5::${(i + 1).toString(16)}`).post("/signinsignup", {
        intent: "register",
        displayName: `Zvedavec ${i}`,
        email,
        password: GOOD_PASSWORD,
        confirmPassword: GOOD_PASSWORD,
      });
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) {
      const answer = await register(i, i % 2 ? taken : uniqueEmail("register-64"));
      statuses.push(answer.response.status);
      if (i % 2) expect(answer.doc.querySelector(".form-error")?.text).toBe(ACCOUNT_MESSAGES.emailTaken);
    }
    expect(tally(statuses)).toEqual({ 303: 15, 400: 15 });
    // The 31st, from yet another address of the /64, is refused before anything is looked up.
    const over = await register(30, taken);
    expect(over.response.status).toBe(429);
    expect(over.doc.querySelector(".form-error")?.text).toBe(ACCOUNT_MESSAGES.tooManyAttempts);
  });
});
