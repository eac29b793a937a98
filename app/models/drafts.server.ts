import { desc, eq, sql } from "drizzle-orm";
import { randomBytes } from "node:crypto";
import { countRows, db } from "~/db/connection.server";
import { drafts, pendingImages, posts } from "~/db/schema.server";
import { markImageLoose } from "./loose-images.server";

export type Draft = typeof drafts.$inferSelect;

/** A draft's fields as typed; `image` is its image when the save brings one (else the draft keeps its own). */
export type DraftFields = { title: string; content: string; sources: string; period: string; tags: string[]; summary: string };
export type DraftImage = { key: string; width: number; height: number };

const draftById = db.select().from(drafts).where(eq(drafts.id, sql.placeholder("id"))).prepare();

export function getDraft(id: string): Draft | undefined {
  return draftById.get({ id });
}

export function countDraftsOf(authorId: string): number {
  return countRows(drafts, eq(drafts.authorId, authorId));
}

// An author's drafts walk drafts_author_updated_idx; a pending edit names its article's current title.
export const draftQueries = {
  draftsOfAuthor: db
    .select({ id: drafts.id, title: drafts.title, postId: drafts.postId, postTitle: posts.title, updatedAt: drafts.updatedAt })
    .from(drafts)
    .leftJoin(posts, eq(posts.id, drafts.postId))
    .where(eq(drafts.authorId, sql.placeholder("authorId")))
    .orderBy(desc(drafts.updatedAt))
    .limit(sql.placeholder("limit")),
};
const draftsOfAuthor = draftQueries.draftsOfAuthor.prepare();

export type DraftListing = { id: string; title: string; postId: string | null; postTitle: string | null; updatedAt: number };

/** An author's newest `limit` drafts, last saved first. */
export function listDraftsOf(authorId: string, limit: number): DraftListing[] {
  return draftsOfAuthor.all({ authorId, limit });
}

/**
 * Write a draft (a new one when `id` is undefined) with the image it now
 * has, taking that image out of `pending_images` in the same transaction, so
 * the day-old clean-up can no longer remove it. Returns the draft's id and
 * the key of an image it held before and holds no more (marked loose in the
 * same transaction; its files are the caller's to remove), or undefined
 * when the pending image (or the draft) is gone. A new draft is not written
 * when its author has `maxDrafts` already ("full"): counted in the same
 * transaction, so saves sent at once cannot pass the cap together.
 */
export function writeDraft(
  draft: { id?: string; authorId: string; postId?: string | null; baseRevision?: number | null },
  fields: DraftFields,
  pending: DraftImage | null,
  maxDrafts: number,
): { id: string; replacedImage: string | null } | "full" | undefined {
  return db.transaction((tx) => {
    if (draft.id === undefined && countDraftsOf(draft.authorId) >= maxDrafts) return "full";
    if (pending && tx.delete(pendingImages).where(eq(pendingImages.key, pending.key)).run().changes !== 1) return undefined;
    const image = pending ? { imageKey: pending.key, imageWidth: pending.width, imageHeight: pending.height } : {};
    const now = Date.now();
    if (draft.id === undefined) {
      const id = randomBytes(9).toString("base64url");
      const { authorId, postId = null, baseRevision = null } = draft;
      tx.insert(drafts)
        .values({ id, authorId, postId, baseRevision, ...fields, ...image, createdAt: now, updatedAt: now })
        .run();
      return { id, replacedImage: null };
    }
    const before = tx.select({ imageKey: drafts.imageKey }).from(drafts).where(eq(drafts.id, draft.id)).get();
    if (!before) return undefined;
    tx.update(drafts)
      .set({ ...fields, ...image, updatedAt: now })
      .where(eq(drafts.id, draft.id))
      .run();
    const replacedImage = pending && before.imageKey !== pending.key ? before.imageKey : null;
    if (replacedImage) markImageLoose(replacedImage);
    return { id: draft.id, replacedImage };
  }, { behavior: "immediate" });
}

/** A pending edit's draft now based on `baseRevision` (its author was shown what changed since the old base). */
export function rebaseDraft(id: string, baseRevision: number): void {
  db.update(drafts).set({ baseRevision }).where(eq(drafts.id, id)).run();
}

/** Delete a draft; returns its image key (null when it had none), or undefined when it was gone already. */
export function deleteDraft(id: string): string | null | undefined {
  return db.delete(drafts).where(eq(drafts.id, id)).returning({ image: drafts.imageKey }).get()?.image;
}

/** Delete every draft of an author; returns their image keys, to remove the files. */
export function deleteDraftsOf(authorId: string): string[] {
  return db
    .delete(drafts)
    .where(eq(drafts.authorId, authorId))
    .returning({ image: drafts.imageKey })
    .all()
    .flatMap((row) => row.image ?? []);
}
