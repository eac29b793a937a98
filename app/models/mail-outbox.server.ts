import { and, asc, count, desc, eq, gt, inArray, isNotNull, isNull, lt, lte, ne, or, sql } from "drizzle-orm";
import { db } from "~/db/connection.server";
import { mailOutbox } from "~/db/schema.server";

/** The mails the site has to send, kept until delivered (app/services/platform/mail-outbox.server.ts says when and how). */

export type OutboxMail = typeof mailOutbox.$inferSelect;

/** What a mail is, for the outbox's room (mail-outbox.server.ts OUTBOX_LIMITS): a confirmation or reset link, moderation's decision, an acknowledgement, or a subscription's confirmation link. */
export type MailKind = "account" | "decision" | "receipt" | "subscription";

/** A subscription's mail of an article or a digest (~/models/subscription-mailings.server): queued by its mailing, not by queueMail, and sent in batches. */
export const NEWSLETTER = "newsletter";

const waiting = and(isNull(mailOutbox.sentAt), isNull(mailOutbox.gaveUpAt));

export function insertMail(mail: Pick<OutboxMail, "id" | "recipient" | "subject" | "text" | "html" | "createdAt" | "sendBefore" | "nextAttemptAt"> & { kind: MailKind }): void {
  db.insert(mailOutbox).values(mail).run();
}

/** Mails not yet delivered nor given up: all of them, or those of one kind, or of one kind to one recipient. */
export function countWaitingMails(of: { kind?: MailKind; recipient?: string } = {}): number {
  const where = and(waiting, of.kind === undefined ? undefined : eq(mailOutbox.kind, of.kind), of.recipient === undefined ? undefined : eq(mailOutbox.recipient, of.recipient));
  return db.select({ n: count() }).from(mailOutbox).where(where).get()?.n ?? 0;
}

/** Mails of one kind to one recipient queued after `since`, whatever became of them (finished ones are kept a week): one range of mail_outbox_recipient_idx. */
export function countMailsSince(kind: MailKind, recipient: string, since: number): number {
  return (
    db
      .select({ n: count() })
      .from(mailOutbox)
      .where(and(eq(mailOutbox.recipient, recipient), gt(mailOutbox.createdAt, since), eq(mailOutbox.kind, kind)))
      .get()?.n ?? 0
  );
}

/** The waiting mail of a person due first (mail_outbox_due_idx), due or not. */
export function nextWaitingMail(): OutboxMail | undefined {
  return db.select().from(mailOutbox).where(and(waiting, ne(mailOutbox.kind, NEWSLETTER))).orderBy(asc(mailOutbox.nextAttemptAt)).limit(1).get();
}

/** The waiting mail of a person (not a subscription's: those go in batches) due first, if one is due by `now`. */
export function nextDueMail(now: number): OutboxMail | undefined {
  return db
    .select()
    .from(mailOutbox)
    .where(and(waiting, ne(mailOutbox.kind, NEWSLETTER), lte(mailOutbox.nextAttemptAt, now)))
    .orderBy(asc(mailOutbox.nextAttemptAt))
    .limit(1)
    .get();
}

/** The waiting subscription's mail due first, due or not. */
export function nextWaitingNewsletter(): OutboxMail | undefined {
  return db.select().from(mailOutbox).where(and(waiting, eq(mailOutbox.kind, NEWSLETTER))).orderBy(asc(mailOutbox.nextAttemptAt)).limit(1).get();
}

/** Give up to `size` due subscription mails not yet in a batch the batch id `batchId`; how many it took. */
export function claimBatch(batchId: string, now: number, size: number): number {
  const due = db
    .select({ id: mailOutbox.id })
    .from(mailOutbox)
    .where(and(waiting, eq(mailOutbox.kind, NEWSLETTER), isNull(mailOutbox.batchId), lte(mailOutbox.nextAttemptAt, now)))
    .orderBy(asc(mailOutbox.nextAttemptAt))
    .limit(size);
  return db.update(mailOutbox).set({ batchId }).where(inArray(mailOutbox.id, due)).run().changes;
}

/** The waiting mails of a batch. */
export function waitingMailsOfBatch(batchId: string): OutboxMail[] {
  return db.select().from(mailOutbox).where(and(waiting, eq(mailOutbox.batchId, batchId))).all();
}

/** Subscriptions' mails delivered (one statement for a batch), their text not kept. */
export function markMailsSent(ids: string[], now: number): void {
  if (ids.length) db.update(mailOutbox).set({ sentAt: now, text: "", html: "", attempts: sql`${mailOutbox.attempts} + 1` }).where(inArray(mailOutbox.id, ids)).run();
}

/** A subscription's mail as first handed over: a retry sends these very words under the same key. */
export function storeMadeMail(id: string, mail: Pick<OutboxMail, "recipient" | "subject" | "text" | "html">): void {
  db.update(mailOutbox).set(mail).where(eq(mailOutbox.id, id)).run();
}

/** Subscriptions' mails the service answered it did not take: out of their batch and unmade, to be made afresh (and keyed anew) at their next turn. */
export function releaseBatch(ids: string[]): void {
  if (ids.length) db.update(mailOutbox).set({ batchId: null, recipient: "", subject: "", text: "", html: "" }).where(inArray(mailOutbox.id, ids)).run();
}

/** The mail service failed: subscriptions' mails not yet in a batch wait until `until` too, rather than each trying a service that is down. */
export function postponeUnbatchedNewsletters(until: number): void {
  db.update(mailOutbox)
    .set({ nextAttemptAt: sql`max(${mailOutbox.nextAttemptAt}, ${until})` })
    .where(and(waiting, eq(mailOutbox.kind, NEWSLETTER), isNull(mailOutbox.batchId)))
    .run();
}

/** Not to be sent, and no failure: its article is no longer public, or its subscription ended. */
export function markMailsSkipped(ids: string[], now: number): void {
  if (ids.length) db.update(mailOutbox).set({ gaveUpAt: now }).where(inArray(mailOutbox.id, ids)).run();
}

/** Subscriptions' mails to be tried again at `nextAttemptAt`. */
export function markMailsRetry(ids: string[], nextAttemptAt: number, error: string): void {
  if (ids.length) db.update(mailOutbox).set({ nextAttemptAt, lastError: error, attempts: sql`${mailOutbox.attempts} + 1` }).where(inArray(mailOutbox.id, ids)).run();
}

/** Every waiting mail due by `now` at the latest. */
export function makeWaitingMailsDue(now: number): void {
  db.update(mailOutbox).set({ nextAttemptAt: sql`min(${mailOutbox.nextAttemptAt}, ${now})` }).where(waiting).run();
}

/** Delivered: its text (a reset link is a key to an account) is not kept. */
export function markMailSent(id: string, now: number): void {
  db.update(mailOutbox).set({ sentAt: now, text: "", html: "", attempts: sql`${mailOutbox.attempts} + 1` }).where(eq(mailOutbox.id, id)).run();
}

export function markMailRetry(id: string, nextAttemptAt: number, error: string): void {
  db.update(mailOutbox).set({ nextAttemptAt, lastError: error, attempts: sql`${mailOutbox.attempts} + 1` }).where(eq(mailOutbox.id, id)).run();
}

/** Not to be tried again; why is kept, the text is not. */
export function markMailGivenUp(id: string, now: number, error: string): void {
  db.update(mailOutbox).set({ gaveUpAt: now, lastError: error, text: "", html: "", attempts: sql`${mailOutbox.attempts} + 1` }).where(eq(mailOutbox.id, id)).run();
}

/** Forget delivered and given-up mails created before `time`. */
export function purgeFinishedMails(time: number): void {
  db.delete(mailOutbox)
    .where(and(lt(mailOutbox.createdAt, time), or(isNotNull(mailOutbox.sentAt), isNotNull(mailOutbox.gaveUpAt))))
    .run();
}

/** The newest mail that failed an attempt (waiting for its retry or given up): what /admin shows. */
export function lastMailFailure(): Pick<OutboxMail, "lastError" | "recipient" | "gaveUpAt" | "createdAt"> | undefined {
  return db
    .select({ lastError: mailOutbox.lastError, recipient: mailOutbox.recipient, gaveUpAt: mailOutbox.gaveUpAt, createdAt: mailOutbox.createdAt })
    .from(mailOutbox)
    .where(isNotNull(mailOutbox.lastError))
    .orderBy(desc(mailOutbox.createdAt))
    .limit(1)
    .get();
}
