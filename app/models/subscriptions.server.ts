import { createHash } from "node:crypto";
import { and, asc, eq, gt, isNotNull, lte } from "drizzle-orm";
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
