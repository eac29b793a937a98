import { and, eq, lt } from "drizzle-orm";
import { db } from "~/db/connection.server";
import { pendingImages } from "~/db/schema.server";

export type PendingImage = typeof pendingImages.$inferSelect;

export function insertPendingImage(image: PendingImage): void {
  db.insert(pendingImages).values(image).run();
}

/** A pending image, only if it was uploaded by this user. */
export function getPendingImage(key: string, userId: string): PendingImage | undefined {
  return db
    .select()
    .from(pendingImages)
    .where(and(eq(pendingImages.key, key), eq(pendingImages.userId, userId)))
    .get();
}

/** Take a pending image for an article (in the transaction that writes it): false when it is gone (the day-old clean-up took it). */
export function takePendingImage(key: string): boolean {
  return db.delete(pendingImages).where(eq(pendingImages.key, key)).run().changes === 1;
}

/** Forget pending images older than `before`; returns their keys, to remove the files. */
export function takeStalePendingImages(before: number): string[] {
  return db
    .delete(pendingImages)
    .where(lt(pendingImages.createdAt, before))
    .returning({ key: pendingImages.key })
    .all()
    .map((row) => row.key);
}

/** Forget every pending image of a user; returns their keys, to remove the files. */
export function takePendingImagesOf(userId: string): string[] {
  return db
    .delete(pendingImages)
    .where(eq(pendingImages.userId, userId))
    .returning({ key: pendingImages.key })
    .all()
    .map((row) => row.key);
}
