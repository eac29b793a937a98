import { and, desc, eq, gt, inArray, lte, sql } from "drizzle-orm";
import { db, sqlite } from "~/db/connection.server";
import { postReads, posts, users } from "~/db/schema.server";
import { READ_WINDOWS, READS_KEPT_DAYS, type ArticleReads } from "~/lib/reads";

/** Counted reads not yet written: for each day (siteDay), each article's count. */
export type ReadBatch = { day: number; counts: Map<string, number> }[];

type Statements = { add: (row: { postId: string; day: number; count: number }) => void; prune: (before: number) => number };
let statements: Statements | undefined;

/** Prepared on the first write (a read-only replica never writes, and its connection may not prepare one). */
function prepared(): Statements {
  if (statements) return statements;
  // Only an article that still exists gets its count: one deleted since it was read is skipped, not a foreign-key failure.
  const add = sqlite.prepare<{ postId: string; day: number; count: number }>(
    `INSERT INTO post_reads (post_id, day, count) SELECT id, :day, :count FROM posts WHERE id = :postId
     ON CONFLICT (post_id, day) DO UPDATE SET count = count + excluded.count`,
  );
  const prune = sqlite.prepare<{ before: number }>("DELETE FROM post_reads WHERE day <= :before");
  statements = { add: (row) => void add.run(row), prune: (before) => prune.run({ before }).changes };
  return statements;
}

/**
 * Add a batch of counts, one upsert per article and day, all in one
 * transaction; with `today`, also forget the days past those kept
 * (READS_KEPT_DAYS, one range of post_reads_day_idx). Returns how many
 * day rows were pruned.
 */
export function addReads(batch: ReadBatch, today?: number): number {
  const { add, prune } = prepared();
  return sqlite.transaction(() => {
    for (const { day, counts } of batch) for (const [postId, count] of counts) add({ postId, day, count });
    return today === undefined ? 0 : prune(today - READS_KEPT_DAYS);
  }).immediate();
}

/** The sums of the last 7 and 30 days up to `today`, today included. */
function windowSums(today: number) {
  return {
    week: sql<number>`coalesce(sum(CASE WHEN ${postReads.day} > ${today - READ_WINDOWS.week} THEN ${postReads.count} END), 0)`,
    month: sql<number>`coalesce(sum(${postReads.count}), 0)`,
    inWindow: and(gt(postReads.day, today - READ_WINDOWS.month), lte(postReads.day, today)),
  };
}

/** The reads of these articles in the last 7 and 30 days (by primary key: a page of an author's articles); an article nobody read is left out. */
export function readsOfPosts(postIds: string[], today: number): Map<string, ArticleReads> {
  if (postIds.length === 0) return new Map();
  const { week, month, inWindow } = windowSums(today);
  const rows = db
    .select({ postId: postReads.postId, week, month })
    .from(postReads)
    .where(and(inArray(postReads.postId, postIds), inWindow))
    .groupBy(postReads.postId)
    .all();
  return new Map(rows.map(({ postId, week, month }) => [postId, { week, month }]));
}

export type MostRead = { id: string; title: string; author: string; hidden: boolean } & ArticleReads;

/**
 * The `limit` articles read most in the last 7 or 30 days (`by`), with
 * their author, the other period breaking ties. The table holds at most
 * READS_KEPT_DAYS rows per article, so this reads at most that many.
 */
export function mostReadPosts(today: number, by: keyof ArticleReads, limit: number): MostRead[] {
  const { week, month, inWindow } = windowSums(today);
  const [first, second] = by === "week" ? [week, month] : [month, week];
  return db
    .select({ id: posts.id, title: posts.title, author: users.displayName, hiddenAt: posts.hiddenAt, week, month })
    .from(postReads)
    .innerJoin(posts, eq(posts.id, postReads.postId))
    .innerJoin(users, eq(users.id, posts.authorId))
    .where(inWindow)
    .groupBy(postReads.postId)
    .having(gt(first, 0))
    .orderBy(desc(first), desc(second), posts.id)
    .limit(limit)
    .all()
    .map(({ hiddenAt, ...row }) => ({ ...row, hidden: hiddenAt !== null }));
}

/** All the site's reads in the last 7 and 30 days. */
export function readsOfSite(today: number): ArticleReads {
  const { week, month, inWindow } = windowSums(today);
  return db.select({ week, month }).from(postReads).where(inWindow).get() ?? { week: 0, month: 0 };
}

const authorOf = db.select({ authorId: posts.authorId }).from(posts).where(eq(posts.id, sql.placeholder("id"))).prepare();

/** Who wrote an article (one primary-key lookup: asked for a signed-in reader's read, whose own are not counted). */
export function authorOfPost(postId: string): string | undefined {
  return authorOf.get({ id: postId })?.authorId;
}
