import { randomBytes } from "node:crypto";
import {
  countMailsSince,
  countWaitingMails,
  insertMail,
  lastMailFailure,
  makeWaitingMailsDue,
  markMailGivenUp,
  markMailRetry,
  markMailSent,
  nextDueMail,
  nextWaitingMail,
  purgeFinishedMails,
  type MailKind,
  type OutboxMail,
} from "~/models/mail-outbox.server";
import { getUserByEmail } from "~/models/users.server";
import { showHiddenControls } from "~/lib/rules";
import { deliveryLoop } from "./delivery-loop.server";
import { deliverMail, MailRefusedError, type Mail } from "./mail.server";
import { noteRetryAt } from "./request-log.server";

export type { MailKind };

/**
 * Every mail the site sends goes through this outbox, a table of the
 * database: queued in the transaction that decides it (a reset token and its
 * mail exist together), delivered in the background one at a time, retried
 * with backoff when the mail service fails (first after 20 s, at most an hour
 * apart), kept across restarts, and given up with its reason after a day or
 * past its `sendBefore` (a reset link is not sent once it is stale). A
 * delivery is never repeated: a mail is marked sent as soon as it went, and
 * a retry after an answer that was lost carries the same Idempotency-Key.
 */

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Waits before the 1st, 2nd, … retry; then hourly. */
const RETRY_DELAYS = [20 * SECOND, MINUTE, 5 * MINUTE, 15 * MINUTE, 30 * MINUTE];
export const retryDelay = (failedAttempts: number) => RETRY_DELAYS[failedAttempts - 1] ?? HOUR;

/**
 * The outbox's room, a share of its own for each kind of mail, so that no
 * kind crowds out another (docs/accounts.md, "E-mail: the outbox and delivery"):
 *
 * - `account`, confirmation and reset links: each is throttled per account
 *   and per client address before it is queued (throttle.server.ts), so 5
 *   waiting for one address is more than its owner can ask for in half an
 *   hour; past the room the link is not queued (and its token not written).
 * - `decision`, moderation's mails about a decision or an appeal: never
 *   dropped. Only admins make them, a few per article, so 10,000 holds more
 *   than a day of a busy moderation while the mail service is down (and a
 *   mail waits a day at most). Past it the decision itself waits:
 *   OutboxFullError, which rolls its transaction back and is answered 503.
 * - `receipt`, acknowledgements ("we received your report"): they give way
 *   first. Past 1,000 waiting, or past 10 to one address in 24 hours (sent
 *   or not), a receipt is dropped and logged; what it said is on the
 *   reader's pages (/account/reports) anyway.
 * - `subscription`, the link that confirms an e-mail subscription: throttled
 *   per address and per client before it is queued (subscribe.server.ts), in
 *   a room of its own, so that strangers subscribing others cannot crowd out
 *   anyone's reset link.
 *
 * Only `account` and `subscription` mails go to an address its owner has
 * not confirmed: both are the site's own words and one link.
 *
 * Subscriptions' mails of articles and digests (`newsletter`) have no room:
 * they are queued by their mailing, one per confirmed subscriber, and sent
 * in batches by a sender of their own (~/services/subscriptions/newsletter-sender.server),
 * with the retries of this one.
 */
export const OUTBOX_LIMITS = {
  account: { waiting: 1_000, waitingPerRecipient: 5 },
  decision: { waiting: 10_000 },
  receipt: { waiting: 1_000, perRecipientPerDay: 10 },
  subscription: { waiting: 1_000, waitingPerRecipient: 3 },
} as const;

/** When a decision refused for a full outbox is to be tried again: mails leave as the service takes them, or give up after a day. */
const DECISION_ROOM_RETRY_MS = 10 * MINUTE;

/** The decisions' room in the outbox is full: the decision waits (its transaction rolls back; storage-fault.server.ts answers 503 with Retry-After). */
export class OutboxFullError extends Error {
  override name = "OutboxFullError";
  constructor() {
    super(`Mail outbox: ${OUTBOX_LIMITS.decision.waiting} decision mails are waiting; a decision must wait`);
  }
}

function refuseDecision(): never {
  noteRetryAt(Date.now() + DECISION_ROOM_RETRY_MS);
  throw new OutboxFullError();
}

/** Throws OutboxFullError unless `count` more decision mails fit: a decision of many articles asks before it changes any. */
export function ensureDecisionRoom(count: number): void {
  if (countWaitingMails({ kind: "decision" }) + count > OUTBOX_LIMITS.decision.waiting) refuseDecision();
}

/** Whether the site may send this address what others wrote or did: only once its owner followed the confirmation link. */
function confirmedAddress(email: string): boolean {
  return getUserByEmail(email)?.emailConfirmedAt != null;
}

/** Why a mail of `kind` to `to` may not be queued now (the outbox's room, OUTBOX_LIMITS), or null when it may. */
function noRoom(kind: MailKind, to: string, now: number): string | null {
  const limits = OUTBOX_LIMITS[kind];
  if (countWaitingMails({ kind }) >= limits.waiting) return `${limits.waiting} ${kind} mails are waiting`;
  if ("waitingPerRecipient" in limits && countWaitingMails({ kind, recipient: to }) >= limits.waitingPerRecipient) return `${limits.waitingPerRecipient} ${kind} mails wait for this address`;
  if ("perRecipientPerDay" in limits && countMailsSince(kind, to, now - DAY) >= limits.perRecipientPerDay) return `${limits.perRecipientPerDay} ${kind} mails went to this address in 24 hours`;
  return null;
}

/** A mail service that does not answer must not hold up the mails behind it. */
const SEND_TIMEOUT_MS = 15_000;

/** Delivered and given-up mails stay this long for /admin, without their text. */
const KEEP_FINISHED = 7 * DAY;

/**
 * Put a mail of `kind` in the outbox, to be delivered before `sendBefore`
 * (at most a day from now). Call it inside the transaction that decides the
 * mail. False, and nothing queued, when the address is not confirmed (for
 * any kind but `account` and `subscription`) or the kind's room is full (OUTBOX_LIMITS); a
 * `decision` is never dropped: it throws OutboxFullError instead.
 */
export function queueMail(mail: Mail, { kind, sendBefore, now = Date.now() }: { kind: MailKind; sendBefore: number; now?: number }): boolean {
  // What someone else wrote or decided goes only to an address whose owner has shown it is theirs.
  if (kind !== "account" && kind !== "subscription" && !confirmedAddress(mail.to)) return false;
  const full = noRoom(kind, mail.to, now);
  if (full && kind === "decision") refuseDecision();
  if (full) {
    console.error(`Mail outbox: "${showHiddenControls(mail.subject)}" to ${showHiddenControls(mail.to)} was not queued: ${full}`);
    return false;
  }
  const id = outboxMailId(now);
  insertMail({ id, kind, recipient: mail.to, subject: mail.subject, text: mail.text, html: mail.html, createdAt: now, sendBefore: Math.min(sendBefore, now + DAY), nextAttemptAt: now });
  // After the transaction that queued it has committed.
  setImmediate(wakeSender);
  return true;
}

/** A new mail's id: sortable by time, as the outbox folder lists its files. */
export function outboxMailId(now: number): string {
  return `${new Date(now).toISOString().replace(/[:.]/g, "-")}-${randomBytes(6).toString("hex")}`;
}

const sender = deliveryLoop({
  what: "Mail outbox",
  deliverDue,
  nextDueAt: () => nextWaitingMail()?.nextAttemptAt,
  retryAfterFailureMs: RETRY_DELAYS[0],
});
const wakeSender = () => sender.wake();

/**
 * Deliver the outbox now and whenever more falls due. A start tries every
 * waiting mail at once: an operator who has just fixed the mail settings
 * need not wait for the backoff.
 */
export function startMailSender(): void {
  makeWaitingMailsDue(Date.now());
  sender.start();
}

/** Deliver every mail that is due, one at a time. */
async function deliverDue(): Promise<void> {
  purgeFinishedMails(Date.now() - KEEP_FINISHED);
  for (let mail = nextDueMail(Date.now()); mail; mail = nextDueMail(Date.now())) await attempt(mail);
}

async function attempt(mail: OutboxMail): Promise<void> {
  const now = Date.now();
  if (now >= mail.sendBefore) return markMailGivenUp(mail.id, now, mail.lastError ?? "not sent before it was due");
  try {
    await withTimeout(deliverMail({ to: mail.recipient, subject: mail.subject, text: mail.text, html: mail.html }, mail.id));
    markMailSent(mail.id, Date.now());
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    const retryAt = Date.now() + retryDelay(mail.attempts + 1);
    const who = `"${showHiddenControls(mail.subject)}" to ${showHiddenControls(mail.recipient)}`;
    if (error instanceof MailRefusedError || retryAt >= mail.sendBefore) {
      console.error(`Mail outbox: gave up ${who} after ${mail.attempts + 1} attempts: ${reason}`);
      markMailGivenUp(mail.id, Date.now(), reason);
    } else {
      console.error(`Mail outbox: could not send ${who} (attempt ${mail.attempts + 1}), next try at ${new Date(retryAt).toISOString()}: ${reason}`);
      markMailRetry(mail.id, retryAt, reason);
    }
  }
}

/** A delivery within SEND_TIMEOUT_MS, or an error: for the subscriptions' sender too. */
export function withTimeout<T>(delivery: Promise<T>): Promise<T> {
  let timeout: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timeout = setTimeout(() => reject(new Error(`no answer from the mail service in ${SEND_TIMEOUT_MS / SECOND} s`)), SEND_TIMEOUT_MS).unref();
  });
  return Promise.race([delivery, late]).finally(() => clearTimeout(timeout));
}

/** What /admin shows of the outbox: how many mails wait, and the last failure. */
export function mailOutboxStatus() {
  return { waiting: countWaitingMails(), lastFailure: lastMailFailure() ?? null };
}
