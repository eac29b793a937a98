import { randomBytes } from "node:crypto";
import {
  countWaitingMails,
  insertMail,
  lastMailFailure,
  makeWaitingMailsDue,
  markMailGivenUp,
  markMailRetry,
  markMailSent,
  nextWaitingMail,
  purgeFinishedMails,
  type OutboxMail,
} from "~/models/mail-outbox.server";
import { showHiddenControls } from "~/lib/rules";
import { deliverMail, MailRefusedError, type Mail } from "./mail.server";

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
const retryDelay = (failedAttempts: number) => RETRY_DELAYS[failedAttempts - 1] ?? HOUR;

/** The most mails waiting at once, and for one address: a flood queues no more (the rest are refused and logged). */
export const OUTBOX_LIMITS = { waiting: 1_000, waitingPerRecipient: 5 } as const;

/** A mail service that does not answer must not hold up the mails behind it. */
const SEND_TIMEOUT_MS = 15_000;

/** Delivered and given-up mails stay this long for /admin, without their text. */
const KEEP_FINISHED = 7 * DAY;

/**
 * Put a mail in the outbox, to be delivered before `sendBefore` (at most a
 * day from now). Call it inside the transaction that decides the mail.
 * False, and nothing queued, when the outbox or the recipient's share of it is full.
 * `perRecipient: false` for mails a person cannot make the site send at will
 * (moderation's: one per report, decision or appeal): a bulk decision queues
 * one per article for the same reporter or author, all of which must go.
 */
export function queueMail(mail: Mail, { sendBefore, now = Date.now(), perRecipient = true }: { sendBefore: number; now?: number; perRecipient?: boolean }): boolean {
  if (countWaitingMails() >= OUTBOX_LIMITS.waiting || (perRecipient && countWaitingMails(mail.to) >= OUTBOX_LIMITS.waitingPerRecipient)) {
    console.error(`Mail outbox full: "${showHiddenControls(mail.subject)}" to ${showHiddenControls(mail.to)} was not queued`);
    return false;
  }
  // Sortable by time: the outbox folder lists files in order.
  const id = `${new Date(now).toISOString().replace(/[:.]/g, "-")}-${randomBytes(6).toString("hex")}`;
  insertMail({ id, recipient: mail.to, subject: mail.subject, text: mail.text, html: mail.html, createdAt: now, sendBefore: Math.min(sendBefore, now + DAY), nextAttemptAt: now });
  // After the transaction that queued it has committed.
  setImmediate(wakeSender);
  return true;
}

/** Only a started sender delivers: a process that never starts it (`npm run admin`, a read-only replica) sends nothing. */
let started = false;
let timer: NodeJS.Timeout | undefined;
let sending: Promise<void> | undefined;

/**
 * Deliver the outbox now and whenever more falls due. A start tries every
 * waiting mail at once: an operator who has just fixed the mail settings
 * need not wait for the backoff.
 */
export function startMailSender(): void {
  started = true;
  makeWaitingMailsDue(Date.now());
  wakeSender();
}

function wakeSender(): void {
  if (!started || sending) return;
  clearTimeout(timer);
  sending = deliverDue().then((ok) => {
    sending = undefined;
    scheduleNext(ok ? 0 : RETRY_DELAYS[0]);
  });
}

/** Sleep until the next waiting mail is due, and at least `atLeast` (not keeping the process alive); a database that fails is asked again soon. */
function scheduleNext(atLeast: number): void {
  let delay: number | undefined;
  try {
    const next = nextWaitingMail();
    delay = next && Math.max(atLeast, next.nextAttemptAt - Date.now());
  } catch (error) {
    console.error("Mail outbox: could not read the queue", error);
    delay = RETRY_DELAYS[0];
  }
  if (delay !== undefined) timer = setTimeout(wakeSender, delay).unref();
}

/** Deliver every mail that is due, one at a time; false when the database failed (e.g. a full disk: not again at once). */
async function deliverDue(): Promise<boolean> {
  try {
    purgeFinishedMails(Date.now() - KEEP_FINISHED);
    for (let mail = nextWaitingMail(); mail && mail.nextAttemptAt <= Date.now(); mail = nextWaitingMail()) await attempt(mail);
    return true;
  } catch (error) {
    console.error("Mail outbox: could not read or update the queue", error);
    return false;
  }
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

function withTimeout(delivery: Promise<void>): Promise<void> {
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
