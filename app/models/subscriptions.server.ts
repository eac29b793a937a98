import { createHash } from "node:crypto";
import { and, asc, count, eq, gt, inArray, isNotNull, lte, sql, type SQL } from "drizzle-orm";
import { db } from "~/db/connection.server";
import { subscribers, subscriptionCenturies, subscriptionSuppressions, subscriptionTags } from "~/db/schema.server";
import type { SubscriptionChoices } from "~/lib/subscriptions";

/** Readers who follow the site by e-mail, their topics and the suppressed addresses (~/services/subscriptions says the rules). */

export type Subscriber = typeof subscribers.$inferSelect;
export type SubscriberWithChoices = Subscriber & SubscriptionChoices;

export function getSubscriberByEmail(email: string): Subscriber | undefined {
  return db.select().from(subscribers).where(eq(subscribers.email, email)).get();
}

/** A subscriber with its tags and centuries (in the lists' order). */
export function getSubscriberWithChoices(id: string): SubscriberWithChoices | undefined {
  const row = db.select().from(subscribers).where(eq(subscribers.id, id)).get();
  if (!row) return undefined;
  const tags = db.select({ tag: subscriptionTags.tag }).from(subscriptionTags).where(eq(subscriptionTags.subscriberId, id)).all();
  const centuries = db
    .select({ century: subscriptionCenturies.century })
    .from(subscriptionCenturies)
    .where(eq(subscriptionCenturies.subscriberId, id))
    .orderBy(asc(subscriptionCenturies.century))
    .all();
  return { ...row, tags: tags.map((t) => t.tag), centuries: centuries.map((c) => c.century) };
}

/** Replace a subscriber's topics and frequency. Call inside a transaction. */
export function setChoices(id: string, { frequency, tags, centuries }: SubscriptionChoices): void {
  db.update(subscribers).set({ frequency }).where(eq(subscribers.id, id)).run();
  db.delete(subscriptionTags).where(eq(subscriptionTags.subscriberId, id)).run();
  db.delete(subscriptionCenturies).where(eq(subscriptionCenturies.subscriberId, id)).run();
  if (tags.length) db.insert(subscriptionTags).values(tags.map((tag) => ({ subscriberId: id, tag }))).run();
  if (centuries.length) db.insert(subscriptionCenturies).values(centuries.map((century) => ({ subscriberId: id, century }))).run();
}

/** A new subscriber row (its topics set apart by setChoices). */
export function insertSubscriber(row: typeof subscribers.$inferInsert): void {
  db.insert(subscribers).values(row).run();
}

/** A pending subscriber's new consent and confirmation link (asked again). */
export function renewPending(id: string, fields: Pick<Subscriber, "consentSource" | "consentAt" | "confirmTokenHash" | "confirmExpiresAt">): void {
  db.update(subscribers).set(fields).where(eq(subscribers.id, id)).run();
}

/** Confirmed now (by the link, or a signed-in owner of the address): the link is used up. */
export function markConfirmed(id: string, now: number, consent?: Pick<Subscriber, "consentSource" | "consentAt">): void {
  db.update(subscribers)
    .set({ status: "confirmed", confirmedAt: now, confirmTokenHash: null, confirmExpiresAt: null, ...consent })
    .where(eq(subscribers.id, id))
    .run();
}

/** The pending subscriber a confirmation link names, while it is valid. */
export function findPendingByToken(tokenHash: string, now: number): Subscriber | undefined {
  return db
    .select()
    .from(subscribers)
    .where(and(eq(subscribers.confirmTokenHash, tokenHash), eq(subscribers.status, "pending"), gt(subscribers.confirmExpiresAt, now)))
    .get();
}

/** Forget a subscriber and its topics. Whether there was one. */
export function deleteSubscriber(id: string): boolean {
  return db.delete(subscribers).where(eq(subscribers.id, id)).run().changes > 0;
}

/** Forget pending subscriptions whose link has expired: an address a stranger typed is not kept. */
export function deleteExpiredPending(now: number): number {
  return db
    .delete(subscribers)
    .where(and(eq(subscribers.status, "pending"), isNotNull(subscribers.confirmExpiresAt), lte(subscribers.confirmExpiresAt, now)))
    .run().changes;
}

/**
 * End a subscription (its owner unsubscribes, or deletes the account of its
 * address): the subscriber and its topics go, and the address is kept only
 * as its suppression digest, so that nothing is mailed to it again without
 * a new confirmed consent. Call inside a transaction.
 */
export function endSubscription(subscriber: Pick<Subscriber, "id" | "email">, now: number): void {
  deleteSubscriber(subscriber.id);
  addSuppression(suppressionHash(subscriber.email), now);
}

/**
 * What an unsubscribed address is kept as (docs/decisions/subscription-suppression-hashed.md):
 * a SHA-256 of the normalised address, unkeyed so that it survives a new session secret.
 */
export function suppressionHash(email: string): string {
  return createHash("sha256").update(`dejiny-suppression:${email}`).digest("hex");
}

export function addSuppression(emailHash: string, now: number): void {
  db.insert(subscriptionSuppressions).values({ emailHash, createdAt: now }).onConflictDoNothing().run();
}

export function removeSuppression(emailHash: string): void {
  db.delete(subscriptionSuppressions).where(eq(subscriptionSuppressions.emailHash, emailHash)).run();
}

export function isSuppressed(emailHash: string): boolean {
  return db.select({ h: subscriptionSuppressions.emailHash }).from(subscriptionSuppressions).where(eq(subscriptionSuppressions.emailHash, emailHash)).get() !== undefined;
}

/** For /admin/odber: subscribers by status and frequency. */
export function countSubscribers(): { status: Subscriber["status"]; frequency: Subscriber["frequency"]; n: number }[] {
  return db.select({ status: subscribers.status, frequency: subscribers.frequency, n: count() }).from(subscribers).groupBy(subscribers.status, subscribers.frequency).all();
}

/** For /admin/odber: confirmed subscribers per chosen tag, and per chosen century (ascending). */
export function countFollowers(): { tags: { tag: string; n: number }[]; centuries: { century: number; n: number }[] } {
  const confirmedPer = <V>(table: typeof subscriptionTags | typeof subscriptionCenturies, value: SQL<V>) =>
    db
      .select({ value, n: count() })
      .from(table)
      .innerJoin(subscribers, eq(subscribers.id, table.subscriberId))
      .where(eq(subscribers.status, "confirmed"))
      .groupBy(value)
      .orderBy(value)
      .all();
  return {
    tags: confirmedPer(subscriptionTags, sql<string>`${subscriptionTags.tag}`).map(({ value, n }) => ({ tag: value, n })),
    centuries: confirmedPer(subscriptionCenturies, sql<number>`${subscriptionCenturies.century}`).map(({ value, n }) => ({ century: value, n })),
  };
}

/** Every confirmed subscriber with its topics (the operator's export), a thousand at a time, so that memory does not grow with the list. */
export function* confirmedSubscribers(): Generator<SubscriberWithChoices> {
  const listOf = (table: typeof subscriptionTags | typeof subscriptionCenturies, column: typeof subscriptionTags.tag | typeof subscriptionCenturies.century) =>
    sql<string | null>`(SELECT group_concat(${column}, '|') FROM ${table} WHERE ${table.subscriberId} = ${subscribers.id})`;
  for (let after = ""; ; ) {
    const page = db
      .select({ subscriber: subscribers, tags: listOf(subscriptionTags, subscriptionTags.tag), centuries: listOf(subscriptionCenturies, subscriptionCenturies.century) })
      .from(subscribers)
      .where(and(eq(subscribers.status, "confirmed"), gt(subscribers.id, after)))
      .orderBy(asc(subscribers.id))
      .limit(1000)
      .all();
    for (const { subscriber, tags, centuries } of page) yield { ...subscriber, tags: tags ? tags.split("|") : [], centuries: centuries ? centuries.split("|").map(Number) : [] };
    if (page.length < 1000) return;
    after = page[page.length - 1].subscriber.id;
  }
}

/** Subscribers with their topics, by id (a batch of mails': three queries however many). */
export function subscribersWithChoices(ids: string[]): Map<string, SubscriberWithChoices> {
  const found = new Map<string, SubscriberWithChoices>();
  if (ids.length === 0) return found;
  for (const row of db.select().from(subscribers).where(inArray(subscribers.id, ids)).all()) found.set(row.id, { ...row, tags: [], centuries: [] });
  for (const { subscriberId, tag } of db.select().from(subscriptionTags).where(inArray(subscriptionTags.subscriberId, ids)).all()) found.get(subscriberId)?.tags.push(tag);
  const centuries = db.select().from(subscriptionCenturies).where(inArray(subscriptionCenturies.subscriberId, ids)).orderBy(asc(subscriptionCenturies.century)).all();
  for (const { subscriberId, century } of centuries) found.get(subscriberId)?.centuries.push(century);
  return found;
}
