import { describe, expect, it } from "vitest";
import { getDraft } from "~/models/drafts.server";
import { getPendingImage, insertPendingImage } from "~/models/pending-images.server";
import { imageKeyInUse, referencedImageKeys } from "~/models/posts.server";
import { createUser } from "~/models/users.server";
import { saveDraft } from "~/services/articles/drafts.server";
import { removeStalePendingImages } from "~/services/articles/posts.server";

const DAY = 24 * 60 * 60 * 1000;

describe("a draft's image and the clean-up of day-old pending uploads", () => {
  it("takes the image out of the pending uploads: the clean-up leaves it, and it stays in use", async () => {
    const author = createUser({ displayName: "Autorka Konceptov", email: `draft-image-${Date.now()}@example.com`, passwordHash: null })!;
    const user = { id: author.id, displayName: author.displayName, email: author.email, isAdmin: false, emailConfirmedAt: null };
    const key = `draft${Date.now()}`.padEnd(16, "x").slice(0, 16);
    // Sent ahead by JavaScript an hour ago, then saved with the draft.
    insertPendingImage({ key, userId: author.id, width: 640, height: 400, createdAt: Date.now() - 60 * 60 * 1000 });
    const input = { title: "Koncept", content: "", sources: "", period: "", tags: [], summary: "", image: null, pendingImage: key };
    const saved = await saveDraft(user, input, { target: null });
    if (!saved.ok) throw new Error(saved.error);
    const { id } = saved;
    expect(getPendingImage(key, author.id)).toBeUndefined();

    // Two days later, the clean-up runs: the draft's image is not a pending upload any more.
    await removeStalePendingImages(Date.now() + 2 * DAY);
    expect(getDraft(id)).toMatchObject({ imageKey: key, imageWidth: 640, imageHeight: 400 });
    expect(imageKeyInUse(key)).toBe(true);
    expect(referencedImageKeys().has(key)).toBe(true);
  });
});
