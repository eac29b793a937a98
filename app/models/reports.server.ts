import { and, desc, eq, isNull } from "drizzle-orm";
import { countRows, db } from "~/db/connection.server";
import { posts, reports, users } from "~/db/schema.server";

/** A new open report; false when this reader already has an open report of this article. */
export function insertReport(report: { postId: string; reporterId: string; reason: string; note: string; createdAt: number }): boolean {
  return db.insert(reports).values(report).onConflictDoNothing().run().changes > 0;
}

export type OpenReport = {
  id: number;
  reason: string;
  note: string;
  createdAt: number;
  postId: string;
  postTitle: string;
  reporterName: string;
};

/** The newest open reports, with their article's title and the reporter's name. */
export function listOpenReports(limit: number): { rows: OpenReport[]; total: number } {
  const rows = db
    .select({
      id: reports.id,
      reason: reports.reason,
      note: reports.note,
      createdAt: reports.createdAt,
      postId: reports.postId,
      postTitle: posts.title,
      reporterName: users.displayName,
    })
    .from(reports)
    .innerJoin(posts, eq(posts.id, reports.postId))
    .innerJoin(users, eq(users.id, reports.reporterId))
    .where(isNull(reports.dismissedAt))
    .orderBy(desc(reports.createdAt), desc(reports.id))
    .limit(limit)
    .all();
  return { rows, total: countRows(reports, isNull(reports.dismissedAt)) };
}

/** Dismiss an open report; returns it (with its article's id), or undefined when there is no such open report. */
export function dismissReport(id: number, now: number) {
  return db
    .update(reports)
    .set({ dismissedAt: now })
    .where(and(eq(reports.id, id), isNull(reports.dismissedAt)))
    .returning({ postId: reports.postId, reason: reports.reason })
    .get();
}

export function getOpenReport(id: number) {
  return db
    .select({ postId: reports.postId, reason: reports.reason })
    .from(reports)
    .where(and(eq(reports.id, id), isNull(reports.dismissedAt)))
    .get();
}
