import { and, desc, eq, inArray, isNotNull, isNull, ne, sql } from "drizzle-orm";
import { countRows, db, sqlite } from "~/db/connection.server";
import { appeals, moderationDecisions, posts } from "~/db/schema.server";
import { RESTRICTING_ACTIONS } from "~/lib/moderation/moderation";

export type Decision = typeof moderationDecisions.$inferSelect;

export function insertDecision(decision: Omit<typeof moderationDecisions.$inferInsert, "id">): number {
  return db.insert(moderationDecisions).values(decision).returning({ id: moderationDecisions.id }).get().id;
}

export function getDecision(id: number): Decision | undefined {
  return db.select().from(moderationDecisions).where(eq(moderationDecisions.id, id)).get();
}

/**
 * Whether a later decision than `decision` changed the same thing: the
 * article's visibility (hide, disable, restore) or, for `account`, the
 * account (disable). A granted appeal undoes only what its decision still
 * decides.
 */
export function decidedAgainAfter(decision: Decision, what: "article" | "account"): boolean {
  const later = sql`(${moderationDecisions.createdAt} > ${decision.createdAt} OR (${moderationDecisions.createdAt} = ${decision.createdAt} AND ${moderationDecisions.id} > ${decision.id}))`;
  const same =
    what === "article"
      ? and(eq(moderationDecisions.postId, decision.postId ?? ""), sql`${moderationDecisions.action} IN ('hide', 'disable', 'restore')`)
      : and(eq(moderationDecisions.userId, decision.userId ?? ""), eq(moderationDecisions.action, "disable"));
  return countRows(moderationDecisions, and(same, later)) > 0;
}

/** The decisions that restricted an account (DECISION_ACTIONS' `restricts`): its statements of reasons. */
const restrictionsOf = (userId: string) => and(eq(moderationDecisions.userId, userId), inArray(moderationDecisions.action, RESTRICTING_ACTIONS));

const appealColumns = {
  appealId: appeals.id,
  appealState: appeals.state,
  appealText: appeals.text,
  appealCreatedAt: appeals.createdAt,
  appealDecidedAt: appeals.decidedAt,
  appealReason: appeals.reason,
};

/** The newest decision that hid this article (hide, or disable with it): whose reporters hear when it is shown again. */
export function lastHidingOf(postId: string): Decision | undefined {
  return db
    .select()
    .from(moderationDecisions)
    .where(and(eq(moderationDecisions.postId, postId), inArray(moderationDecisions.action, ["hide", "disable"])))
    .orderBy(desc(moderationDecisions.id))
    .limit(1)
    .get();
}

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

/** The decisions of some reports (a reader's "Moje hlásenia"), each with its appeal's outcome once decided. */
export function decisionsByIds(ids: number[]): Map<number, Decision & { appealState: string | null; shownAgain: boolean }> {
  if (ids.length === 0) return new Map();
  // A hidden article shown again by a later decision ("Znova zverejniť"): the hiding no longer stands.
  const shownAgain = sql<number>`${moderationDecisions.action} IN ('hide', 'disable') AND EXISTS (SELECT 1 FROM moderation_decisions later
    WHERE later.post_id = ${moderationDecisions.postId} AND later.action = 'restore' AND later.id > ${moderationDecisions.id})`;
  const rows = db
    .select({ decision: moderationDecisions, appealState: sql<string | null>`CASE WHEN ${appeals.state} != 'open' THEN ${appeals.state} END`, shownAgain })
    .from(moderationDecisions)
    .leftJoin(appeals, eq(appeals.decisionId, moderationDecisions.id))
    .where(sql`${moderationDecisions.id} IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`)
    .all();
  return new Map(rows.map((row) => [row.decision.id, { ...row.decision, appealState: row.appealState, shownAgain: Boolean(row.shownAgain) }]));
}

/**
 * A page of the public log, newest first: the article's id and title only
 * while it is there for everyone (a deleted or hidden article is not named,
 * and its address not given), the appeal's outcome once it is decided (an
 * open appeal changes no page: only its decision does, through migration
 * 0017's trigger). No reporter, e-mail or moderator.
 */
export function listPublicDecisions(page: { offset: number; limit: number }) {
  return publicLogQueries.page(page).all();
}

export const publicLogQueries = {
  page: publicDecisionsPage,
  // Each range is one search of moderation_decisions_created_idx; the actions are looked up in the rows it finds.
  months: `
  SELECT count(d.id) AS total, coalesce(sum(d.action IN (SELECT value FROM json_each(:upheld))), 0) AS upheld
  FROM json_each(:ranges) AS r
  LEFT JOIN moderation_decisions AS d ON d.created_at >= r.value ->> 0 AND d.created_at < r.value ->> 1
  GROUP BY r.key
  ORDER BY r.key`,
};

function publicDecisionsPage(page: { offset: number; limit: number }) {
  // The page's ids first, from the index alone: a deep page skips index entries, not joined rows.
  const ids = db
    .select({ id: moderationDecisions.id })
    .from(moderationDecisions)
    .orderBy(desc(moderationDecisions.createdAt), desc(moderationDecisions.id))
    .limit(page.limit)
    .offset(page.offset);
  const visible = and(isNotNull(posts.id), isNull(posts.hiddenAt));
  return db
    .select({
      id: moderationDecisions.id,
      createdAt: moderationDecisions.createdAt,
      action: moderationDecisions.action,
      ground: moderationDecisions.ground,
      groundDetail: moderationDecisions.groundDetail,
      reason: moderationDecisions.reason,
      postId: sql<string | null>`CASE WHEN ${visible} THEN ${posts.id} END`,
      postTitle: sql<string | null>`CASE WHEN ${visible} THEN ${posts.title} END`,
      article: sql<"visible" | "hidden" | "deleted" | "none">`CASE WHEN ${moderationDecisions.postId} IS NULL THEN 'none' WHEN ${posts.id} IS NULL THEN 'deleted' WHEN ${posts.hiddenAt} IS NOT NULL THEN 'hidden' ELSE 'visible' END`,
      appealState: appeals.state,
      appealDecidedAt: appeals.decidedAt,
      appealReason: appeals.reason,
    })
    .from(moderationDecisions)
    .leftJoin(posts, eq(posts.id, moderationDecisions.postId))
    .leftJoin(appeals, and(eq(appeals.decisionId, moderationDecisions.id), ne(appeals.state, "open")))
    .where(inArray(moderationDecisions.id, ids))
    .orderBy(desc(moderationDecisions.createdAt), desc(moderationDecisions.id));
}

export function countDecisions(): number {
  return countRows(moderationDecisions);
}

const monthCounts = sqlite.prepare<{ ranges: string; upheld: string }, { total: number; upheld: number }>(publicLogQueries.months);

/**
 * How many decisions fall in each time range [from, to) (the months of the
 * public log), and how many of them have one of the `upheld` actions; one
 * row per range, in their order.
 */
export function decisionsInRanges(ranges: { from: number; to: number }[], upheld: readonly string[]): { total: number; upheld: number }[] {
  return monthCounts.all({ ranges: JSON.stringify(ranges.map((r) => [r.from, r.to])), upheld: JSON.stringify(upheld) });
}
