import { describe, expect, inject, it } from "vitest";
import { NOTICES } from "~/lib/notices";
import { registerUser, type Client } from "../../../scripts/lib/client";
import { publish, saveEdit } from "../../../scripts/lib/publish";

const base = inject("baseUrl");

/** The words in the page's status region, as a reader without JavaScript gets them. */
async function noticeOn(client: Client, path: string): Promise<string> {
  const { doc } = await client.get(path);
  return doc.querySelector('.action-notice[role="status"]')?.text.trim() ?? "missing region";
}

describe("the word after an action", () => {
  it("says the article is published, on the page the redirect leads to, and not again on reload", async () => {
    const author = await registerUser(base);
    const id = (await publish(author.client, "Oznámenie po uverejnení"))!;
    expect(id).not.toBeNull();
    expect(author.client.cookies.has("dejiny_notice")).toBe(true);
    expect(await noticeOn(author.client, `/posts/${id}`)).toBe(NOTICES.published);
    // Taken as it was shown: a reload, or any other page, says nothing.
    expect(author.client.cookies.has("dejiny_notice")).toBe(false);
    expect(await noticeOn(author.client, `/posts/${id}`)).toBe("");
    expect(await noticeOn(author.client, "/posts")).toBe("");
  });

  it("says the changes are saved, and that the article is deleted, on the list", async () => {
    const author = await registerUser(base);
    const id = (await publish(author.client, "Oznámenie po úprave"))!;
    await author.client.get(`/posts/${id}`);
    const saved = await saveEdit(author.client, id, { title: "Oznámenie po úprave", content: "Nový text", sources: "", summary: "" });
    expect(saved.response.status).toBe(303);
    expect(await noticeOn(author.client, saved.response.headers.get("location")!)).toBe(NOTICES.saved);
    const deleted = await author.client.post(`/posts/${id}`, { intent: "delete", confirm: "yes" });
    expect(deleted.response.status).toBe(303);
    expect(await noticeOn(author.client, deleted.response.headers.get("location")!)).toBe(NOTICES.deleted);
  });

  it("is never served from the page cache, nor kept in it for anyone else", async () => {
    const author = await registerUser(base);
    const id = (await publish(author.client, "Oznámenie a vyrovnávacia pamäť"))!;
    // Another reader's copy of the page, cached before the author comes back to it.
    const reader = await registerUser(base);
    expect(await noticeOn(reader.client, `/posts/${id}`)).toBe("");
    expect(await noticeOn(author.client, `/posts/${id}`)).toBe(NOTICES.published);
    expect(await noticeOn(reader.client, `/posts/${id}`)).toBe("");
  });

  it("ignores a cookie that names no notice, and takes it away", async () => {
    const author = await registerUser(base);
    author.client.cookies.set("dejiny_notice", "forged");
    expect(await noticeOn(author.client, "/posts")).toBe("");
    expect(author.client.cookies.has("dejiny_notice")).toBe(false);
  });
});
