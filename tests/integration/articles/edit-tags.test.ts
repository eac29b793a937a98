import { describe, expect, inject, it } from "vitest";
import { MESSAGES } from "~/lib/rules";
import { registerUser } from "../../../scripts/lib/client";
import { editBase, publish } from "../../../scripts/lib/publish";
import { readDatabase } from "../../support/http";

const base = inject("baseUrl");
const databasePath = inject("databasePath");

const tagsOf = (id: string) => readDatabase(databasePath, (db) => db.prepare("SELECT tag FROM post_tags WHERE post_id = ? ORDER BY rowid").pluck().all(id)) as string[];
const revisionIds = (id: string) => readDatabase(databasePath, (db) => db.prepare("SELECT id FROM revisions WHERE post_id = ? ORDER BY number").pluck().all(id)) as string[];

describe("an article's tags, edited", () => {
  it("change with the edit form, in the order chosen, are recorded in its revision, and the comparison names them", async () => {
    const author = await registerUser(base);
    const id = (await publish(author.client, "Tagy po úprave", ["Stredovek", "Umenie"]))!;
    const edit = async (tags: string[], extra: Record<string, string> = {}) =>
      author.client.post(`/posts/${id}?edit`, {
        intent: "save",
        baseRevision: await editBase(author.client, id),
        title: "Tagy po úprave",
        content: "Text článku",
        withTags: "1",
        tags,
        ...extra,
      });
    // The form shows the article's tags ticked.
    const form = (await author.client.get(`/posts/${id}?edit`)).doc;
    expect(form.querySelectorAll('input[name="tags"][checked]').map((box) => box.getAttribute("value"))).toEqual(["Stredovek", "Umenie"]);

    // Refused as when creating, and nothing changes.
    const none = await edit([]);
    expect(none.response.status).toBe(400);
    expect(none.doc.querySelector("#edit-error")?.text).toBe(MESSAGES.createFieldsMissing);
    const six = await edit(["Stredovek", "Umenie", "Osobnosti", "Starovek", "Ostatné", "Dejiny Slovenska"]);
    expect(six.doc.querySelector("#edit-error")?.text).toBe(MESSAGES.tagLimit);
    expect((await edit(["Stredovek", "Vymyslený tag"])).response.status).toBe(400);
    expect(tagsOf(id)).toEqual(["Stredovek", "Umenie"]);
    expect(revisionIds(id)).toHaveLength(1);

    const saved = await edit(["Objavy", "Stredovek"]);
    expect(saved.response.status).toBe(303);
    expect(tagsOf(id)).toEqual(["Objavy", "Stredovek"]);
    // Under its new tag, not its old one.
    const titles = async (tag: string) => (await author.client.get(`/posts?tag=${encodeURIComponent(tag)}`)).doc.querySelectorAll(".card-title").map((t) => t.text.trim());
    expect(await titles("Objavy")).toContain("Tagy po úprave");
    expect(await titles("Umenie")).not.toContain("Tagy po úprave");

    const [first, second] = revisionIds(id);
    const compared = (await author.client.get(`/posts/${id}/history?from=${first}&to=${second}`)).html;
    expect(compared).toContain("Objavy");
    expect(compared).toContain("Umenie");

    // An edit that brings no tags (withTags absent) keeps them.
    const plain = await author.client.post(`/posts/${id}?edit`, { intent: "save", baseRevision: await editBase(author.client, id), title: "Tagy po úprave", content: "Iný text" });
    expect(plain.response.status).toBe(303);
    expect(tagsOf(id)).toEqual(["Objavy", "Stredovek"]);

    // Restoring the first revision brings its tags back.
    const restored = await author.client.post(`/posts/${id}/history`, { intent: "restore", revision: first, confirm: "yes", baseRevision: String(revisionIds(id).length) });
    expect(restored.response.status).toBe(303);
    expect(tagsOf(id)).toEqual(["Stredovek", "Umenie"]);
  });
});
