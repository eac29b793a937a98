import { and, eq, gt, gte, inArray, lt, sql } from "drizzle-orm";
import { db } from "~/db/connection.server";
import { rateLimits } from "~/db/schema.server";

export type Budget = { key: string; max: number; windowMs: number };

/**
 * Take one attempt from each budget, all or none, in one transaction: a
 * budget whose window has passed starts again at 1; one already used up
 * takes nothing. The check and the count are one statement, so parallel
 * requests can never take more than `max` between them.
 */
export function takeAttempts(budgets: Budget[], now: number): boolean {
  const refused = new Error("used up");
  try {
    db.transaction(() => {
      for (const { key, max, windowMs } of budgets) {
        const expired = sql`${rateLimits.windowStart} <= ${now - windowMs}`;
        const taken = db
          .insert(rateLimits)
          .values({ key, windowStart: now, count: 1 })
          .onConflictDoUpdate({
            target: rateLimits.key,
            set: {
              count: sql`CASE WHEN ${expired} THEN 1 ELSE ${rateLimits.count} + 1 END`,
              windowStart: sql`CASE WHEN ${expired} THEN ${now} ELSE ${rateLimits.windowStart} END`,
            },
            setWhere: sql`${expired} OR ${rateLimits.count} < ${max}`,
          })
          .returning({ count: rateLimits.count })
          .get();
        if (!taken) throw refused;
      }
    }, { behavior: "immediate" });
    return true;
  } catch (error) {
    if (error === refused) return false;
    throw error;
  }
}

/** When every used-up budget among `budgets` has started a new window (ms since the epoch): the earliest another attempt can pass. */
export function usedUpUntil(budgets: Budget[], now: number): number {
  const rows = db
    .select({ key: rateLimits.key, windowStart: rateLimits.windowStart, count: rateLimits.count })
    .from(rateLimits)
    .where(inArray(rateLimits.key, budgets.map((b) => b.key)))
    .all();
  let until = now;
  for (const { key, max, windowMs } of budgets) {
    const row = rows.find((r) => r.key === key);
    if (row && row.count >= max && row.windowStart > now - windowMs) until = Math.max(until, row.windowStart + windowMs);
  }
  return until;
}

/** Give back one attempt taken in the current window (e.g. a sign-in that succeeded is no failure). */
export function returnAttempts(budgets: Budget[], now: number): void {
  for (const { key, windowMs } of budgets) {
    db.update(rateLimits)
      .set({ count: sql`${rateLimits.count} - 1` })
      .where(and(eq(rateLimits.key, key), gt(rateLimits.windowStart, now - windowMs), gt(rateLimits.count, 0)))
      .run();
  }
}

export function forgetAttempt(key: string): void {
  db.delete(rateLimits).where(eq(rateLimits.key, key)).run();
}

/** Forget every counter whose key starts with `prefix` (a range of the primary key). */
export function forgetAttemptsStartingWith(prefix: string): void {
  db.delete(rateLimits)
    .where(and(gte(rateLimits.key, prefix), lt(rateLimits.key, `${prefix}\uffff`)))
    .run();
}

export function purgeOldAttempts(olderThan: number): void {
  db.delete(rateLimits).where(lt(rateLimits.windowStart, olderThan)).run();
}
