import Database from "better-sqlite3";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { POST_MESSAGES } from "~/lib/rules";
import { Client, registerUser } from "../../../scripts/lib/client";
import { makeImage, padTo } from "../../../scripts/lib/images";
import { saveEdit } from "../../../scripts/lib/publish";
import { readDatabase } from "../../support/http";

const base = inject("baseUrl");
const databasePath = inject("databasePath");
const uploadsDir = inject("uploadsDir");

const TAGS = ["Stredovek", "Morava", "Umenie"];
let jpeg: Buffer;
let png: Buffer;

beforeAll(async () => {
  jpeg = await makeImage("jpeg");
  png = await makeImage("png");
});

const db = <T>(run: (db: Database.Database) => T): T => readDatabase(databasePath, run, true);

const uploads = () => new Set(readdirSync(uploadsDir).filter((f) => !f.startsWith(".")));
const postCount = () => db((d) => (d.prepare("SELECT count(*) AS n FROM posts").get() as { n: number }).n);

type Upload = { bytes: Buffer; name?: string; type?: string };

function createForm(fields: { title?: string; content?: string; tags?: string[]; image?: Upload | null; pendingImage?: string }) {
  const form = new FormData();
  form.append("title", fields.title ?? "Bitka na Moravskom poli");
  form.append("content", fields.content ?? "Prvý riadok\nDruhý riadok s <b>tučným</b> textom.");
  for (const tag of fields.tags ?? TAGS) form.append("tags", tag);
  if (fields.pendingImage) form.append("pendingImage", fields.pendingImage);
  const image = fields.image === undefined ? { bytes: jpeg } : fields.image;
  if (image) form.append("image", new Blob([new Uint8Array(image.bytes)], { type: image.type ?? "image/jpeg" }), image.name ?? "obrazok.jpg");
  else form.append("image", new Blob([]), "");
  return form;
}

async function create(client: Client, fields: Parameters<typeof createForm>[0] = {}) {
  const response = await client.request("/create-post", { method: "POST", body: createForm(fields), headers: { Origin: base } });
  const html = await response.text();
  const { parse } = await import("node-html-parser");
  return { response, html, doc: parse(html) };
}

function postIdFrom(response: Response): string {
  expect(response.status).toBe(303);
  return response.headers.get("location")!.match(/^\/posts\/([\w-]+)$/)![1];
}

describe("creating an article", () => {
  it("sends a visitor to sign in, and changes nothing for an anonymous POST", async () => {
    const visitor = new Client(base);
    const page = await visitor.request("/create-post");
    expect(page.status).toBe(302);
    expect(page.headers.get("location")).toBe("/signinsignup?redirectTo=/create-post");
    const before = [postCount(), uploads().size];
    const { response } = await create(visitor);
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toContain("/signinsignup");
    expect([postCount(), uploads().size]).toEqual(before);
  });

  it("publishes with an image and tags, newest first in the list and under each tag", async () => {
    const { client, email } = await registerUser(base);
    const id = postIdFrom((await create(client, { title: "Nový článok o Morave" })).response);
    const row = db((d) => d.prepare("SELECT p.*, u.email FROM posts p JOIN users u ON u.id = p.author_id WHERE p.id = ?").get(id)) as Record<string, string>;
    expect(row.email).toBe(email);
    expect(row.content).toBe("Prvý riadok<br/>Druhý riadok s <b>tučným</b> textom.");
    const files = [...uploads()].filter((f) => f.startsWith(row.image));
    expect(files.sort()).toEqual(
      ["400", "800", "1200", "thumb"].flatMap((w) => [`${row.image}-${w}.jpg`, `${row.image}-${w}.webp`]).sort(),
    );
    const article = await client.get(`/posts/${id}`);
    expect(article.doc.querySelector(".overlay h1")?.text).toBe("Nový článok o Morave");
    expect(article.doc.querySelector(".post-content")?.innerHTML).toContain("Prvý riadok<br>Druhý riadok s <b>tučným</b>");
    const list = await client.get("/posts");
    expect(list.doc.querySelector(".card a")?.getAttribute("href")).toBe(`/posts/${id}`);
    for (const tag of TAGS) {
      const tagged = await client.get(`/posts?tag=${encodeURIComponent(tag)}`);
      expect(tagged.doc.querySelector(".card a")?.getAttribute("href")).toContain(`/posts/${id}`);
    }
  });

  it("accepts a PNG named .jpg and a JPEG named .png: the bytes decide", async () => {
    const { client } = await registerUser(base);
    postIdFrom((await create(client, { image: { bytes: png, name: "photo.jpg", type: "image/jpeg" } })).response);
    postIdFrom((await create(client, { image: { bytes: jpeg, name: "photo.png", type: "application/octet-stream" } })).response);
  });

  it("refuses a text file named .jpg, and anything that only starts like an image", async () => {
    const { client } = await registerUser(base);
    const before = [postCount(), uploads().size];
    for (const bytes of [Buffer.from("Toto nie je obrázok, len text."), Buffer.concat([jpeg.subarray(0, 200)]), Buffer.from("GIF89a....")]) {
      const { response, doc } = await create(client, { image: { bytes, name: "obrazok.jpg", type: "image/jpeg" } });
      expect(response.status).toBe(400);
      expect(doc.querySelector(".form-error")?.text).toBe("Only JPEG and PNG formats are allowed.");
      expect(doc.querySelector('input[name="title"]')?.getAttribute("value")).toBe("Bitka na Moravskom poli");
    }
    expect([postCount(), uploads().size]).toEqual(before);
  });

  it("stores a JPEG with HTML appended without the HTML, and without its metadata", async () => {
    const { client } = await registerUser(base);
    const withExif = await (await import("sharp")).default(jpeg).withMetadata({ exif: { IFD0: { Artist: "GPS-TAJOMSTVO" } } }).jpeg().toBuffer();
    const hostile = Buffer.concat([withExif, Buffer.from("<html><script>alert(1)</script></html>")]);
    const id = postIdFrom((await create(client, { image: { bytes: hostile } })).response);
    const key = (db((d) => d.prepare("SELECT image FROM posts WHERE id = ?").get(id)) as { image: string }).image;
    for (const file of [...uploads()].filter((f) => f.startsWith(key))) {
      const stored = readFileSync(path.join(uploadsDir, file));
      expect(stored.includes("<script>")).toBe(false);
      expect(stored.includes("GPS-TAJOMSTVO")).toBe(false);
    }
  });

  it("takes an image of 2,097,151 bytes and refuses one of 2,097,152", async () => {
    const { client } = await registerUser(base);
    postIdFrom((await create(client, { image: { bytes: padTo(jpeg, 2_097_151) } })).response);
    const before = [postCount(), uploads().size];
    const { response, doc } = await create(client, { image: { bytes: padTo(jpeg, 2_097_152) }, title: "Príliš veľký" });
    expect(response.status).toBe(413);
    expect(doc.querySelector(".form-error")?.text).toBe("File size must be less than 2MB.");
    expect(doc.querySelector('input[name="title"]')?.getAttribute("value")).toBe("Príliš veľký");
    expect([postCount(), uploads().size]).toEqual(before);
    // The connection still works after the refused upload.
    expect((await client.request("/healthz")).status).toBe(200);
  });

  it("asks for every missing field and marks each one", async () => {
    const { client } = await registerUser(base);
    const before = [postCount()];
    const { response, doc } = await create(client, { title: " ", content: "", tags: [], image: null });
    expect(response.status).toBe(400);
    expect(doc.querySelector(".form-error")?.text).toBe("Please fill in all fields and select at least one tag.");
    expect(doc.querySelector('[name="title"]')?.getAttribute("aria-invalid")).toBe("true");
    expect(doc.querySelector('[name="content"]')?.getAttribute("aria-invalid")).toBe("true");
    expect(doc.querySelector('input[type="file"]')?.getAttribute("aria-invalid")).toBe("true");
    expect(doc.querySelector("fieldset.tag-checkboxes")?.classList.contains("invalid")).toBe(true);
    expect([postCount()]).toEqual(before);
  });

  it("applies the tag and title rules with the spec's messages", async () => {
    const { client } = await registerUser(base);
    const before = postCount();
    const cases: [Parameters<typeof createForm>[0], string][] = [
      [{ tags: ["Morava", "Morava"] }, "Tag already added."],
      [{ tags: ["Morava", "Stredovek", "Umenie", "Objavy", "Osobnosti", "Ostatné"] }, "You can add up to 5 tags only."],
      [{ tags: ["Atlantída"] }, "Vyberte tagy zo zoznamu."],
      [{ title: "x".repeat(91) }, "Nadpis môže mať najviac 90 znakov."],
    ];
    for (const [fields, message] of cases) {
      const { response, doc } = await create(client, fields);
      expect(response.status).toBe(400);
      expect(doc.querySelector(".form-error")?.text).toBe(message);
    }
    expect(postCount()).toBe(before);
    postIdFrom((await create(client, { title: "x".repeat(90), tags: ["Morava", "Stredovek", "Umenie", "Objavy", "Osobnosti"] })).response);
  });

  it("keeps a valid image after a refusal, so it need not be picked again, but only for its owner", async () => {
    const { client } = await registerUser(base);
    const refused = await create(client, { title: "" });
    expect(refused.response.status).toBe(400);
    const pending = refused.doc.querySelector('input[name="pendingImage"]')?.getAttribute("value");
    expect(pending).toMatch(/^[\w-]{16}$/);
    expect(refused.doc.querySelector(".image-preview img")?.getAttribute("src")).toBe(`/images/${pending}-400.jpg`);

    const { client: other } = await registerUser(base);
    const stolen = await create(other, { image: null, pendingImage: pending! });
    expect(stolen.response.status).toBe(400);
    // Told as if the image were gone: nobody learns that another account's key exists.
    expect(stolen.doc.querySelector(".form-error")?.text).toBe(POST_MESSAGES.pendingImageGone);

    const id = postIdFrom((await create(client, { image: null, pendingImage: pending! })).response);
    const row = db((d) => d.prepare("SELECT image FROM posts WHERE id = ?").get(id)) as { image: string };
    expect(row.image).toBe(pending);
    expect(db((d) => d.prepare("SELECT count(*) AS n FROM pending_images WHERE key = ?").get(pending))).toEqual({ n: 0 });
    // Used once: a second post cannot take the same image.
    expect((await create(client, { image: null, pendingImage: pending! })).response.status).toBe(400);
  });

  it("sends the image ahead for JavaScript clients and answers with its key", async () => {
    const { client } = await registerUser(base);
    const form = new FormData();
    form.append("image", new Blob([new Uint8Array(png)], { type: "image/png" }), "a.png");
    const response = await client.request("/create-post/image", { method: "POST", body: form, headers: { Origin: base } });
    expect(response.status).toBe(200);
    const { key } = await response.json();
    expect(key).toMatch(/^[\w-]{16}$/);
    const bad = new FormData();
    bad.append("image", new Blob(["text"], { type: "image/png" }), "a.png");
    const refused = await client.request("/create-post/image", { method: "POST", body: bad, headers: { Origin: base } });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({ error: "Only JPEG and PNG formats are allowed." });
    const anonymous = await new Client(base).request("/create-post/image", { method: "POST", body: form, headers: { Origin: base } });
    expect(anonymous.status).toBe(401);
  });

  it("removes the stored image when the database write fails", async () => {
    const { client } = await registerUser(base);
    db((d) => d.exec("CREATE TRIGGER fail_posts BEFORE INSERT ON posts BEGIN SELECT RAISE(ABORT, 'injected failure'); END"));
    try {
      const before = [postCount(), uploads()];
      const { response, doc } = await create(client);
      expect(response.status).toBe(500);
      expect(doc.querySelector(".form-error")?.text).toBe("Error creating post. Please try again.");
      expect(postCount()).toBe(before[0]);
      expect(uploads()).toEqual(before[1]);
    } finally {
      db((d) => d.exec("DROP TRIGGER fail_posts"));
    }
  });
});

describe("editing and deleting", () => {
  async function setup() {
    const author = await registerUser(base);
    const other = await registerUser(base);
    const admin = await registerUser(base);
    db((d) => d.prepare("UPDATE users SET is_admin = 1 WHERE email = ?").run(admin.email));
    const id = postIdFrom((await create(author.client, { title: "Pôvodný nadpis", content: "Pôvodný text\nna dvoch riadkoch" })).response);
    return { author: author.client, other: other.client, admin: admin.client, visitor: new Client(base), id };
  }
  const row = (id: string) => db((d) => d.prepare("SELECT title, content FROM posts WHERE id = ?").get(id)) as { title: string; content: string } | undefined;

  it("shows Edit only to the author and admins, and edit mode with the text as typed", async () => {
    const { author, other, admin, visitor, id } = await setup();
    for (const [client, sees] of [[author, true], [admin, true], [other, false], [visitor, false]] as const) {
      const { doc } = await client.get(`/posts/${id}`);
      expect(doc.querySelectorAll(".overlay-bar a").some((a) => a.text === "Edit"), String(sees)).toBe(sees);
    }
    const { doc } = await author.get(`/posts/${id}?edit`);
    expect(doc.querySelector('input[name="title"]')?.getAttribute("placeholder")).toBe("Edit title");
    expect(doc.querySelector('input[name="title"]')?.getAttribute("value")).toBe("Pôvodný nadpis");
    expect(doc.querySelector("textarea")?.getAttribute("placeholder")).toBe("Edit content");
    expect(doc.querySelector("textarea")?.text).toBe("Pôvodný text\nna dvoch riadkoch");
    expect(doc.querySelectorAll(".overlay-actions button, .overlay-actions a").map((b) => b.text.trim())).toEqual(["Save", "Delete", "Cancel", "Uložiť koncept", "Náhľad"]);
    const notAllowed = await other.get(`/posts/${id}?edit`);
    expect(notAllowed.doc.querySelector("textarea")).toBeNull();
  });

  it("lets only the author and admins save (403 for others), and saves newlines as <br/>", async () => {
    const { author, other, admin, visitor, id } = await setup();
    for (const client of [other, visitor]) {
      const { response } = await client.post(`/posts/${id}`, { intent: "save", title: "Hack", content: "Hack", authorId: "x" });
      expect(response.status).toBe(403);
      expect(row(id)?.title).toBe("Pôvodný nadpis");
    }
    const saved = await saveEdit(author, id, { title: "Nový nadpis", content: "Riadok 1\nRiadok 2<script>x</script>" }, `/posts/${id}?tag=Morava&edit`);
    expect(saved.response.status).toBe(303);
    expect(saved.response.headers.get("location")).toBe(`/posts/${id}?tag=Morava`);
    expect(row(id)).toEqual({ title: "Nový nadpis", content: "Riadok 1<br/>Riadok 2" });
    const byAdmin = await saveEdit(admin, id, { title: "Upravil admin", content: "Text" });
    expect(byAdmin.response.status).toBe(303);
    expect(row(id)?.title).toBe("Upravil admin");
    const empty = await author.post(`/posts/${id}`, { intent: "save", title: "", content: "Text" });
    expect(empty.response.status).toBe(400);
    expect(row(id)?.title).toBe("Upravil admin");
    // The list shows the edit at once.
    const list = await visitor.get("/posts");
    expect(list.doc.querySelectorAll(".card-title").map((t) => t.text)).toContain("Upravil admin");
  });

  it("asks to confirm a delete without JavaScript, then deletes the post, its tags and its files", async () => {
    const { author, other, visitor, id } = await setup();
    const key = (db((d) => d.prepare("SELECT image FROM posts WHERE id = ?").get(id)) as { image: string }).image;
    for (const client of [other, visitor]) {
      const { response } = await client.post(`/posts/${id}`, { intent: "delete", confirm: "yes" });
      expect(response.status).toBe(403);
      expect(row(id)).toBeDefined();
    }
    const ask = await author.post(`/posts/${id}`, { intent: "delete" });
    expect(ask.response.status).toBe(200);
    expect(ask.doc.querySelector(".confirm-delete p")?.text).toBe("Are you sure you want to delete this post?");
    expect(row(id)).toBeDefined();
    const done = await author.post(`/posts/${id}?tag=Umenie&limit=18`, { intent: "delete", confirm: "yes" });
    expect(done.response.status).toBe(303);
    expect(done.response.headers.get("location")).toBe("/posts?tag=Umenie&limit=18");
    expect(row(id)).toBeUndefined();
    expect(db((d) => d.prepare("SELECT count(*) AS n FROM post_tags WHERE post_id = ?").get(id))).toEqual({ n: 0 });
    expect([...uploads()].filter((f) => f.startsWith(key))).toEqual([]);
    expect((await visitor.get(`/posts/${id}`)).response.status).toBe(404);
  });

  it("lets an admin delete anyone's post, and answers other ids with 404", async () => {
    const { admin, id } = await setup();
    expect((await admin.post(`/posts/${id}`, { intent: "delete", confirm: "yes", reason: "Duplicitný článok." })).response.status).toBe(303);
    expect(row(id)).toBeUndefined();
    expect((await admin.post(`/posts/neexistuje`, { intent: "delete", confirm: "yes" })).response.status).toBe(404);
  });
});
