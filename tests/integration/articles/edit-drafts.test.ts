import { existsSync, readdirSync } from "node:fs";
import { parse, type HTMLElement } from "node-html-parser";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { IMAGE_MAX_BYTES, MESSAGES } from "~/lib/rules";
import { registerUser, type Client } from "../../../scripts/lib/client";
import { makeImage } from "../../../scripts/lib/images";
import { publish } from "../../../scripts/lib/publish";
import { readDatabase } from "../../support/http";

// A pending edit ("Uložiť koncept" on the article's edit form) keeps every
// part of the article the edit form changes: its tags and a new image too.
const base = inject("baseUrl");
const databasePath = inject("databasePath");
const uploadsDir = inject("uploadsDir");

let png: Buffer;
let otherPng: Buffer;
beforeAll(async () => {
  [png, otherPng] = await Promise.all([makeImage("png", 900, 600), makeImage("png", 640, 480)]);
});

const db = <T>(query: (db: import("better-sqlite3").Database) => T) => readDatabase(databasePath, query);
const articleOf = (id: string) => db((d) => d.prepare("SELECT image, image_width AS width FROM posts WHERE id = ?").get(id)) as { image: string; width: number };
const tagsOf = (id: string) => db((d) => d.prepare("SELECT tag FROM post_tags WHERE post_id = ? ORDER BY rowid").pluck().all(id)) as string[];
const draftOf = (id: string) => db((d) => d.prepare("SELECT tags, image_key AS image FROM drafts WHERE id = ?").get(id)) as { tags: string; image: string | null } | undefined;
const revisionsOf = (id: string) => db((d) => d.prepare("SELECT image, summary FROM revisions WHERE post_id = ? ORDER BY number").all(id)) as { image: string; summary: string }[];
const isPending = (key: string) => db((d) => d.prepare("SELECT 1 FROM pending_images WHERE key = ?").get(key)) !== undefined;
const filesOf = (key: string) => (existsSync(uploadsDir) ? readdirSync(uploadsDir, { recursive: true }).map(String).filter((name) => name.includes(key)) : []);

type Change = Record<string, string | string[] | Buffer>;

/**
 * The form `selector` of `page` as a browser without JavaScript sends it:
 * multipart, its fields in the page's order with their shown values (ticked
 * boxes only), as `change` sets them (a Buffer: the file picked), and the
 * button `intent` pressed.
 */
function browserForm(page: HTMLElement, selector: string, intent: string, change: Change = {}): FormData {
  const form = page.querySelector(selector)!;
  const body = new FormData();
  const done = new Set<string>();
  for (const field of form.querySelectorAll("[name]")) {
    const name = field.getAttribute("name")!;
    if (field.tagName === "BUTTON") continue;
    if (name in change) {
      if (done.has(name)) continue;
      done.add(name);
      const value = change[name];
      if (Buffer.isBuffer(value)) body.append(name, new Blob([new Uint8Array(value)], { type: "image/png" }), "obrazok.png");
      else for (const item of [value].flat()) body.append(name, item);
      continue;
    }
    const type = field.getAttribute("type");
    if (type === "checkbox" && !field.hasAttribute("checked")) continue;
    if (type === "file") body.append(name, new Blob([]), "");
    else body.append(name, field.tagName === "TEXTAREA" ? field.text : (field.getAttribute("value") ?? ""));
  }
  body.append("intent", intent);
  return body;
}

async function submit(client: Client, path: string, selector: string, intent: string, change: Change = {}) {
  const page = (await client.get(path)).doc;
  const response = await client.request(path, { method: "POST", body: browserForm(page, selector, intent, change), headers: { Origin: client.base } });
  const html = await response.text();
  return { response, html, doc: parse(html) };
}

const ticked = (doc: HTMLElement) => doc.querySelectorAll('input[name="tags"][checked]').map((box) => box.getAttribute("value"));

describe("a pending edit's tags and image", () => {
  it("are kept as a draft and shown on its page; publishing it gives the article both, in one revision, and the draft's image files stay with it", async () => {
    const { client } = await registerUser(base);
    const id = (await publish(client, "Koncept s tagmi a obrázkom", ["Stredovek"]))!;
    const before = articleOf(id);

    const kept = await submit(client, `/posts/${id}?edit`, "#edit-post", "draft", { tags: ["Umenie", "Stredovek"], image: png, summary: "Nový obrázok" });
    expect(kept.response.status).toBe(303);
    const draftId = kept.response.headers.get("location")!.match(/^\/drafts\/([\w-]+)/)![1];
    const draft = draftOf(draftId)!;
    expect(JSON.parse(draft.tags)).toEqual(["Umenie", "Stredovek"]);
    expect(draft.image).toMatch(/^[\w-]{16}$/);
    // The draft's, no longer a pending upload the day-old clean-up would take.
    expect(isPending(draft.image!)).toBe(false);
    // Readers still see the article as it was.
    expect([articleOf(id), tagsOf(id)]).toEqual([before, ["Stredovek"]]);

    const page = (await client.get(`/drafts/${draftId}`)).doc;
    expect(ticked(page)).toEqual(["Stredovek", "Umenie"]);
    expect(page.querySelector('input[name="pendingImage"]')?.getAttribute("value")).toBe(draft.image);

    // Refused (no tag ticked) as the edit form is: the draft and its image stay, and the page shows them again.
    const refused = await submit(client, `/drafts/${draftId}`, "form.create-form", "publish", { tags: [] });
    expect(refused.response.status).toBe(400);
    expect(refused.doc.querySelector("#create-error")?.text).toBe(MESSAGES.createFieldsMissing);
    expect(refused.doc.querySelector('input[name="pendingImage"]')?.getAttribute("value")).toBe(draft.image);
    expect(draftOf(draftId)).toBeDefined();

    const published = await submit(client, `/drafts/${draftId}`, "form.create-form", "publish");
    expect(published.response.status).toBe(303);
    expect(published.response.headers.get("location")).toBe(`/posts/${id}`);
    expect(articleOf(id)).toEqual({ image: draft.image, width: 900 });
    // As the page sent them: without JavaScript, in the picker's order.
    expect(tagsOf(id)).toEqual(["Stredovek", "Umenie"]);
    expect(revisionsOf(id)).toEqual([
      { image: before.image, summary: "" },
      { image: draft.image, summary: "Nový obrázok" },
    ]);
    expect(draftOf(draftId)).toBeUndefined();
    expect(filesOf(draft.image!).length).toBeGreaterThan(0);
    expect((await fetch(`${base}/images/${draft.image}-400.webp`)).status).toBe(200);
  });

  it("publishes with another image picked on the draft's page: the draft's own image and its files go", async () => {
    const { client } = await registerUser(base);
    const id = (await publish(client, "Koncept s dvoma obrázkami", ["Objavy"]))!;
    const kept = await submit(client, `/posts/${id}?edit`, "#edit-post", "draft", { image: png });
    const draftId = kept.response.headers.get("location")!.match(/^\/drafts\/([\w-]+)/)![1];
    const draftImage = draftOf(draftId)!.image!;

    const published = await submit(client, `/drafts/${draftId}`, "form.create-form", "publish", { image: otherPng });
    expect(published.response.status).toBe(303);
    const now = articleOf(id);
    expect(now.width).toBe(640);
    expect(now.image).not.toBe(draftImage);
    expect(filesOf(draftImage)).toEqual([]);
    expect(tagsOf(id)).toEqual(["Objavy"]);
  });

  it("is previewed with the tags ticked and the image picked, and the picked image need not be picked again", async () => {
    const { client } = await registerUser(base);
    const id = (await publish(client, "Náhľad úpravy s obrázkom", ["Starovek"]))!;
    const preview = await submit(client, `/posts/${id}?edit`, "#edit-post", "preview", { tags: ["Starovek", "Objavy"], image: png });
    expect(preview.response.status).toBe(200);
    const shown = preview.doc.querySelector(".article-preview") ?? preview.doc;
    expect(shown.text).toContain("Objavy");
    const key = preview.doc.querySelector('#edit-post input[name="pendingImage"]')?.getAttribute("value");
    expect(key).toMatch(/^[\w-]{16}$/);
    expect(shown.querySelector(`img[src*="${key}"]`)).not.toBeNull();
    expect(articleOf(id).width).toBe(480);
  });

  it("never loses what was typed to an image over the limit: the file comes last in both forms", async () => {
    const { client } = await registerUser(base);
    const id = (await publish(client, "Priveľký obrázok pri úprave", ["Ostatné"]))!;
    const huge = Buffer.concat([png, Buffer.alloc(IMAGE_MAX_BYTES)]);
    const typed = { content: "Text napísaný pred obrázkom", sources: "Kronika, 1990", summary: "Čo som zmenil" };

    const edit = await submit(client, `/posts/${id}?edit`, "#edit-post", "draft", { ...typed, image: huge });
    expect(edit.response.status).toBe(413);
    expect(edit.html).toContain(MESSAGES.imageSize);
    expect(edit.doc.querySelector("#edit-post textarea[name=content]")?.text).toBe(typed.content);
    expect(edit.doc.querySelector("#edit-post input[name=summary]")?.getAttribute("value")).toBe(typed.summary);

    const kept = await submit(client, `/posts/${id}?edit`, "#edit-post", "draft");
    const draftPath = kept.response.headers.get("location")!.split("?")[0];
    const draft = await submit(client, draftPath, "form.create-form", "draft", { ...typed, image: huge });
    expect(draft.response.status).toBe(413);
    expect(draft.html).toContain(MESSAGES.imageSize);
    expect(draft.doc.querySelector("textarea[name=content]")?.text).toBe(typed.content);
    expect(draft.doc.querySelector("input[name=summary]")?.getAttribute("value")).toBe(typed.summary);
  });
});
