import { and, asc, eq } from "drizzle-orm";
import { countRows, db } from "~/db/connection.server";
import { appeals, moderationDecisions, users } from "~/db/schema.server";

export type Appeal = typeof appeals.$inferSelect;

/** A new appeal; undefined when the decision already has one (one per decision, by the unique key). */
export function insertAppeal(appeal: { decisionId: number; userId: string; text: string; createdAt: number }): number | undefined {
  return db.insert(appeals).values(appeal).onConflictDoNothing().returning({ id: appeals.id }).get()?.id;
}

export function getAppeal(id: number): Appeal | undefined {
  return db.select().from(appeals).where(eq(appeals.id, id)).get();
}

/** Decide an open appeal; false when it was decided meanwhile. */
export function decideAppealRow(id: number, change: { state: "granted" | "rejected"; decidedAt: number; deciderId: string | null; reason: string }): boolean {
  return db.update(appeals).set(change).where(and(eq(appeals.id, id), eq(appeals.state, "open"))).run().changes > 0;
}

/** The admins' queue of open appeals, oldest first, with the decision contested. */
export function listOpenAppeals(limit: number) {
  const rows = db
    .select({ appeal: appeals, decision: moderationDecisions, authorName: users.displayName })
    .from(appeals)
    .innerJoin(moderationDecisions, eq(moderationDecisions.id, appeals.decisionId))
    .innerJoin(users, eq(users.id, appeals.userId))
    .where(eq(appeals.state, "open"))
    .orderBy(asc(appeals.createdAt))
    .limit(limit)
    .all();
  return { rows, total: countRows(appeals, eq(appeals.state, "open")) };
}
