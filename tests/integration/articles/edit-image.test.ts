import { readdirSync } from "node:fs";
import { describe, expect, inject, it } from "vitest";
import { HISTORY_MAX_IMAGES, MESSAGES, POST_MESSAGES } from "~/lib/rules";
import { registerUser, type Client } from "../../../scripts/lib/client";
import { makeImage } from "../../../scripts/lib/images";
import { editBase, publish } from "../../../scripts/lib/publish";
import { readDatabase } from "../../support/http";

const base = inject("baseUrl");
const databasePath = inject("databasePath");
const uploadsDir = inject("uploadsDir");

const imageOf = (id: string) => readDatabase(databasePath, (db) => db.prepare("SELECT image, image_width AS width FROM posts WHERE id = ?").get(id)) as { image: string; width: number };
const revisionsOf = (id: string) =>
  readDatabase(databasePath, (db) => db.prepare("SELECT id, image, image_width AS width FROM revisions WHERE post_id = ? ORDER BY number").all(id)) as { id: string; image: string; width: number }[];
const filesOf = (key: string) => readdirSync(uploadsDir, { recursive: true }).map(String).filter((name) => name.includes(key));
const served = async (key: string) => (await fetch(`${base}/images/${key}-400.webp`)).status;

/** The edit form as a browser without JavaScript sends it: multipart, with a new image when given. */
async function saveWithImage(client: Client, id: string, file: Buffer | null, fields: Record<string, string> = {}) {
  const form = new FormData();
  const all = { intent: "save", baseRevision: await editBase(client, id), title: "Obrázok po úprave", content: "Text článku", ...fields };
  for (const [name, value] of Object.entries(all)) form.append(name, value);
  if (file) form.append("image", new Blob([new Uint8Array(file)], { type: "image/png" }), "novy.png");
  const response = await client.request(`/posts/${id}?edit`, { method: "POST", body: form, headers: { Origin: client.base } });
  return { response, html: await response.text() };
}

describe("an article's image, edited", () => {
  it("is replaced by a new one checked as when creating; the old one stays for its history, and goes with the article", async () => {
    const author = await registerUser(base);
    const id = (await publish(author.client, "Obrázok po úprave"))!;
    const old = imageOf(id);

    // Not an image: refused with the spec's message, the text given back, nothing changed.
    const refused = await saveWithImage(author.client, id, Buffer.from("GIF89a nie je obrázok"), { content: "Zachovaný text" });
    expect(refused.response.status).toBe(400);
    expect(refused.html).toContain(MESSAGES.imageType);
    expect(refused.html).toContain("Zachovaný text");
    expect(imageOf(id)).toEqual(old);

    // A good image with a form refused for something else: kept, so it need not be picked again.
    const kept = await saveWithImage(author.client, id, await makeImage("png", 900, 600), { title: "" });
    expect(kept.response.status).toBe(400);
    const pending = kept.html.match(/name="pendingImage" value="([\w-]+)"/)?.[1];
    expect(pending).toBeDefined();
    expect(imageOf(id)).toEqual(old);

    const saved = await saveWithImage(author.client, id, null, { pendingImage: pending! });
    expect(saved.response.status).toBe(303);
    expect(imageOf(id)).toEqual({ image: pending, width: 900 });
    const [first, second] = revisionsOf(id);
    expect([first.image, first.width, second.image, second.width]).toEqual([old.image, old.width, pending, 900]);
    // The old image is still served: the first revision's page shows it.
    expect(await served(old.image)).toBe(200);
    const oldPage = await author.client.get(`/posts/${id}/history?revision=${first.id}`);
    expect(oldPage.html).toContain(`/images/${old.image}-`);
    const compared = await author.client.get(`/posts/${id}/history?from=${first.id}&to=${second.id}`);
    expect(compared.doc.querySelector(".comparison")?.text ?? compared.html).toMatch(/Obrázok/);

    // A pending image sent ahead that is gone: said, nothing changed.
    const gone = await saveWithImage(author.client, id, null, { pendingImage: "nie-je-taky" });
    expect(gone.html).toContain(POST_MESSAGES.pendingImageGone);

    // Restoring the first revision brings its image back.
    const restored = await author.client.post(`/posts/${id}/history`, { intent: "restore", revision: first.id, confirm: "yes", baseRevision: "2" });
    expect(restored.response.status).toBe(303);
    expect(imageOf(id).image).toBe(old.image);

    // Deleting the article removes every image its history had.
    expect(filesOf(old.image).length).toBeGreaterThan(0);
    expect(filesOf(pending!).length).toBeGreaterThan(0);
    expect((await author.client.post(`/posts/${id}`, { intent: "delete", confirm: "yes" })).response.status).toBe(303);
    expect(filesOf(old.image)).toEqual([]);
    expect(filesOf(pending!)).toEqual([]);
    expect(await served(pending!)).toBe(404);
  });

  it(`is refused once the article's history has ${HISTORY_MAX_IMAGES} images, before the new one is read`, async () => {
    const author = await registerUser(base);
    const id = (await publish(author.client, "Obrázok po úprave"))!;
    // Nine earlier revisions, each with an image of its own (written as the history would have them).
    readDatabase(
      databasePath,
      (db) => {
        for (let n = 2; n <= HISTORY_MAX_IMAGES; n++) {
          db.prepare(
            `INSERT INTO revisions (id, post_id, number, title, content, sources, tags, image, image_width, image_height, editor_id, editor_name, created_at, summary, size, period)
             SELECT id || '${n}', post_id, ${n}, title, content, sources, tags, 'obrazok-${n}', 10, 10, editor_id, editor_name, created_at, summary, size, period FROM revisions WHERE post_id = ? AND number = 1`,
          ).run(id);
        }
      },
      true,
    );
    const refused = await saveWithImage(author.client, id, await makeImage("png", 300, 200), { content: "Zachovaný text" });
    expect(refused.response.status).toBe(400);
    expect(refused.html).toContain(POST_MESSAGES.historyImages);
    expect(refused.html).toContain("Zachovaný text");
    // The text alone is still saved.
    expect((await saveWithImage(author.client, id, null)).response.status).toBe(303);
  });
});
