import { request } from "node:http";
import { describe, expect, inject, it } from "vitest";
import { registerUser } from "../../../scripts/lib/client";
import { makeImage } from "../../../scripts/lib/images";
import { readDatabase } from "../../support/http";

// An image at its own address is answered before the page cache and Express
// (server/images.ts), from memory when recently sent: the same answer as at
// any other spelling of its address, and none once its key is no longer used.
const base = inject("baseUrl");
const databasePath = inject("databasePath");

type Answer = { status: number; headers: Record<string, string | string[] | undefined>; body: Buffer };

/** An answer as it comes, with no header added (fetch adds Cache-Control: no-cache to conditional requests). */
function ask(path: string, { method = "GET", headers = {} }: { method?: string; headers?: Record<string, string> } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { method, headers, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) }));
    });
    req.on("error", reject).end();
  });
}

const encodeAll = (name: string) => [...name].map((c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`).join("");
const withoutDate = ({ date: _date, ...headers }: Answer["headers"]) => headers;

describe("an image", () => {
  it("gets the same answer at its own address as at any other spelling: headers, bytes, 304s and HEAD", async () => {
    const html = await (await fetch(`${base}/posts`)).text();
    const name = html.match(/src="\/images\/([^"]+)"/)![1];
    for (const path of [`/images/${name}`, `/images/${encodeAll(name)}`]) await ask(path); // both held, both kept
    const [own, other] = [await ask(`/images/${name}`), await ask(`/images/${encodeAll(name)}`)];
    expect([own.status, own.headers["content-type"], own.headers["cache-control"]]).toEqual([200, name.endsWith(".webp") ? "image/webp" : "image/jpeg", "public, max-age=31536000, immutable"]);
    expect(withoutDate(own.headers)).toEqual(withoutDate(other.headers));
    expect(own.body.equals(other.body)).toBe(true);
    expect(own.body.length).toBe(Number(own.headers["content-length"]));

    const validators: Record<string, string>[] = [{ "If-None-Match": String(own.headers.etag) }, { "If-Modified-Since": String(own.headers["last-modified"]) }];
    for (const path of [`/images/${name}`, `/images/${encodeAll(name)}`]) {
      for (const headers of validators) expect(await ask(path, { headers }).then((a) => [a.status, a.body.length])).toEqual([304, 0]);
      // A browser asking past its cache, and a validator that does not match: the file.
      expect((await ask(path, { headers: { ...validators[0], "Cache-Control": "no-cache" } })).status).toBe(200);
      expect((await ask(path, { headers: { "If-None-Match": 'W/"0-0"' } })).status).toBe(200);
      const head = await ask(path, { method: "HEAD" });
      expect([head.status, head.headers["content-length"], head.body.length]).toEqual([200, own.headers["content-length"], 0]);
    }
  });

  it("is no longer served once its key is not used, whoever changed the database", async () => {
    const { client } = await registerUser(base);
    const form = new FormData();
    form.append("image", new Blob([new Uint8Array(await makeImage("jpeg", 64, 48))], { type: "image/jpeg" }), "a.jpg");
    const { key } = await (await client.request("/create-post/image", { method: "POST", body: form, headers: { Origin: base } })).json();
    for (let i = 0; i < 2; i++) expect((await ask(`/images/${key}-400.webp`)).status).toBe(200);
    // Another process (the clean-up of an older version, sqlite3 by hand): the files stay, the key is no one's.
    readDatabase(databasePath, (db) => db.prepare("DELETE FROM pending_images WHERE key = ?").run(key), true);
    expect((await ask(`/images/${key}-400.webp`)).status).toBe(404);
    expect((await ask(`/images/${encodeAll(`${key}-400.webp`)}`)).status).toBe(404);
  });
});
