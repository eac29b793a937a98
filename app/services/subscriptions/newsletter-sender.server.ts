import { randomBytes } from "node:crypto";
import { inTransaction } from "~/db/connection.server";
import { claimBatch, markMailGivenUp, markMailsRetry, markMailsSent, markMailsSkipped, nextWaitingNewsletter, waitingMailsOfBatch, type OutboxMail } from "~/models/mail-outbox.server";
import { countOutcome } from "~/models/subscription-mailings.server";
import { deliverBatch, MailRefusedError, type Mail } from "~/services/platform/mail.server";
import { deliveryLoop } from "~/services/platform/delivery-loop.server";
import { retryDelay, withTimeout } from "~/services/platform/mail-outbox.server";
import { makeNewsletterMails } from "./newsletter-mail.server";

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
const sender = deliveryLoop({
  what: "Subscriptions",
  deliverDue,
  nextDueAt: () => nextWaitingNewsletter()?.nextAttemptAt,
  retryAfterFailureMs: retryDelay(1),
});

/** Deliver the subscriptions' mails now and whenever more fall due (a process that never starts it sends none). */
export function startNewsletterSender(): void {
  sender.start();
}

/** Mails were queued, or are due: deliver them unless a delivery is under way (it looks again when it ends). */
export function wakeNewsletterSender(): void {
  sender.wake();
}

async function deliverDue(): Promise<void> {
  for (let next = nextWaitingNewsletter(); next && next.nextAttemptAt <= Date.now(); next = nextWaitingNewsletter()) await sendBatch(next);
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
  const toSend: { row: OutboxMail; mail: Mail }[] = [];
  const done = new Outcomes();
  inTransaction(() => {
    const rows = waitingMailsOfBatch(batchId);
    const due = rows.filter((row) => started < row.sendBefore);
    for (const row of rows) if (started >= row.sendBefore) done.add(row, "failed", row.lastError ?? "not sent before it was due");
    makeNewsletterMails(due, started).forEach((made, i) => ("mail" in made ? toSend.push({ row: due[i], mail: made.mail }) : done.add(due[i], "skipped")));
    done.settle(started);
  });
  if (toSend.length === 0) return;
  try {
    const { refused } = await withTimeout(deliverBatch(toSend.map(({ row, mail }) => ({ ...mail, id: row.id })), `${batchId}-${toSend.length}`));
    const sent = new Outcomes();
    toSend.forEach(({ row }, i) => sent.add(row, refused.has(i) ? "failed" : "sent", refused.get(i)));
    inTransaction(() => sent.settle(Date.now()));
    if (refused.size > 0) console.error(`Subscriptions: the mail service refused ${refused.size} of a batch of ${toSend.length} mails: ${[...refused.values()][0]}`);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    const retryAt = Date.now() + retryDelay(first.attempts + 1);
    const givingUp = error instanceof MailRefusedError || retryAt >= Math.min(...toSend.map(({ row }) => row.sendBefore));
    console.error(`Subscriptions: could not send a batch of ${toSend.length} mails (attempt ${first.attempts + 1})${givingUp ? ", gave up" : `, next try at ${new Date(retryAt).toISOString()}`}: ${reason}`);
    const failed = new Outcomes();
    if (givingUp) toSend.forEach(({ row }) => failed.add(row, "failed", reason));
    inTransaction(() => (givingUp ? failed.settle(Date.now()) : markMailsRetry(toSend.map(({ row }) => row.id), retryAt, reason)));
  }
  // Within the mail service's rate limit.
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, BATCH_INTERVAL_MS - (Date.now() - started))));
}

/** What became of a batch's mails, written in a few statements (a batch is a hundred), and counted on their mailings for /admin/odber. */
class Outcomes {
  private sent: string[] = [];
  private skipped: string[] = [];
  private failed: { id: string; reason: string }[] = [];
  private counts = new Map<string, { sent: number; skipped: number; failed: number }>();

  add(row: OutboxMail, outcome: "sent" | "skipped" | "failed", reason = ""): void {
    if (outcome === "failed") this.failed.push({ id: row.id, reason });
    else this[outcome].push(row.id);
    if (!row.mailingId) return;
    const count = this.counts.get(row.mailingId) ?? { sent: 0, skipped: 0, failed: 0 };
    count[outcome]++;
    this.counts.set(row.mailingId, count);
  }

  /** Call inside a transaction. */
  settle(now: number): void {
    markMailsSent(this.sent, now);
    markMailsSkipped(this.skipped, now);
    for (const { id, reason } of this.failed) markMailGivenUp(id, now, reason);
    for (const [mailingId, count] of this.counts) for (const outcome of ["sent", "skipped", "failed"] as const) if (count[outcome]) countOutcome(mailingId, outcome, count[outcome]);
  }
}
