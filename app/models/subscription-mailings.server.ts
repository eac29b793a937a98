import { and, asc, count, desc, eq, gt, inArray, isNull, lte, sql } from "drizzle-orm";
import { db } from "~/db/connection.server";
import { mailOutbox, posts, postTags, subscribers, subscriptionCenturies, subscriptionMailings, subscriptionTags } from "~/db/schema.server";
import type { Frequency } from "~/lib/subscriptions";

/** What the site mails its subscribers, and to whom (~/services/subscriptions/mailings.server says when). */

export type Mailing = typeof subscriptionMailings.$inferSelect;

/** A new mailing; false when the article has one already (an article is announced once). */
export function insertMailing(row: typeof subscriptionMailings.$inferInsert): boolean {
  return db.insert(subscriptionMailings).values(row).onConflictDoNothing().run().changes > 0;
}

export function getMailing(id: string): Mailing | undefined {
  return db.select().from(subscriptionMailings).where(eq(subscriptionMailings.id, id)).get();
}

/** Mailings whose mails are not all queued yet, oldest first. */
export function unqueuedMailingIds(): string[] {
  return db
    .select({ id: subscriptionMailings.id })
    .from(subscriptionMailings)
    .where(isNull(subscriptionMailings.queuedAt))
    .orderBy(asc(subscriptionMailings.createdAt))
    .all()
    .map((row) => row.id);
}

/** A chunk of mails queued: the last subscriber id reached, and when all were (null while more remain). */
export function noteQueued(id: string, { through, added, doneAt }: { through: string | null; added: number; doneAt: number | null }): void {
  db.update(subscriptionMailings)
    .set({ queuedThrough: through, queuedAt: doneAt, recipients: sql`${subscriptionMailings.recipients} + ${added}` })
    .where(eq(subscriptionMailings.id, id))
    .run();
}

export function countOutcome(id: string, outcome: "sent" | "skipped" | "failed", n: number): void {
  const column = subscriptionMailings[outcome];
  db.update(subscriptionMailings)
    .set({ [outcome]: sql`${column} + ${n}` })
    .where(eq(subscriptionMailings.id, id))
    .run();
}

export function lastDigest(): Mailing | undefined {
  return db.select().from(subscriptionMailings).where(eq(subscriptionMailings.kind, "digest")).orderBy(desc(subscriptionMailings.createdAt)).limit(1).get();
}

/** The articles announced in (after, through], the newest `limit` of them, in the order they were: what a digest covers. */
export function articlesAnnouncedBetween(after: number, through: number, limit: number): { postId: string; announcedAt: number }[] {
  return db
    .select({ postId: sql<string>`${subscriptionMailings.postId}`, announcedAt: subscriptionMailings.createdAt })
    .from(subscriptionMailings)
    .where(and(eq(subscriptionMailings.kind, "article"), gt(subscriptionMailings.createdAt, after), lte(subscriptionMailings.createdAt, through)))
    .orderBy(desc(subscriptionMailings.createdAt))
    .limit(limit)
    .all()
    .reverse();
}

/** What a mail says of an article, without its text (a body may be 150 KB), with its tags; only the public ones of `ids`. */
export function publicArticleSummaries(ids: string[]) {
  if (ids.length === 0) return [];
  const rows = db
    .select({
      id: posts.id,
      title: posts.title,
      period: posts.period,
      periodStart: posts.periodStart,
      excerpt: posts.excerpt,
      image: posts.image,
      imageWidth: posts.imageWidth,
      imageHeight: posts.imageHeight,
    })
    .from(posts)
    .where(and(inArray(posts.id, ids), isNull(posts.hiddenAt)))
    .all();
  const tags = db.select({ postId: postTags.postId, tag: postTags.tag }).from(postTags).where(inArray(postTags.postId, ids)).orderBy(sql`rowid`).all();
  return rows.map((row) => ({ ...row, tags: tags.filter((t) => t.postId === row.id).map((t) => t.tag) }));
}

/** What a subscriber's topics are matched against: an article's tags and century (null: no period). */
export type Topics = { tags: string[]; centuries: number[] };

/**
 * Confirmed subscribers of `frequency` after the id `after` (ids are random:
 * a stable order to go on from), `limit` of them, who follow every new
 * article or one of `topics`' tags or centuries.
 */
export function subscribersFollowing(frequency: Frequency, topics: Topics, after: string | null, limit: number): string[] {
  const s = subscribers;
  const noTopics = sql`NOT EXISTS (SELECT 1 FROM ${subscriptionTags} WHERE ${subscriptionTags.subscriberId} = ${s.id}) AND NOT EXISTS (SELECT 1 FROM ${subscriptionCenturies} WHERE ${subscriptionCenturies.subscriberId} = ${s.id})`;
  const aTag = topics.tags.length
    ? sql`EXISTS (SELECT 1 FROM ${subscriptionTags} WHERE ${subscriptionTags.subscriberId} = ${s.id} AND ${inArray(subscriptionTags.tag, topics.tags)})`
    : sql`0`;
  const aCentury = topics.centuries.length
    ? sql`EXISTS (SELECT 1 FROM ${subscriptionCenturies} WHERE ${subscriptionCenturies.subscriberId} = ${s.id} AND ${inArray(subscriptionCenturies.century, topics.centuries)})`
    : sql`0`;
  return db
    .select({ id: s.id })
    .from(s)
    .where(and(eq(s.status, "confirmed"), eq(s.frequency, frequency), after === null ? undefined : gt(s.id, after), sql`(${noTopics} OR ${aTag} OR ${aCentury})`))
    .orderBy(asc(s.id))
    .limit(limit)
    .all()
    .map((row) => row.id);
}

const insertNewsletterMail = db
  .insert(mailOutbox)
  .values({
    id: sql.placeholder("id"),
    kind: "newsletter",
    recipient: "",
    subject: "",
    text: "",
    html: "",
    mailingId: sql.placeholder("mailingId"),
    subscriberId: sql.placeholder("subscriberId"),
    createdAt: sql.placeholder("now"),
    sendBefore: sql.placeholder("sendBefore"),
    nextAttemptAt: sql.placeholder("now"),
  })
  .prepare();

/** The mails of one chunk of a mailing, to be made when they are sent (kind `newsletter`); one prepared statement, as a chunk holds hundreds. */
export function insertNewsletterMails(rows: { id: string; mailingId: string; subscriberId: string; now: number; sendBefore: number }[]): void {
  for (const row of rows) insertNewsletterMail.run(row);
}

/** For /admin/odber: the newest mailings, with their article's title (gone: null) and how many of their mails wait. */
export function recentMailings(limit: number) {
  const waitingOf = db
    .select({ mailingId: mailOutbox.mailingId, n: count().as("n") })
    .from(mailOutbox)
    .where(and(isNull(mailOutbox.sentAt), isNull(mailOutbox.gaveUpAt), sql`${mailOutbox.mailingId} IS NOT NULL`))
    .groupBy(mailOutbox.mailingId)
    .as("waiting_of");
  return db
    .select({
      id: subscriptionMailings.id,
      kind: subscriptionMailings.kind,
      postId: subscriptionMailings.postId,
      title: posts.title,
      createdAt: subscriptionMailings.createdAt,
      queuedAt: subscriptionMailings.queuedAt,
      recipients: subscriptionMailings.recipients,
      sent: subscriptionMailings.sent,
      skipped: subscriptionMailings.skipped,
      failed: subscriptionMailings.failed,
      waiting: sql<number>`coalesce(${waitingOf.n}, 0)`,
    })
    .from(subscriptionMailings)
    .leftJoin(posts, eq(posts.id, subscriptionMailings.postId))
    .leftJoin(waitingOf, eq(waitingOf.mailingId, subscriptionMailings.id))
    .orderBy(desc(subscriptionMailings.createdAt))
    .limit(limit)
    .all();
}
