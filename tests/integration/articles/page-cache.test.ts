import Database from "better-sqlite3";
import { get, request } from "node:http";
import { describe, expect, inject, it } from "vitest";
import { Client, registerUser } from "../../../scripts/lib/client";
import { publish, saveEdit } from "../../../scripts/lib/publish";

const base = inject("baseUrl");

function rawGet(url: string, headers: Record<string, string>): Promise<{ status: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    get(url, { headers }, (response) => {
      let bytes = 0;
      response.on("data", (chunk: Buffer) => (bytes += chunk.length));
      response.on("end", () => resolve({ status: response.statusCode!, bytes }));
    }).on("error", reject);
  });
}
const databasePath = inject("databasePath");

describe("the page cache", () => {
  it("never hands one reader's page to another", async () => {
    const alice = await registerUser(base, { displayName: "Alica Cachová" });
    const bob = await registerUser(base, { displayName: "Bob Cachový" });
    for (let i = 0; i < 2; i++) {
      const a = await alice.client.get("/posts");
      const b = await bob.client.get("/posts");
      const visitor = await new Client(base).get("/posts");
      expect(a.doc.querySelector(".nav-account")?.text).toBe("Účet: Alica Cachová");
      expect(a.html).not.toContain("Bob Cachový");
      expect(b.doc.querySelector(".nav-account")?.text).toBe("Účet: Bob Cachový");
      expect(b.html).not.toContain("Alica Cachová");
      expect(visitor.doc.querySelector(".nav-signout")).toBeNull();
      expect(a.response.headers.get("cache-control")).toBe("private, no-store");
    }
  });

  it("shows an admin's Edit buttons only once they are an admin, and only to them", async () => {
    const author = await registerUser(base);
    const id = (await publish(author.client, "Článok pre cache"))!;
    const other = await registerUser(base);
    const editLinks = async (client: Client) => (await client.get(`/posts/${id}`)).doc.querySelectorAll(".overlay-bar a").filter((a) => a.text === "Edit").length;
    expect(await editLinks(other.client)).toBe(0);
    const db = new Database(databasePath);
    db.prepare("UPDATE users SET is_admin = 1 WHERE email = ?").run(other.email);
    db.close();
    expect(await editLinks(other.client)).toBe(1);
    expect(await editLinks(new Client(base))).toBe(0);
  });

  it("shows a new, an edited and a deleted article to every reader at once", async () => {
    const { client } = await registerUser(base);
    const visitor = new Client(base);
    const titles = async () => (await visitor.get("/posts")).doc.querySelectorAll(".card-title").map((t) => t.text);
    await titles();
    const id = (await publish(client, "Čerstvý článok"))!;
    expect(await titles()).toContain("Čerstvý článok");
    await saveEdit(client, id, { title: "Čerstvo upravený", content: "Nový text" });
    expect(await titles()).toContain("Čerstvo upravený");
    expect((await visitor.get(`/posts/${id}`)).doc.querySelector(".post-content")?.text).toBe("Nový text");
    await client.post(`/posts/${id}`, { intent: "delete", confirm: "yes" });
    expect(await titles()).not.toContain("Čerstvo upravený");
    expect((await visitor.get(`/posts/${id}`)).response.status).toBe(404);
  });
});

describe("an article's history", () => {
  it("is kept by its page (a new revision shows at once), a comparison and an old revision by their revision ids, whatever else the address has", async () => {
    const { client } = await registerUser(base);
    const visitor = new Client(base);
    const id = (await publish(client, "História v pamäti"))!;
    const history = `/posts/${id}/history`;
    const first = await visitor.get(history);
    const etag = first.response.headers.get("etag")!;
    expect(etag).toMatch(/^W\/"[\w-]{22}"$/);
    expect((await fetch(`${base}${history}`, { headers: { "If-None-Match": etag } })).status).toBe(304);
    expect((await visitor.get(`${history}?page=1`)).response.headers.get("etag")).toMatch(/^W\//);
    await saveEdit(client, id, { title: "História v pamäti", content: "Nový text", summary: "Nová verzia" });
    const after = await visitor.get(history);
    expect(after.response.headers.get("etag")).not.toBe(etag);
    expect(after.doc.querySelectorAll(".history-table tbody tr")).toHaveLength(2);
    const ids = after.doc.querySelectorAll('input[name="from"]').map((input) => input.getAttribute("value"));
    const comparison = (await visitor.get(`${history}?from=${ids[1]}&to=${ids[0]}`)).response.headers.get("etag");
    expect(comparison).toMatch(/^W\//);
    expect((await visitor.get(`${history}?from=${ids[1]}&to=${ids[0]}&utm_source=x&from=y`)).response.headers.get("etag")).toBe(comparison);
    const old = (await visitor.get(`${history}?revision=${ids[1]}`)).response.headers.get("etag");
    expect(old).toMatch(/^W\//);
    expect((await visitor.get(`${history}?revision=${ids[1]}&x=1`)).response.headers.get("etag")).toBe(old);
    // An id the history does not have: the app's 404, not kept.
    expect((await visitor.get(`${history}?revision=nie-je`)).response.status).toBe(404);
    // Past the last page: 404, and not kept.
    expect((await visitor.get(`${history}?page=2`)).response.status).toBe(404);
  });
});

describe("the forms a visitor opens", () => {
  const forms = ["/signinsignup", "/signinsignup?mode=register", "/signinsignup?forgot", "/signinsignup?redirectTo=/create-post", "/reset-password"];
  /** Served from the page cache: the same bytes as before, a weak ETag, its scripts named by hash instead of a nonce. */
  const kept = (response: Response) => Boolean(response.headers.get("etag")?.startsWith('W/"')) && !response.headers.get("content-security-policy")!.includes("nonce");

  it("are kept for visitors: the second visitor's request is served from the cache", async () => {
    for (const path of forms) {
      const first = await fetch(`${base}${path}`);
      const html = await first.text();
      const second = await fetch(`${base}${path}`);
      expect(kept(second), path).toBe(true);
      expect(await second.text(), path).toBe(html);
      expect(second.headers.get("cache-control"), path).toBe("public, max-age=60");
      expect((await fetch(`${base}${path}`, { headers: { "If-None-Match": second.headers.get("etag")! } })).status, path).toBe(304);
    }
  });

  it("are never kept for a signed-in reader, with a token, spelt otherwise, or as a form's answer; nor is /create-post's redirect of a visitor", async () => {
    const { client } = await registerUser(base);
    for (let i = 0; i < 2; i++) {
      const signedIn = await client.request("/reset-password");
      await signedIn.arrayBuffer();
      expect(signedIn.status).toBe(200);
      expect(kept(signedIn)).toBe(false);
      expect(signedIn.headers.get("cache-control")).toBe("private, no-store");
      // A signed-in reader is sent on from the sign-in page, never given the visitors' copy.
      const signIn = await client.request("/signinsignup");
      await signIn.arrayBuffer();
      expect(signIn.status).toBeGreaterThanOrEqual(300);
      expect(signIn.status).toBeLessThan(400);
      for (const path of [`/reset-password?token=${"A".repeat(43)}`, "/signinsignup?mode=register&x=1", "/signinsignup?redirectTo=/account"]) {
        const response = await fetch(`${base}${path}`);
        await response.arrayBuffer();
        expect(kept(response), path).toBe(false);
      }
    }
    // A visitor is sent to sign in first (a kept redirect); the author gets the form.
    for (let i = 0; i < 2; i++) {
      const visitor = await fetch(`${base}/create-post`, { redirect: "manual" });
      expect(visitor.status).toBe(302);
      expect(visitor.headers.get("location")).toBe("/signinsignup?redirectTo=/create-post");
      const author = await client.request("/create-post");
      await author.arrayBuffer();
      expect(author.status).toBe(200);
      expect(author.headers.get("cache-control")).toBe("private, no-store");
    }
    const refused = await new Client(base).post("/signinsignup", { intent: "signin", email: "nikto@example.com", password: "zle-heslo-123" });
    expect(refused.html).toContain("Zlý e-mail alebo heslo");
    expect(kept(refused.response)).toBe(false);
  });
});

describe("feeds and the sitemap", () => {
  it("are kept beside the pages, and any other .xml address is still the kept 404 page", async () => {
    for (let i = 0; i < 2; i++) {
      const unknown = await fetch(`${base}/nic-${i}.xml`);
      await unknown.arrayBuffer();
      expect(unknown.status).toBe(404);
      if (i > 0) expect(unknown.headers.get("content-security-policy")).not.toContain("nonce");
    }
    for (const path of ["/feed.xml", "/feed.xml?tag=Morava", "/feed.xml?tag=Morava", "/sitemap.xml"]) {
      const response = await fetch(`${base}${path}`);
      await response.arrayBuffer();
      expect(response.status, path).toBe(200);
      // Sent whole from memory (Remix streams its answers without a length).
      expect(response.headers.get("content-length"), path).not.toBeNull();
    }
  });
});

/** An answer as it was sent: status, header lines in order (but the date) and the body's bytes. */
function rawAnswer(method: string, path: string, headers: Record<string, string>): Promise<{ status: number; headers: string[]; body: string }> {
  return new Promise((resolve, reject) => {
    request(`${base}${path}`, { method, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => {
        const lines = response.rawHeaders.flatMap((value, i) => (i % 2 === 1 && response.rawHeaders[i - 1] !== "Date" ? [`${response.rawHeaders[i - 1]}: ${value}`] : []));
        resolve({ status: response.statusCode!, headers: lines, body: Buffer.concat(chunks).toString("base64") });
      });
    })
      .on("error", reject)
      .end();
  });
}

describe("a kept page answered at once (server/page-cache.ts answerKept)", () => {
  it("is sent as the full path sends it: status, headers in their order, and bytes, to visitors and signed-in readers", async () => {
    const { client } = await registerUser(base);
    const readers = { visitor: {}, "signed in": { Cookie: client.cookieHeader() } };
    for (const [reader, cookie] of Object.entries(readers)) {
      for (const path of ["/posts", "/posts?tag=Stredovek", "/neexistuje"]) {
        const etag = (await fetch(`${base}${path}`, { headers: cookie })).headers.get("etag") ?? "";
        const variants: [string, Record<string, string>][] = [
          ["GET", { "Accept-Encoding": "gzip" }],
          ["GET", {}],
          ["HEAD", { "Accept-Encoding": "gzip" }],
          ["GET", { "If-None-Match": etag }],
        ];
        for (const [method, headers] of variants) {
          // A request that says it has a body (even an empty one) is never answered at once: it takes the full path.
          const full = await rawAnswer(method, path, { ...cookie, ...headers, "Content-Length": "0" });
          const atOnce = await rawAnswer(method, path, { ...cookie, ...headers });
          expect(atOnce, `${reader} ${method} ${path} ${JSON.stringify(headers)}`).toEqual(full);
          expect(full.headers.some((line) => line.startsWith("Content-Security-Policy: ") && !line.includes("nonce"))).toBe(true);
        }
      }
    }
    // Not pages, though no route of the app has their addresses: with the unknown address's page kept, still themselves.
    for (const path of ["/healthz", "/robots.txt", "/tags.json"]) expect((await fetch(`${base}${path}`)).status, path).toBe(200);
  });
});

describe("conditional requests", () => {
  it("answer a browser that has the current page with 304 and no body (its policy the same); a changed page in full", async () => {
    for (const path of ["/", "/posts", "/posts?tag=Stredovek", "/posts?q=stefanik"]) {
      const first = await fetch(`${base}${path}`);
      const html = await first.text();
      const etag = first.headers.get("etag")!;
      expect(etag, path).toMatch(/^W\/"[\w-]{22}"$/);
      const again = await fetch(`${base}${path}`, { headers: { "If-None-Match": etag } });
      expect(again.status, path).toBe(304);
      expect(await again.text()).toBe("");
      expect(again.headers.get("etag")).toBe(etag);
      // The copy the browser keeps still goes with the policy: the same page has the same one.
      expect(again.headers.get("content-security-policy"), path).toBe(first.headers.get("content-security-policy"));
      expect(html).not.toContain("nonce=");
    }
    // Signed-in pages are never kept, so never revalidated.
    const { client } = await registerUser(base);
    const signedIn = await client.request("/posts");
    await signedIn.text();
    expect(signedIn.headers.get("cache-control")).toBe("private, no-store");

    const list = await fetch(`${base}/posts`);
    await list.text();
    await publish(client, "Podmienené požiadavky");
    const changed = await fetch(`${base}/posts`, { headers: { "If-None-Match": list.headers.get("etag")! } });
    expect(changed.status).toBe(200);
    expect(await changed.text()).toContain("Podmienené požiadavky");
  });

  it("answer a browser that has an image with 304", async () => {
    const html = await (await fetch(`${base}/posts`)).text();
    const image = html.match(/src="(\/images\/[^"]+)"/)![1];
    const first = await fetch(`${base}${image}`);
    await first.arrayBuffer();
    // As a browser revalidates (fetch() would add "Cache-Control: no-cache", which tells a server's file sender to send anyway).
    const revalidations: Record<string, string>[] = [{ "If-None-Match": first.headers.get("etag")! }, { "If-Modified-Since": first.headers.get("last-modified")! }];
    for (const headers of revalidations) {
      const again = await rawGet(`${base}${image}`, headers);
      expect(again.status).toBe(304);
      expect(again.bytes).toBe(0);
    }
  });
});
