import { and, asc, desc, eq, inArray, sql, type SQL } from "drizzle-orm";
import { countRows, db } from "~/db/connection.server";
import { posts, reports, users } from "~/db/schema.server";

/** A new open report; false when this reader already has an open report of this article (or of this passage). */
export function insertReport(report: {
  postId: string;
  postTitle: string;
  reporterId: string;
  reason: string;
  note: string;
  paragraph?: number;
  passage?: string;
  createdAt: number;
}): number | undefined {
  return db.insert(reports).values(report).onConflictDoNothing().returning({ id: reports.id }).get()?.id;
}

export type OpenReport = {
  id: number;
  reason: string;
  note: string;
  paragraph: number | null;
  passage: string;
  createdAt: number;
  postId: string;
  postTitle: string;
  hidden: boolean;
  authorId: string;
  reporterId: string;
  reporterName: string;
};

/** The oldest open reports first (the queue's order), with their article and reporter; `limit` bounds the page. */
export function listOpenReports(limit: number): { rows: OpenReport[]; total: number } {
  const rows = db
    .select({
      id: reports.id,
      reason: reports.reason,
      note: reports.note,
      paragraph: reports.paragraph,
      passage: reports.passage,
      createdAt: reports.createdAt,
      postId: posts.id,
      postTitle: posts.title,
      hidden: sql<boolean>`${posts.hiddenAt} IS NOT NULL`.mapWith(Boolean),
      authorId: posts.authorId,
      reporterId: reports.reporterId,
      reporterName: users.displayName,
    })
    .from(reports)
    .innerJoin(posts, eq(posts.id, reports.postId))
    .innerJoin(users, eq(users.id, reports.reporterId))
    .where(eq(reports.state, "open"))
    .orderBy(asc(reports.createdAt), asc(reports.id))
    .limit(limit)
    .all();
  return { rows, total: countRows(reports, eq(reports.state, "open")) };
}

/** The reporters of an article's open reports, with their address (for the decision's mail). */
export function openReportsOf(postId: string) {
  return db
    .select({ id: reports.id, reason: reports.reason, paragraph: reports.paragraph, reporterId: reports.reporterId, email: users.email, name: users.displayName })
    .from(reports)
    .innerJoin(users, eq(users.id, reports.reporterId))
    .where(and(eq(reports.postId, postId), eq(reports.state, "open")))
    .all();
}

/** The open reports of every article of an author, with each reporter's address and the article's title (for "remove all articles"). */
export function openReportsOfAuthor(authorId: string) {
  return db
    .select({ id: reports.id, reason: reports.reason, email: users.email, postTitle: posts.title })
    .from(reports)
    .innerJoin(posts, eq(posts.id, reports.postId))
    .innerJoin(users, eq(users.id, reports.reporterId))
    .where(and(eq(posts.authorId, authorId), eq(reports.state, "open")))
    .all();
}

/** Mark reports decided (upheld or dismissed) by a decision; only those still open change. */
export function resolveReports(ids: number[], state: "upheld" | "dismissed", decisionId: number): number {
  if (ids.length === 0) return 0;
  return db
    .update(reports)
    .set({ state, decisionId })
    .where(and(inArray(reports.id, ids), eq(reports.state, "open")))
    .run().changes;
}

/** An article is going away without a decision (its author deleted it): its open reports close with it. */
export function closeOpenReportsOf(postIds: string[] | SQL): void {
  db.update(reports)
    .set({ state: "closed" })
    .where(and(inArray(reports.postId, postIds), eq(reports.state, "open")))
    .run();
}

/** A reader's own reports, newest first, with the decision's reason when there is one. */
export function listReportsBy(reporterId: string, page: { offset: number; limit: number }) {
  return db
    .select({
      id: reports.id,
      postId: reports.postId,
      postTitle: reports.postTitle,
      reason: reports.reason,
      paragraph: reports.paragraph,
      passage: reports.passage,
      createdAt: reports.createdAt,
      state: reports.state,
      decisionId: reports.decisionId,
      // Linked only while everyone can read it.
      visible: sql<boolean>`${posts.id} IS NOT NULL AND ${posts.hiddenAt} IS NULL`.mapWith(Boolean),
    })
    .from(reports)
    .leftJoin(posts, eq(posts.id, reports.postId))
    .where(eq(reports.reporterId, reporterId))
    .orderBy(desc(reports.createdAt), desc(reports.id))
    .limit(page.limit)
    .offset(page.offset)
    .all();
}

export function countReportsBy(reporterId: string): number {
  return countRows(reports, eq(reports.reporterId, reporterId));
}

/** Reports an account sent that admins dismissed as abusive (shown on the admin's view of the account; nothing is lowered). */
export function countAbusiveReportsBy(reporterId: string): number {
  return (
    db
      .select({ n: sql<number>`count(*)` })
      .from(reports)
      .where(and(eq(reports.reporterId, reporterId), sql`${reports.decisionId} IN (SELECT id FROM moderation_decisions WHERE action = 'dismissAbusive')`))
      .get()?.n ?? 0
  );
}

/** Open "Zdroj?" marks of an article's passages, for its author's edit form: the passage and the reason, not the note (the admins' queue has it). */
export function openPassageReportsOf(postId: string) {
  return db
    .select({ paragraph: reports.paragraph, passage: reports.passage, reason: reports.reason, createdAt: reports.createdAt })
    .from(reports)
    .where(and(eq(reports.postId, postId), eq(reports.state, "open"), sql`${reports.paragraph} IS NOT NULL`))
    .orderBy(asc(reports.paragraph), asc(reports.createdAt))
    .limit(100)
    .all();
}

/** The addresses of the readers whose reports a decision closed (told when an appeal reverses it). */
export function reporterEmailsOf(decisionId: number): string[] {
  return db
    .selectDistinct({ email: users.email })
    .from(reports)
    .innerJoin(users, eq(users.id, reports.reporterId))
    .where(eq(reports.decisionId, decisionId))
    .all()
    .map((row) => row.email);
}
