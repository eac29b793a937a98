import { eq } from "drizzle-orm";
import { db } from "~/db/connection.server";
import { appMeta } from "~/db/schema.server";

export function getMeta(key: string): string | undefined {
  return db.select().from(appMeta).where(eq(appMeta.key, key)).get()?.value;
}

export function setMeta(key: string, value: string): void {
  db.insert(appMeta).values({ key, value }).onConflictDoUpdate({ target: appMeta.key, set: { value } }).run();
}
