import { inTransaction } from "~/db/connection.server";
import { SUBSCRIPTION_MESSAGES, type Frequency, type SubscriptionChoices, type SubscriptionSource } from "~/lib/subscriptions";
import { TAGS } from "~/lib/tags";
import {
  deleteExpiredPending,
  findPendingByToken,
  getSubscriberByEmail,
  insertSubscriber,
  markConfirmed,
  removeSuppression,
  renewPending,
  setChoices,
  suppressionHash,
} from "~/models/subscriptions.server";
import { normaliseEmail } from "~/models/users.server";
import { hashLinkToken, linkMail, newLinkToken } from "~/services/accounts/link-tokens.server";
import { queueMail } from "~/services/platform/mail-outbox.server";
import { release, reserve, subscribeAttempts, subscriptionMailAttempts } from "~/services/platform/throttle.server";
import { newSubscriberId } from "./subscription-links.server";

/**
 * Subscribing by e-mail, double opt-in: a visitor's address gets one mail,
 * the site's fixed words and a confirmation link (valid a day, only its hash
 * kept), and nothing else until the link's button is pressed. Every answer
 * to the form is the same whether the address was unknown, pending or
 * confirmed, so the form tells nobody who subscribes. A signed-in reader
 * whose account's address is confirmed subscribes in one step.
 */

const HOUR = 60 * 60 * 1000;
const CONFIRMATION_LIFETIME_MS = 24 * HOUR;

export type SubscribeResult = { ok: true } | { ok: false; status: number; error: string };

/** A form's choices as stored: tags in the list's order, centuries ascending, each once (none of either: every new article). */
export function choicesOf(value: { tags: string[]; centuries: string[]; frequency: Frequency }): SubscriptionChoices {
  const centuries = [...new Set(value.centuries.map(Number))].sort((a, b) => a - b);
  return { frequency: value.frequency, tags: TAGS.filter((tag) => value.tags.includes(tag)), centuries };
}

function confirmationMail(link: string) {
  return linkMail("Potvrdenie odberu nových článkov – Dejiny", {
    before: [
      "niekto (dúfame, že vy) chce na túto adresu dostávať e-mailom nové články zo stránky Dejiny.",
      "Ak je to tak, potvrďte odber: otvorte tento odkaz a stlačte tlačidlo „Potvrdiť odber“ (odkaz platí 24 hodín):",
    ],
    link,
    linkText: "Potvrdiť odber",
    after: ["Kým odber nepotvrdíte, nič iné vám nepošleme. Ak ste o odber nežiadali, e-mail môžete ignorovať: adresu po 24 hodinách zabudneme."],
  });
}

/**
 * A visitor subscribes `email` (the form's value, as checked). Past the
 * client address's hourly budget: 429. Otherwise the same answer whatever
 * became of the address: a confirmed subscription is left as it is, an
 * address past its daily mails gets none, any other gets a new link (and a
 * pending subscription the new choices).
 */
export function subscribe(value: { email: string } & SubscriptionChoices, source: SubscriptionSource, clientAddress: string, now = Date.now()): SubscribeResult {
  if (!reserve(subscribeAttempts(clientAddress), now)) return { ok: false, status: 429, error: SUBSCRIPTION_MESSAGES.tooMany };
  const email = normaliseEmail(value.email);
  deleteExpiredPending(now);
  const existing = getSubscriberByEmail(email);
  if (existing?.status === "confirmed") return { ok: true };
  const mails = subscriptionMailAttempts(email);
  if (!reserve(mails, now)) return { ok: true };
  const { tokenHash, link } = newLinkToken("/odber/potvrdit");
  const pending = { consentSource: source, consentAt: now, confirmTokenHash: tokenHash, confirmExpiresAt: now + CONFIRMATION_LIFETIME_MS };
  const queued = inTransaction(() => {
    // A link that would reach the mailbox with less than an hour left is not sent.
    if (!queueMail({ to: email, ...confirmationMail(link) }, { kind: "subscription", sendBefore: pending.confirmExpiresAt - HOUR, now })) return false;
    const id = existing?.id ?? newSubscriberId();
    if (existing) renewPending(id, pending);
    else insertSubscriber({ id, email, status: "pending", frequency: value.frequency, createdAt: now, ...pending });
    setChoices(id, value);
    return true;
  });
  if (queued) return { ok: true };
  release(mails, now);
  return { ok: false, status: 503, error: SUBSCRIPTION_MESSAGES.notQueued };
}

/**
 * A signed-in reader whose account's address is confirmed subscribes it in
 * one step (no mail: the address is proven), or changes the subscription it
 * has. Counted against the client address's budget like the form. The
 * subscriber's id, for its settings page.
 */
export function subscribeConfirmedAddress(
  user: { email: string; emailConfirmedAt: number | null },
  choices: SubscriptionChoices,
  source: SubscriptionSource,
  clientAddress: string,
  now = Date.now(),
): { ok: true; id: string } | { ok: false; status: number; error: string } {
  if (user.emailConfirmedAt === null) throw new Error("subscribeConfirmedAddress: the account's address is not confirmed");
  if (!reserve(subscribeAttempts(clientAddress), now)) return { ok: false, status: 429, error: SUBSCRIPTION_MESSAGES.tooMany };
  const email = normaliseEmail(user.email);
  const id = inTransaction(() => {
    const existing = getSubscriberByEmail(email);
    const id = existing?.id ?? newSubscriberId();
    const consent = { consentSource: source, consentAt: now };
    if (!existing) insertSubscriber({ id, email, status: "confirmed", frequency: choices.frequency, createdAt: now, confirmedAt: now, ...consent });
    else if (existing.status === "pending") markConfirmed(id, now, consent);
    setChoices(id, choices);
    removeSuppression(suppressionHash(email));
    return id;
  });
  return { ok: true, id };
}

export function isConfirmLinkUsable(token: string): boolean {
  return Boolean(token) && findPendingByToken(hashLinkToken(token), Date.now()) !== undefined;
}

/** The confirmation link's button: the subscription is confirmed (and its address no longer suppressed). The subscriber's id, or null for a used, expired or made-up link. */
export function confirmSubscription(token: string, now = Date.now()): string | null {
  if (!token) return null;
  return inTransaction(() => {
    const pending = findPendingByToken(hashLinkToken(token), now);
    if (!pending) return null;
    markConfirmed(pending.id, now);
    removeSuppression(suppressionHash(pending.email));
    return pending.id;
  });
}
