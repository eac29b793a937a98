import { PREVIEWS_PER_HOUR } from "~/lib/drafts";
import { QUOTAS } from "~/lib/rules";
import { createHash } from "node:crypto";
import { normaliseEmail } from "~/models/users.server";
import { addressKey } from "./client-address.server";
import { forgetAttempt, forgetAttemptsStartingWith, purgeOldAttempts, returnAttempts, takeAttempts, usedUpUntil, type Budget } from "~/models/rate-limits.server";
import { noteRetryAt } from "./request-log.server";

const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * Attempts allowed per window (docs/limits-and-security.md, "Limits"). Windows end by themselves:
 * never a permanent lock-out. Per-address limits count a client by
 * `addressKey` (an IPv6 client by its /64) and leave room for a school class
 * behind one NAT.
 *
 * Failed sign-ins follow OWASP's device cookies: a browser that has signed
 * in to the account before presents its trusted device and is counted
 * against that device's own budget only; every other attempt is counted for
 * the account from its address and, more loosely, in the account's pool of
 * untrusted attempts, which when used up locks out untrusted clients only,
 * never the owner's browsers. A password reset lifts the untrusted limits.
 *
 * A reset mail goes out at most `resetMailsPerAccount.max` times per window;
 * past that the form answers the same, and a link already sent in this
 * window still works (links live as long as the window: password-reset.server.ts).
 * A confirmation link is mailed at registration; asking for it again is
 * limited per account and per address (email-confirmation.server.ts).
 * Subscribing by e-mail is limited per client address (past it, 429) and
 * the confirmation mails per subscribed address (past it, no mail and the
 * same answer: subscriptions/subscribe.server.ts).
 */
export const LIMITS = {
  signinFailuresPerDevice: { max: 10, windowMs: 15 * MINUTE },
  signinFailuresPerAddress: { max: 50, windowMs: 15 * MINUTE },
  signinFailuresPerAccountFromAddress: { max: 10, windowMs: 15 * MINUTE },
  untrustedSigninFailuresPerAccount: { max: 100, windowMs: 15 * MINUTE },
  registerPerAddress: { max: 30, windowMs: HOUR },
  resetPerAddress: { max: 20, windowMs: HOUR },
  resetMailsPerAccount: { max: 3, windowMs: 30 * MINUTE },
  confirmationMailsPerAccount: { max: 5, windowMs: DAY },
  confirmationMailsPerAddress: { max: 10, windowMs: HOUR },
  postsPerAccountPerHour: { max: QUOTAS.postsPerHour, windowMs: HOUR },
  postsPerAccountPerDay: { max: QUOTAS.postsPerDay, windowMs: DAY },
  uploadsPerAccountPerHour: { max: QUOTAS.uploadsPerHour, windowMs: HOUR },
  uploadsPerAccountPerDay: { max: QUOTAS.uploadsPerDay, windowMs: DAY },
  editsPerAccountPerHour: { max: QUOTAS.editsPerHour, windowMs: HOUR },
  previewsPerAccountPerHour: { max: PREVIEWS_PER_HOUR, windowMs: HOUR },
  reportsPerAccountPerHour: { max: QUOTAS.reportsPerHour, windowMs: HOUR },
  reportsPerAccountPerDay: { max: QUOTAS.reportsPerDay, windowMs: DAY },
  renamesPerAccountPerHour: { max: QUOTAS.renamesPerHour, windowMs: HOUR },
  subscribePerAddress: { max: 10, windowMs: HOUR },
  subscriptionMailsPerEmail: { max: 3, windowMs: DAY },
} as const;

type Limit = keyof typeof LIMITS;
/** One attempt of `subject` (an address, an account, …) under a limit. */
export type Attempt = [Limit, string];

function budgets(attempts: Attempt[]): Budget[] {
  return attempts.map(([limit, subject]) => ({ key: `${limit}:${subject}`, ...LIMITS[limit] }));
}

/**
 * What a counter is keyed by: a digest of an account's e-mail (as typed,
 * normalised) or of an address, so that a key is short whatever was sent
 * and one account's keys never begin with another's.
 */
export function subject(value: string): string {
  return createHash("sha256").update(value).digest("base64url").slice(0, 22);
}

/**
 * Reserve one attempt against every limit, all or none, before doing the
 * expensive work: false when any limit is used up. Parallel requests cannot
 * overrun a limit, because reserving is one database transaction. A refusal
 * notes when the limits let the next attempt through: the request's 429
 * says it in Retry-After (concurrency.server.ts retryAfter).
 */
export function reserve(attempts: Attempt[], now = Date.now()): boolean {
  if (Math.random() < 0.01) purgeOldAttempts(now - 2 * DAY);
  const taken = budgets(attempts);
  if (takeAttempts(taken, now)) return true;
  noteRetryAt(usedUpUntil(taken, now));
  return false;
}

/** Give reserved attempts back (the attempt did not count, e.g. a sign-in that succeeded). */
export function release(attempts: Attempt[], now = Date.now()): void {
  returnAttempts(budgets(attempts), now);
}

/** Who is asking, as the per-address limits count them. */
function addressSubject(address: string): string {
  return subject(addressKey(address));
}

/**
 * A client trying a password: its address, and the trusted device it
 * presents for the account in question (trusted-devices.server.ts), if any.
 */
export type Requester = { address: string; device: string | null };

/** The attempts a sign-in with `email` reserves: a trusted device's own, or the untrusted ones. */
export function signInAttempts(email: string, { address, device }: Requester): Attempt[] {
  if (device) return [["signinFailuresPerDevice", subject(device)]];
  const account = subject(normaliseEmail(email));
  return [
    ["signinFailuresPerAddress", addressSubject(address)],
    ["signinFailuresPerAccountFromAddress", `${account} ${addressSubject(address)}`],
    ["untrustedSigninFailuresPerAccount", account],
  ];
}

/** The attempt a registration from `address` reserves. */
export function registerAttempts(address: string): Attempt[] {
  return [["registerPerAddress", addressSubject(address)]];
}

/** The attempt a password-reset request from `address` reserves (past it: 429, which says nothing about any account). */
export function resetRequestAttempts(address: string): Attempt[] {
  return [["resetPerAddress", addressSubject(address)]];
}

/** The attempt a reset mail to `email` reserves (past it, no mail, and the same answer). */
export function resetMailAttempts(email: string): Attempt[] {
  return [["resetMailsPerAccount", subject(normaliseEmail(email))]];
}

/** A confirmation link asked for again (from /account), against the account's daily and its client address's hourly budget. */
export function confirmationMailAttempts(userId: string, address: string): Attempt[] {
  return [
    ["confirmationMailsPerAccount", userId],
    ["confirmationMailsPerAddress", addressSubject(address)],
  ];
}

/** A subscription started from `address` (/odber), against its hourly budget (past it: 429, which says nothing about any address). */
export function subscribeAttempts(address: string): Attempt[] {
  return [["subscribePerAddress", addressSubject(address)]];
}

/** A subscription's confirmation mail to `email`, against the address's daily budget (past it: no mail, the same answer). */
export function subscriptionMailAttempts(email: string): Attempt[] {
  return [["subscriptionMailsPerEmail", subject(normaliseEmail(email))]];
}

/** Lift the untrusted sign-in limits of an account (after its owner proved it by a password reset). */
export function clearSignInLimits(email: string): void {
  const account = subject(normaliseEmail(email));
  forgetAttemptsStartingWith(`signinFailuresPerAccountFromAddress:${account} `);
  forgetAttempt(`untrustedSigninFailuresPerAccount:${account}`);
}

/** A new article of an account (its id), against its hourly and daily quota. */
export function newPostAttempts(userId: string): Attempt[] {
  return [
    ["postsPerAccountPerHour", userId],
    ["postsPerAccountPerDay", userId],
  ];
}

/** An image of an account that reaches the decoder, against its hourly and daily quota. */
export function uploadAttempts(userId: string): Attempt[] {
  return [
    ["uploadsPerAccountPerHour", userId],
    ["uploadsPerAccountPerDay", userId],
  ];
}

/** A saved edit of an account (each is sanitised and empties the page cache), against its hourly quota. */
export function editAttempts(userId: string): Attempt[] {
  return [["editsPerAccountPerHour", userId]];
}

/** A preview of an account (each sanitises the body in the worker pool), against its hourly quota. */
export function previewAttempts(userId: string): Attempt[] {
  return [["previewsPerAccountPerHour", userId]];
}

/** A report of an account (its id), against its hourly and daily quota. */
export function reportAttempts(userId: string): Attempt[] {
  return [
    ["reportsPerAccountPerHour", userId],
    ["reportsPerAccountPerDay", userId],
  ];
}

/** A change of an account's name (each empties the page cache), against its hourly quota. */
export function renameAttempts(userId: string): Attempt[] {
  return [["renamesPerAccountPerHour", userId]];
}
