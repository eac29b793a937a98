import { randomBytes } from "node:crypto";
import { inTransaction } from "~/db/connection.server";
import {
  claimBatch,
  markMailGivenUp,
  markMailsRetry,
  markMailsSent,
  markMailsSkipped,
  nextWaitingNewsletter,
  postponeUnbatchedNewsletters,
  releaseBatch,
  storeMadeMail,
  waitingMailsOfBatch,
  type OutboxMail,
} from "~/models/mail-outbox.server";
import { countOutcome } from "~/models/subscription-mailings.server";
import { deliverBatch, MailNotTakenError, MailRefusedError, type Mail } from "~/services/platform/mail.server";
import { deliveryLoop } from "~/services/platform/delivery-loop.server";
import { retryDelay, withTimeout } from "~/services/platform/mail-outbox.server";
import { makeNewsletterMails, unsubscribeHeaders } from "./newsletter-mail.server";

/**
 * Sends subscriptions' mails from the outbox in batches through Resend's
 * batch API, beside the outbox's own sender of people's mails (which go
 * first and are never held up by these). A batch is claimed and its mails
 * made once: a retry sends the same request under the same Idempotency-Key,
 * so an answer that was lost is no second mail. Retried as the outbox
 * retries, given up after a day.
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
 * a new one). At its first attempt each mail is made, those no longer to be
 * sent are skipped, and the rest are stored as made; every attempt hands the
 * stored mails over in one request keyed by the batch, so that a retry after
 * an answer that was lost is the same request and no second mail (the mails
 * may have gone: a retry does not drop one whose subscription ended since).
 * A batch the service answered it did not take is released, its mails made
 * afresh at their next turn.
 */
async function sendBatch(first: OutboxMail): Promise<void> {
  const started = Date.now();
  let batchId = first.batchId;
  if (!batchId) {
    batchId = randomBytes(12).toString("base64url");
    claimBatch(batchId, started, BATCH_SIZE);
  }
  const toSend = inTransaction(() => madeMailsOf(batchId, started));
  if (toSend.length === 0) return;
  try {
    const { refused } = await withTimeout(deliverBatch(toSend.map(({ row, mail }) => ({ ...mail, id: row.id })), batchId));
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
    const ids = toSend.map(({ row }) => row.id);
    inTransaction(() => {
      if (givingUp) return failed.settle(Date.now());
      markMailsRetry(ids, retryAt, reason);
      // The service answered that it took nothing: the mails are made afresh at their turn (an article hidden meanwhile is not sent).
      // With no answer they may have gone: the retry is the same request.
      if (error instanceof MailNotTakenError) releaseBatch(ids);
      // The service is down or refusing: the mails behind this batch wait for it, rather than each batch trying.
      postponeUnbatchedNewsletters(retryAt);
    });
  }
  // Within the mail service's rate limit.
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, BATCH_INTERVAL_MS - (Date.now() - started))));
}

/** The mails of a batch to hand over: those stored at an earlier attempt as they were, the others made now (and stored), or settled as skipped or past their day. Call inside a transaction. */
function madeMailsOf(batchId: string, now: number): { row: OutboxMail; mail: Mail }[] {
  const rows = waitingMailsOfBatch(batchId);
  const done = new Outcomes();
  const toSend: { row: OutboxMail; mail: Mail }[] = [];
  const fresh = rows.filter((row) => row.subject === "" && now < row.sendBefore);
  for (const row of rows) {
    if (now >= row.sendBefore) done.add(row, "failed", row.lastError ?? "not sent before it was due");
    else if (row.subject !== "") toSend.push({ row, mail: { to: row.recipient, subject: row.subject, text: row.text, html: row.html, headers: unsubscribeHeaders(row.subscriberId ?? "") } });
  }
  makeNewsletterMails(fresh, now).forEach((made, i) => {
    const row = fresh[i];
    if (!("mail" in made)) return done.add(row, "skipped");
    storeMadeMail(row.id, { recipient: made.mail.to, subject: made.mail.subject, text: made.mail.text, html: made.mail.html });
    toSend.push({ row, mail: made.mail });
  });
  done.settle(now);
  return toSend;
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
