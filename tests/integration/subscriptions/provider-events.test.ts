import { createHash, createHmac, randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SUBSCRIPTION_MESSAGES } from "~/lib/subscriptions";
import { Client, uniqueEmail } from "../../../scripts/lib/client";
import { startServer, type RunningServer } from "../../../scripts/lib/server";
import { sharedServerEnv } from "../../support/accounts-env";
import { readDatabase } from "../../support/http";
import { startResendStandIn } from "../../../scripts/lib/resend-stand-in";
import { confirmedSubscription as confirmedSubscriptionBy } from "../../support/subscriptions";

/**
 * Resend's bounce and complaint webhook (POST /webhooks/resend), on servers
 * of their own: one with RESEND_WEBHOOK_SECRET, one without. Requests are
 * signed the Svix way, as Resend sends them (no cookie, no Origin): a hard
 * bounce or a complaint ends a confirmed subscription and suppresses the
 * address; anything unsigned, stale, transient or too large changes nothing.
 */

const KEY = randomBytes(24);
const SECRET = `whsec_${KEY.toString("base64")}`;
const OTHER_SECRET = `whsec_${randomBytes(24).toString("base64")}`;

let standIn: Awaited<ReturnType<typeof startResendStandIn>>;
let server: RunningServer;
let withoutSecret: RunningServer;

beforeAll(async () => {
  standIn = await startResendStandIn();
  [server, withoutSecret] = await Promise.all([startServer({ ...sharedServerEnv(standIn.url), RESEND_WEBHOOK_SECRET: SECRET }), startServer(sharedServerEnv(standIn.url))]);
});

afterAll(async () => {
  await Promise.all([server?.stop(), withoutSecret?.stop()]);
  await standIn?.close();
});

type SubscriberRow = { id: string; status: string };
const subscriber = (email: string) => readDatabase(server.databasePath, (db) => db.prepare("SELECT id, status FROM subscribers WHERE email = ?").get(email)) as SubscriberRow | undefined;
const suppressed = (email: string) =>
  readDatabase(server.databasePath, (db) =>
    db.prepare("SELECT count(*) FROM subscription_suppressions WHERE email_hash = ?").pluck().get(createHash("sha256").update(`dejiny-suppression:${email}`).digest("hex")),
  ) === 1;

/** Subscribe by the form, press the mailed link's button: the settings page's path. */
async function confirmedSubscription(email: string): Promise<string> {
  const { settings } = await confirmedSubscriptionBy(server.url, standIn.url, email);
  expect(subscriber(email)?.status).toBe("confirmed");
  return settings;
}

type EventOptions = { type?: string; bounceType?: string; createdAt?: string };
const resendEvent = (to: string, { type = "email.bounced", bounceType = "Permanent", createdAt = new Date().toISOString() }: EventOptions = {}) =>
  JSON.stringify({
    type,
    created_at: createdAt,
    data: {
      created_at: createdAt,
      email_id: randomBytes(8).toString("hex"),
      from: "Dejiny <noreply@dejiny.test>",
      to: [to],
      subject: "Nové články – Dejiny",
      ...(type === "email.bounced" ? { bounce: { message: "The recipient's mail server rejected the mail.", subType: "General", type: bounceType } } : {}),
    },
  });

/** The Svix headers for `body`, signed with `secret` at `seconds` (now by default). */
function svixHeaders(body: string | Buffer, { secret = SECRET, seconds = Math.floor(Date.now() / 1000), id = `msg_${randomBytes(8).toString("hex")}` } = {}) {
  const key = Buffer.from(secret.slice("whsec_".length), "base64");
  const signature = createHmac("sha256", key).update(`${id}.${seconds}.`).update(body).digest("base64");
  return { "svix-id": id, "svix-timestamp": String(seconds), "svix-signature": `v1,${signature}`, "Content-Type": "application/json" };
}

/** POST as Resend does: no cookie, no Origin, no Sec-Fetch-Site. */
const deliver = (body: string, headers: Record<string, string> = svixHeaders(body), base = server.url) =>
  fetch(`${base}/webhooks/resend`, { method: "POST", body, headers, redirect: "manual" });

async function expectSettingsInvalid(settings: string) {
  const page = await new Client(server.url).get(settings);
  expect(page.response.status).toBe(404);
  expect(page.doc.querySelector("main")?.text).toContain(SUBSCRIPTION_MESSAGES.manageInvalid);
}

describe("Resend's webhook", () => {
  it("ends a confirmed subscription on a hard bounce, suppresses the address, logs it masked, and takes repeats", async () => {
    const email = uniqueEmail("odraz");
    const settings = await confirmedSubscription(email);
    const body = resendEvent(email);
    const headers = svixHeaders(body);
    const response = await deliver(body, headers);
    expect(response.status).toBe(200);
    expect(subscriber(email)).toBeUndefined();
    expect(suppressed(email)).toBe(true);
    await expectSettingsInvalid(settings);
    // Svix repeats an event (same id, a new timestamp and signature) until it is answered: the same answer, nothing more to do.
    expect((await deliver(body, svixHeaders(body, { id: headers["svix-id"] }))).status).toBe(200);
    expect(suppressed(email)).toBe(true);
    // The operator sees it, without the address in full.
    const [local, domain] = email.split("@");
    expect(server.output()).toContain(`bounce (Permanent) for ${local[0]}***@${domain}: subscription ended`);
    expect(server.output()).not.toContain(email);
  });

  it("ends a confirmed subscription on a complaint", async () => {
    const email = uniqueEmail("staznost");
    const settings = await confirmedSubscription(email);
    const body = resendEvent(email, { type: "email.complained" });
    expect((await deliver(body)).status).toBe(200);
    expect(subscriber(email)).toBeUndefined();
    expect(suppressed(email)).toBe(true);
    await expectSettingsInvalid(settings);
  });

  it("suppresses an address with no subscription (written in any case, with a display name), and a new confirmed consent lifts it", async () => {
    const email = uniqueEmail("bez-odberu");
    expect((await deliver(resendEvent(`Niekto <${email.toUpperCase()}>`))).status).toBe(200);
    expect(suppressed(email)).toBe(true);
    await confirmedSubscription(email);
    expect(suppressed(email)).toBe(false);
  });

  it("leaves alone a subscription confirmed after the event (a late retry)", async () => {
    const email = uniqueEmail("neskoro");
    await confirmedSubscription(email);
    const body = resendEvent(email, { createdAt: new Date(Date.now() - 60 * 60 * 1000).toISOString() });
    expect((await deliver(body)).status).toBe(200);
    expect(subscriber(email)?.status).toBe("confirmed");
    expect(suppressed(email)).toBe(false);
  });

  it("changes nothing on a transient bounce, or an event of another kind", async () => {
    const email = uniqueEmail("docasne");
    await confirmedSubscription(email);
    for (const bounceType of ["Transient", "Undetermined"]) expect((await deliver(resendEvent(email, { bounceType }))).status).toBe(200);
    expect((await deliver(resendEvent(email, { type: "email.delivered" }))).status).toBe(200);
    expect((await deliver(resendEvent(email, { type: "email.delivery_delayed" }))).status).toBe(200);
    expect(subscriber(email)?.status).toBe("confirmed");
    expect(suppressed(email)).toBe(false);
  });

  it("refuses a wrong, missing or borrowed signature with 400, and changes nothing", async () => {
    const email = uniqueEmail("podpis");
    await confirmedSubscription(email);
    const body = resendEvent(email);
    const good = svixHeaders(body);
    const refusals: Record<string, string>[] = [
      svixHeaders(body, { secret: OTHER_SECRET }),
      { ...good, "svix-signature": `v1,${Buffer.alloc(32).toString("base64")}` },
      { ...good, "svix-signature": good["svix-signature"].replace("v1,", "v2,") },
      { ...good, "svix-id": "msg_other" },
      { "Content-Type": "application/json" },
    ];
    for (const headers of refusals) {
      const response = await deliver(body, headers);
      expect(response.status).toBe(400);
      const text = await response.text();
      expect(text).not.toMatch(/\bat \S+ \(|Error|node_modules/);
    }
    // The signature of another body.
    expect((await deliver(body.replace("Permanent", "Permanent "), good)).status).toBe(400);
    expect(subscriber(email)?.status).toBe("confirmed");
    expect(suppressed(email)).toBe(false);
    // One matching signature in the list is enough (Svix lists one per secret while a secret is rotated).
    const rotated = { ...good, "svix-signature": `v1,${Buffer.alloc(32).toString("base64")} ${good["svix-signature"]}` };
    expect((await deliver(body, rotated)).status).toBe(200);
    expect(subscriber(email)).toBeUndefined();
  });

  it("refuses a timestamp more than 5 minutes off, either way, with 400", async () => {
    const email = uniqueEmail("stare");
    await confirmedSubscription(email);
    const body = resendEvent(email);
    const now = Math.floor(Date.now() / 1000);
    for (const seconds of [now - 6 * 60, now + 6 * 60]) expect((await deliver(body, svixHeaders(body, { seconds }))).status).toBe(400);
    expect(subscriber(email)?.status).toBe("confirmed");
    expect(suppressed(email)).toBe(false);
  });

  it("refuses a body over 64 KB with 413, declared or not, and changes nothing", async () => {
    const email = uniqueEmail("velke");
    await confirmedSubscription(email);
    const body = JSON.stringify({ ...JSON.parse(resendEvent(email)), padding: "x".repeat(70 * 1024) });
    expect((await deliver(body)).status).toBe(413);
    // Sent in chunks, with no length: read only up to the limit.
    const chunked = await fetch(`${server.url}/webhooks/resend`, {
      method: "POST",
      body: new Blob([body]).stream(),
      headers: svixHeaders(body),
      duplex: "half",
    } as RequestInit);
    expect(chunked.status).toBe(413);
    expect(subscriber(email)?.status).toBe("confirmed");
  });

  it("is let through the cross-site check (no Origin), which still refuses a browser's cross-site POST here and elsewhere", async () => {
    const email = uniqueEmail("csrf");
    await confirmedSubscription(email);
    const body = resendEvent(email);
    const crossSite = { Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" };
    expect((await deliver(body, { ...svixHeaders(body), ...crossSite })).status).toBe(403);
    expect((await deliver(body, { ...svixHeaders(body), Origin: "https://evil.example" })).status).toBe(403);
    const form = await fetch(`${server.url}/odber`, { method: "POST", body: new URLSearchParams({ email: uniqueEmail("csrf"), zdroj: "odber", frequency: "instant" }), headers: crossSite, redirect: "manual" });
    expect(form.status).toBe(403);
    expect(subscriber(email)?.status).toBe("confirmed");
  });

  it("does not exist without RESEND_WEBHOOK_SECRET, nor for a GET", async () => {
    const body = resendEvent(uniqueEmail("nic"));
    expect((await deliver(body, svixHeaders(body), withoutSecret.url)).status).toBe(404);
    expect((await fetch(`${withoutSecret.url}/webhooks/resend`)).status).toBe(404);
    expect((await fetch(`${server.url}/webhooks/resend`)).status).toBe(404);
  });
});
