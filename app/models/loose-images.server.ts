import { eq } from "drizzle-orm";
import { db } from "~/db/connection.server";
import { looseImages } from "~/db/schema.server";

/** Note, before its files are written or deleted, that an image's files may be left with nothing referring to them. */
export function markImageLoose(key: string): void {
  db.insert(looseImages).values({ key, since: Date.now() }).onConflictDoNothing().run();
}

export function unmarkImageLoose(key: string): void {
  db.delete(looseImages).where(eq(looseImages.key, key)).run();
}

export function looseImageKeys(): string[] {
  return db.select({ key: looseImages.key }).from(looseImages).all().map((row) => row.key);
}

export function clearLooseImages(): void {
  db.delete(looseImages).run();
}
