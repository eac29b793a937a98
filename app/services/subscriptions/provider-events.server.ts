import { createHmac, timingSafeEqual } from "node:crypto";
import { env } from "~/config/env.server";
import { inTransaction } from "~/db/connection.server";
import { addSuppression, endSubscription, getSubscriberByEmail, suppressionHash } from "~/models/subscriptions.server";
import { normaliseEmail } from "~/models/users.server";

/**
 * What the mail provider (Resend) reports of the mails it delivered, by its
 * webhook (`POST /webhooks/resend`, when RESEND_WEBHOOK_SECRET is set): a
 * hard bounce or a spam complaint ends the address's subscription and keeps
 * its suppression entry (an address with no subscription gets the entry
 * alone), so nothing more is mailed to it until a new confirmed consent. A
 * transient bounce changes nothing. Each handled event is logged with the
 * address masked. Handling is idempotent: the provider repeats an event
 * until it is answered 2xx.
 *
 * Resend signs its webhooks the Svix way: `svix-id`, `svix-timestamp`
 * (seconds) and `svix-signature` (space-separated `v1,<base64>`), each an
 * HMAC-SHA256 of `<id>.<timestamp>.<raw body>` under the base64 key after
 * the secret's `whsec_`.
 */

/** The largest event read; Resend's are a few hundred bytes. */
export const MAX_EVENT_BYTES = 64 * 1024;
/** How far the signed timestamp may be from our clock (Svix's own tolerance), so a captured request cannot be replayed later. */
export const TIMESTAMP_TOLERANCE_SECONDS = 5 * 60;

export function providerEventsEnabled(): boolean {
  return env.resendWebhookSecret !== undefined;
}

type SignatureHeaders = { id: string | null; timestamp: string | null; signature: string | null };

/**
 * Whether `body` is what the holder of `secret` signed: "stale" when the
 * timestamp is more than 5 minutes off (either way), "bad" when a header is
 * missing or no `v1` signature of the list matches (compared in constant time).
 */
export function verifySignature(secret: string, headers: SignatureHeaders, body: Buffer, now = Date.now()): "ok" | "stale" | "bad" {
  const { id, timestamp, signature } = headers;
  if (!id || !timestamp || !signature || !/^\d{1,12}$/.test(timestamp)) return "bad";
  if (Math.abs(now / 1000 - Number(timestamp)) > TIMESTAMP_TOLERANCE_SECONDS) return "stale";
  const key = Buffer.from(secret.slice("whsec_".length), "base64");
  const expected = Buffer.from(createHmac("sha256", key).update(`${id}.${timestamp}.`).update(body).digest("base64"));
  return signature.split(" ").some((entry) => {
    const [version, given] = entry.split(",", 2);
    if (version !== "v1" || given === undefined) return false;
    const candidate = Buffer.from(given);
    return candidate.length === expected.length && timingSafeEqual(candidate, expected);
  })
    ? "ok"
    : "bad";
}

/** An address as logged: its first character and its domain (`j***@example.com`). */
export function maskAddress(email: string): string {
  const at = email.lastIndexOf("@");
  return at < 1 ? "***" : `${email[0]}***${email.slice(at)}`;
}

/** A recipient as Resend lists it (`a@b.sk`, or `Name <a@b.sk>`), normalised as subscriptions store it; null for anything else. */
function addressOf(recipient: unknown): string | null {
  if (typeof recipient !== "string") return null;
  const address = normaliseEmail(/<([^<>]*)>\s*$/.exec(recipient)?.[1] ?? recipient);
  return address.length <= 254 && /^[^\s@<>]+@[^\s@<>]+$/.test(address) ? address : null;
}

/**
 * Stop mail to `email`: end its subscription, or, with none, record its
 * suppression alone. A subscription consented to after the event (a retry
 * arriving a day late, after the owner subscribed again and confirmed: the
 * address works) is left alone. What became of it.
 */
function stopMailTo(email: string, eventAt: number, now: number): "ended" | "suppressed" | "newer consent" {
  return inTransaction(() => {
    const subscriber = getSubscriberByEmail(email);
    if (subscriber && Math.max(subscriber.consentAt, subscriber.confirmedAt ?? 0) > eventAt) return "newer consent";
    if (subscriber) endSubscription(subscriber, now);
    else addSuppression(suppressionHash(email), now);
    return subscriber ? "ended" : "suppressed";
  });
}

type ResendEvent = { type?: unknown; created_at?: unknown; data?: { to?: unknown; bounce?: { type?: unknown } } };

/**
 * Act on one verified event (the raw body). "malformed" for a body that is
 * not a JSON event; "handled" or "ignored" otherwise (an event of another
 * kind, a transient bounce, one naming no address).
 */
export function handleProviderEvent(body: Buffer, now = Date.now(), log: (line: string) => void = console.info): "handled" | "ignored" | "malformed" {
  let event: ResendEvent;
  try {
    event = JSON.parse(body.toString("utf8")) as ResendEvent;
  } catch {
    return "malformed";
  }
  if (typeof event !== "object" || event === null || typeof event.type !== "string") return "malformed";
  if (event.type !== "email.bounced" && event.type !== "email.complained") return "ignored";

  const recipients = [event.data?.to].flat().map(addressOf).filter((address) => address !== null);
  const what = event.type === "email.complained" ? "complaint" : `bounce (${String(event.data?.bounce?.type ?? "of no type")})`;
  // Resend passes on the receiving server's verdict: only "Permanent" means the address cannot receive mail.
  const final = event.type === "email.complained" || String(event.data?.bounce?.type).toLowerCase() === "permanent";
  if (recipients.length === 0) {
    log(`Resend webhook: ${what} naming no address, ignored.`);
    return "ignored";
  }
  if (!final) {
    for (const email of recipients) log(`Resend webhook: ${what} for ${maskAddress(email)}, not final: nothing changed.`);
    return "ignored";
  }
  const createdAt = typeof event.created_at === "string" ? Date.parse(event.created_at) : NaN;
  const eventAt = Number.isFinite(createdAt) ? createdAt : now;
  for (const email of recipients) {
    const outcome = stopMailTo(email, eventAt, now);
    const said = {
      ended: "subscription ended, address suppressed",
      suppressed: "no subscription, address suppressed",
      "newer consent": "subscription confirmed after the event, left as it is",
    }[outcome];
    log(`Resend webhook: ${what} for ${maskAddress(email)}: ${said}.`);
  }
  return "handled";
}

export type ProviderEventAnswer = { status: 200 | 400 | 404 | 413; text: string };

/** The webhook's whole work on one request (its headers and its body, null when over MAX_EVENT_BYTES): the answer to give. */
export function receiveProviderEvent(headers: Headers, body: Buffer | null, now = Date.now()): ProviderEventAnswer {
  const secret = env.resendWebhookSecret;
  if (!secret) return { status: 404, text: "Stránka, ktorú hľadáte, neexistuje alebo bola odstránená." };
  if (body === null) return { status: 413, text: "Požiadavka je príliš veľká." };
  const verified = verifySignature(secret, { id: headers.get("svix-id"), timestamp: headers.get("svix-timestamp"), signature: headers.get("svix-signature") }, body, now);
  if (verified === "stale") return { status: 400, text: "Časová pečiatka je mimo povoleného rozsahu." };
  if (verified === "bad") return { status: 400, text: "Neplatný podpis." };
  const result = handleProviderEvent(body, now);
  if (result === "malformed") return { status: 400, text: "Udalosti sme nerozumeli." };
  return { status: 200, text: result === "handled" ? "Spracované." : "Ignorované." };
}
