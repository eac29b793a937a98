import { eq, sql } from "drizzle-orm";
import { db } from "~/db/connection.server";
import { appMeta, pageData } from "~/db/schema.server";

export function getMeta(key: string): string | undefined {
  return db.select().from(appMeta).where(eq(appMeta.key, key)).get()?.value;
}

export function setMeta(key: string, value: string): void {
  db.insert(appMeta).values({ key, value }).onConflictDoUpdate({ target: appMeta.key, set: { value } }).run();
}

/** Keep `value` under `key` unless a value is there already; the one kept either way (two processes asking at once keep the same). */
export function keepMetaUnlessSet(key: string, value: string): string {
  db.insert(appMeta).values({ key, value }).onConflictDoNothing().run();
  return getMeta(key)!;
}

/** When anything a page shows last changed (ms since epoch; migration 0010's triggers keep it, only ever forward). */
export function siteChangedAt(): number {
  return db.select({ changedAt: pageData.changedAt }).from(pageData).where(eq(pageData.id, 1)).get()?.changedAt ?? 0;
}

/** Note that everything may have changed (a restore): a new stamp, and the change time moved to now, never back. */
export function markSiteChanged(now = Date.now()): void {
  db.update(pageData).set({ stamp: sql`random()`, changedAt: sql`max(${pageData.changedAt}, ${now})` }).where(eq(pageData.id, 1)).run();
}
