import { describe, expect, it } from "vitest";
import { POST_MESSAGES } from "~/lib/rules";
import { getPendingImage, insertPendingImage } from "~/models/pending-images.server";
import { createUser } from "~/models/users.server";
import { publishPost, removeStalePendingImages } from "~/services/articles/posts.server";

describe("a publish that races the clean-up of pending images", () => {
  it("answers the form again with its text and tags, asking for the image again, never 500", async () => {
    const author = createUser({ displayName: "Pomalá Autorka", email: `race-${Date.now()}@example.com`, passwordHash: null })!;
    const key = `race${Date.now()}`.padEnd(16, "x").slice(0, 16);
    // A day-old image sent ahead, not used yet.
    insertPendingImage({ key, userId: author.id, width: 640, height: 400, createdAt: Date.now() - 25 * 60 * 60 * 1000 });
    const input = { title: "Nadpis", content: "Text článku", sources: "", period: "", tags: ["Ostatné"], image: null, pendingImage: key };

    // The publish reads the pending row, then waits for the sanitiser; the hourly clean-up runs meanwhile.
    const publishing = publishPost(author.id, input);
    await removeStalePendingImages();
    expect(getPendingImage(key, author.id)).toBeUndefined();

    expect(await publishing).toEqual({
      ok: false,
      status: 400,
      error: POST_MESSAGES.pendingImageGone,
      invalid: ["image"],
      values: { title: "Nadpis", content: "Text článku", sources: "", period: "", tags: ["Ostatné"], pendingImage: "" },
    });
  });
});
