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

/**
 * A browser's new token for an account, in place of its previous one (when
 * it had one); only the account's `keep` newest devices stay.
 */
export function replaceTrustedDevice(device: { idHash: string; userId: string; issuedAt: number }, previousIdHash: string | undefined, keep: number): void {
  db.transaction((tx) => {
    if (previousIdHash) tx.delete(trustedDevices).where(eq(trustedDevices.idHash, previousIdHash)).run();
    tx.insert(trustedDevices).values(device).run();
    const newest = tx
      .select({ idHash: trustedDevices.idHash })
      .from(trustedDevices)
      .where(eq(trustedDevices.userId, device.userId))
      .orderBy(desc(trustedDevices.issuedAt))
      .limit(keep);
    tx.delete(trustedDevices)
      .where(and(eq(trustedDevices.userId, device.userId), notInArray(trustedDevices.idHash, newest)))
      .run();
  }, { behavior: "immediate" });
}

/** Forget every trusted device of an account but `keepIdHash` (when given). */
export function deleteTrustedDevicesOf(userId: string, keepIdHash?: string): void {
  db.delete(trustedDevices)
    .where(and(eq(trustedDevices.userId, userId), keepIdHash ? ne(trustedDevices.idHash, keepIdHash) : undefined))
    .run();
}

export function purgeTrustedDevicesIssuedBefore(time: number): void {
  db.delete(trustedDevices).where(lt(trustedDevices.issuedAt, time)).run();
}
