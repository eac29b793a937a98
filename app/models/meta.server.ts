import { eq } from "drizzle-orm";
import { db } from "~/db/connection.server";
import { appMeta, pageData } from "~/db/schema.server";

export function getMeta(key: string): string | undefined {
  return db.select().from(appMeta).where(eq(appMeta.key, key)).get()?.value;
}

export function setMeta(key: string, value: string): void {
  db.insert(appMeta).values({ key, value }).onConflictDoUpdate({ target: appMeta.key, set: { value } }).run();
}

/** When anything a page shows last changed (ms since epoch; migration 0010's triggers keep it, only ever forward). */
export function siteChangedAt(): number {
  return db.select({ changedAt: pageData.changedAt }).from(pageData).where(eq(pageData.id, 1)).get()?.changedAt ?? 0;
}
