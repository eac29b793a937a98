import { sql } from "drizzle-orm";
import { db } from "~/services/db.server";
import { rateLimits } from "./schema.server";

/**
 * Count one attempt under `key` in a fixed window and return the count so far
 * in the current window (a new window starts at 1).
 */
export function countAttempt(key: string, windowMs: number, now: number): number {
  const row = db
    .insert(rateLimits)
    .values({ key, windowStart: now, count: 1 })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        count: sql`CASE WHEN ${rateLimits.windowStart} <= ${now - windowMs} THEN 1 ELSE ${rateLimits.count} + 1 END`,
        windowStart: sql`CASE WHEN ${rateLimits.windowStart} <= ${now - windowMs} THEN ${now} ELSE ${rateLimits.windowStart} END`,
      },
    })
    .returning({ count: rateLimits.count })
    .get();
  return row.count;
}

/** Attempts counted under `key` in the current window, without counting one. */
export function attemptsSoFar(key: string, windowMs: number, now: number): number {
  const row = db
    .select({ count: rateLimits.count, windowStart: rateLimits.windowStart })
    .from(rateLimits)
    .where(sql`${rateLimits.key} = ${key}`)
    .get();
  return row && row.windowStart > now - windowMs ? row.count : 0;
}

export function purgeOldAttempts(olderThan: number): void {
  db.delete(rateLimits).where(sql`${rateLimits.windowStart} < ${olderThan}`).run();
}
