import { desc } from "drizzle-orm";
import { countRows, db } from "~/db/connection.server";
import { moderationLog } from "~/db/schema.server";

export type LogEntry = typeof moderationLog.$inferSelect;

/** Add an entry; the table takes no updates or deletes (triggers of migration 0005). */
export function appendLogEntry(entry: Omit<typeof moderationLog.$inferInsert, "id">): void {
  db.insert(moderationLog).values(entry).run();
}

export function countLogEntries(): number {
  return countRows(moderationLog);
}

/** A page of the log, newest first. */
export function listLogEntries(page: { offset: number; limit: number }): LogEntry[] {
  return db.select().from(moderationLog).orderBy(desc(moderationLog.id)).limit(page.limit).offset(page.offset).all();
}
