import { and, desc, eq, inArray, lt, ne, notInArray } from "drizzle-orm";
import { db } from "~/db/connection.server";
import { trustedDevices } from "~/db/schema.server";

/** Of `idHashes` (a browser's few device tokens), the one trusted for `userId`, if any. */
export function findTrustedDevice(userId: string, idHashes: string[]): string | undefined {
  if (idHashes.length === 0) return undefined;
  return db
    .select({ idHash: trustedDevices.idHash })
    .from(trustedDevices)
    .where(and(eq(trustedDevices.userId, userId), inArray(trustedDevices.idHash, idHashes)))
    .get()?.idHash;
}

/** A new trusted device of an account, or one seen again (its last use moves forward). */
export function saveTrustedDevice(idHash: string, userId: string, now: number): void {
  db.insert(trustedDevices)
    .values({ idHash, userId, createdAt: now, lastUsedAt: now })
    .onConflictDoUpdate({ target: trustedDevices.idHash, set: { lastUsedAt: now } })
    .run();
}

/** Keep only an account's `keep` most recently used devices. */
export function trimTrustedDevices(userId: string, keep: number): void {
  const newest = db
    .select({ idHash: trustedDevices.idHash })
    .from(trustedDevices)
    .where(eq(trustedDevices.userId, userId))
    .orderBy(desc(trustedDevices.lastUsedAt))
    .limit(keep);
  db.delete(trustedDevices)
    .where(and(eq(trustedDevices.userId, userId), notInArray(trustedDevices.idHash, newest)))
    .run();
}

/** Forget every trusted device of an account but `keepIdHash` (when given). */
export function deleteTrustedDevicesOf(userId: string, keepIdHash?: string): void {
  db.delete(trustedDevices)
    .where(and(eq(trustedDevices.userId, userId), keepIdHash ? ne(trustedDevices.idHash, keepIdHash) : undefined))
    .run();
}

export function purgeUnusedDevices(olderThan: number): void {
  db.delete(trustedDevices).where(lt(trustedDevices.lastUsedAt, olderThan)).run();
}
