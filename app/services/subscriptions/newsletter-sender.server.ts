import { randomBytes } from "node:crypto";
import { inTransaction } from "~/db/connection.server";
import { claimBatch, markMailGivenUp, markMailRetry, markMailSent, markMailSkipped, nextWaitingNewsletter, waitingMailsOfBatch, type OutboxMail } from "~/models/mail-outbox.server";
import { countOutcome } from "~/models/subscription-mailings.server";
import { deliverBatch, MailRefusedError, type Mail } from "~/services/platform/mail.server";
import { retryDelay, withTimeout } from "~/services/platform/mail-outbox.server";
import { newsletterMaker } from "./newsletter-mail.server";

/**
 * Sends subscriptions' mails from the outbox in batches through Resend's
 * batch API, beside the outbox's own sender of people's mails (which go
 * first and are never held up by these). A batch is claimed once: a retry
 * sends the same mails under the same Idempotency-Key, so an answer that was
 * lost is no second mail. Retried as the outbox retries, given up after a day.
 */

/** Resend's batch API takes at most 100 mails a request. */
const BATCH_SIZE = 100;
/** Resend's default limit is 2 requests a second, shared with people's mails: a batch at most every 600 ms leaves them room. */
const BATCH_INTERVAL_MS = 600;
const FAILED_READ_RETRY_MS = 20_000;

let started = false;
let timer: NodeJS.Timeout | undefined;
let sending: Promise<void> | undefined;
let again = false;

/** Deliver the subscriptions' mails now and whenever more fall due (a process that never starts it sends none). */
export function startNewsletterSender(): void {
  started = true;
  wakeNewsletterSender();
}

/** Mails were queued, or are due: deliver them unless a delivery is under way (it looks again when it ends). */
export function wakeNewsletterSender(): void {
  if (!started) return;
  if (sending) {
    again = true;
    return;
  }
  clearTimeout(timer);
  sending = deliverDue().then((ok) => {
    sending = undefined;
    if (again) {
      again = false;
      return wakeNewsletterSender();
    }
    scheduleNext(ok);
  });
}

/** Resolves when no delivery is under way (for the benchmark and tests). */
export async function newsletterSenderIdle(): Promise<void> {
  while (sending) await sending;
}

function scheduleNext(ok: boolean): void {
  let delay: number | undefined = FAILED_READ_RETRY_MS;
  try {
    const next = ok ? nextWaitingNewsletter() : undefined;
    if (ok) delay = next && Math.max(0, next.nextAttemptAt - Date.now());
  } catch (error) {
    console.error("Subscriptions: could not read the outbox", error);
  }
  if (delay !== undefined) timer = setTimeout(wakeNewsletterSender, delay).unref();
}

async function deliverDue(): Promise<boolean> {
  try {
    for (let next = nextWaitingNewsletter(); next && next.nextAttemptAt <= Date.now(); next = nextWaitingNewsletter()) await sendBatch(next);
    return true;
  } catch (error) {
    console.error("Subscriptions: could not read or update the outbox", error);
    return false;
  }
}

/**
 * Send the batch `first` belongs to (or claim up to BATCH_SIZE due mails for
 * a new one): each mail made now, those no longer to be sent skipped, the
 * rest handed over in one request keyed by the batch and how many it carries.
 */
async function sendBatch(first: OutboxMail): Promise<void> {
  const started = Date.now();
  let batchId = first.batchId;
  if (!batchId) {
    batchId = randomBytes(12).toString("base64url");
    claimBatch(batchId, started, BATCH_SIZE);
  }
  const make = newsletterMaker(started);
  const toSend: { row: OutboxMail; mail: Mail }[] = [];
  inTransaction(() => {
    for (const row of waitingMailsOfBatch(batchId)) {
      if (started >= row.sendBefore) {
        settle(row, "failed", started, row.lastError ?? "not sent before it was due");
        continue;
      }
      const made = make(row);
      if ("mail" in made) toSend.push({ row, mail: made.mail });
      else settle(row, "skipped", started);
    }
  });
  if (toSend.length === 0) return;
  try {
    const { refused } = await withTimeout(deliverBatch(toSend.map(({ row, mail }) => ({ ...mail, id: row.id })), `${batchId}-${toSend.length}`));
    const now = Date.now();
    inTransaction(() => toSend.forEach(({ row }, i) => settle(row, refused.has(i) ? "failed" : "sent", now, refused.get(i))));
    if (refused.size > 0) console.error(`Subscriptions: the mail service refused ${refused.size} of a batch of ${toSend.length} mails: ${[...refused.values()][0]}`);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    const retryAt = Date.now() + retryDelay(first.attempts + 1);
    const givingUp = error instanceof MailRefusedError || retryAt >= Math.min(...toSend.map(({ row }) => row.sendBefore));
    console.error(`Subscriptions: could not send a batch of ${toSend.length} mails (attempt ${first.attempts + 1})${givingUp ? ", gave up" : `, next try at ${new Date(retryAt).toISOString()}`}: ${reason}`);
    inTransaction(() => toSend.forEach(({ row }) => (givingUp ? settle(row, "failed", Date.now(), reason) : markMailRetry(row.id, retryAt, reason))));
  }
  // Within the mail service's rate limit.
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, BATCH_INTERVAL_MS - (Date.now() - started))));
}

/** A mail done with: its outcome counted on its mailing, for /admin/odber. */
function settle(row: OutboxMail, outcome: "sent" | "skipped" | "failed", now: number, reason?: string): void {
  if (outcome === "sent") markMailSent(row.id, now);
  else if (outcome === "skipped") markMailSkipped(row.id, now);
  else markMailGivenUp(row.id, now, reason ?? "");
  if (row.mailingId) countOutcome(row.mailingId, outcome, 1);
}
