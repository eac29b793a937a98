import { and, desc, eq, sql } from "drizzle-orm";
import { countRows, db } from "~/db/connection.server";
import { appeals, moderationDecisions, posts } from "~/db/schema.server";

export type Decision = typeof moderationDecisions.$inferSelect;

export function insertDecision(decision: Omit<typeof moderationDecisions.$inferInsert, "id">): number {
  return db.insert(moderationDecisions).values(decision).returning({ id: moderationDecisions.id }).get().id;
}

export function getDecision(id: number): Decision | undefined {
  return db.select().from(moderationDecisions).where(eq(moderationDecisions.id, id)).get();
}

/** The decisions that restricted an account (DECISION_ACTIONS' `restricts`): its statements of reasons. */
const restrictionsOf = (userId: string) => and(eq(moderationDecisions.userId, userId), sql`${moderationDecisions.action} IN ('hide', 'delete', 'disable')`);

const appealColumns = {
  appealId: appeals.id,
  appealState: appeals.state,
  appealText: appeals.text,
  appealCreatedAt: appeals.createdAt,
  appealDecidedAt: appeals.decidedAt,
  appealReason: appeals.reason,
};

/** The decisions that restrict an account (its statements of reasons), newest first, each with its appeal. */
export function listStatementsOf(userId: string, limit: number) {
  return db
    .select({ decision: moderationDecisions, ...appealColumns })
    .from(moderationDecisions)
    .leftJoin(appeals, eq(appeals.decisionId, moderationDecisions.id))
    .where(restrictionsOf(userId))
    .orderBy(desc(moderationDecisions.createdAt))
    .limit(limit)
    .all();
}

export function countStatementsOf(userId: string): number {
  return countRows(moderationDecisions, restrictionsOf(userId));
}

/** The decisions of some reports (a reader's "Moje hlásenia"). */
export function decisionsByIds(ids: number[]): Map<number, Decision> {
  if (ids.length === 0) return new Map();
  const rows = db
    .select()
    .from(moderationDecisions)
    .where(sql`${moderationDecisions.id} IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`)
    .all();
  return new Map(rows.map((row) => [row.id, row]));
}

/**
 * A page of the public log, newest first: the title only while the article
 * is there for everyone (a deleted or hidden article is not named), the
 * appeal's outcome once there is one. No reporter, e-mail or moderator.
 */
export function listPublicDecisions(page: { offset: number; limit: number }) {
  return db
    .select({
      id: moderationDecisions.id,
      createdAt: moderationDecisions.createdAt,
      action: moderationDecisions.action,
      ground: moderationDecisions.ground,
      groundDetail: moderationDecisions.groundDetail,
      reason: moderationDecisions.reason,
      postId: posts.id,
      postTitle: sql<string | null>`CASE WHEN ${posts.hiddenAt} IS NULL THEN ${posts.title} END`,
      appealState: appeals.state,
      appealDecidedAt: appeals.decidedAt,
      appealReason: appeals.reason,
    })
    .from(moderationDecisions)
    .leftJoin(posts, eq(posts.id, moderationDecisions.postId))
    .leftJoin(appeals, eq(appeals.decisionId, moderationDecisions.id))
    .orderBy(desc(moderationDecisions.id))
    .limit(page.limit)
    .offset(page.offset)
    .all();
}

export function countDecisions(): number {
  return countRows(moderationDecisions);
}

/** Decisions per month ("2026-11"), newest first: at most `months` rows. */
export function decisionsPerMonth(months: number) {
  return db
    .select({
      month: sql<string>`strftime('%Y-%m', ${moderationDecisions.createdAt} / 1000, 'unixepoch')`.as("month"),
      upheld: sql<number>`sum(${moderationDecisions.action} IN ('requestFix', 'hide', 'delete', 'disable'))`,
      total: sql<number>`count(*)`,
    })
    .from(moderationDecisions)
    .groupBy(sql`month`)
    .orderBy(desc(sql`month`))
    .limit(months)
    .all();
}
