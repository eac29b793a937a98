import { createHash } from "node:crypto";
import { brotliCompressSync, constants } from "node:zlib";
import { describe, expect, inject, it } from "vitest";
import { Client, registerUser } from "../../../scripts/lib/client";
import { publish } from "../../../scripts/lib/publish";

const base = inject("baseUrl");

const NONCE = /script-src 'self' 'nonce-([A-Za-z0-9+/=]{24})'/;

function expectSecurityHeaders(response: Response, what: string) {
  const csp = response.headers.get("content-security-policy") ?? "";
  // Images get a stricter policy still (see below).
  const directives = what === "image" ? ["default-src 'none'", "sandbox"] : ["default-src 'self'", "object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'", "form-action 'self'"];
  for (const directive of directives) expect(csp, what).toContain(directive);
  expect(response.headers.get("x-content-type-options"), what).toBe("nosniff");
  expect(response.headers.get("referrer-policy"), what).toBe("strict-origin-when-cross-origin");
  expect(response.headers.get("x-frame-options"), what).toBe("DENY");
  // Plain http here: no HSTS (the production test checks it behind https).
  expect(response.headers.get("strict-transport-security"), what).toBeNull();
}

describe("security headers", () => {
  it("are on every kind of response", async () => {
    const page = await fetch(`${base}/posts`);
    const html = await page.text();
    const asset = html.match(/href="(\/assets\/[^"]+\.css)"/)![1];
    const image = html.match(/srcSet="(\/images\/[^" ]+)/i)![1];
    const responses: [string, Response][] = [
      ["page", page],
      ["404 page", await fetch(`${base}/nie-je-tu`)],
      ["asset", await fetch(`${base}${asset}`)],
      ["image", await fetch(`${base}${image}`)],
      ["missing image", await fetch(`${base}/images/nic.jpg`)],
      ["tags.json", await fetch(`${base}/tags.json`)],
      ["health", await fetch(`${base}/healthz`)],
      ["refused POST", await fetch(`${base}/signout`, { method: "POST", headers: { Origin: "https://evil.example" } })],
    ];
    for (const [what, response] of responses) expectSecurityHeaders(response, what);
  });

  it("give each page rendered for one response a fresh nonce, used by every inline script", async () => {
    const nonces = new Set<string>();
    for (let i = 0; i < 5; i++) {
      // A reset link's page is rendered for each response (the sign-in page is kept, the same for every visitor).
      const response = await fetch(`${base}/reset-password?token=${"A".repeat(43)}`);
      const nonce = response.headers.get("content-security-policy")!.match(NONCE)![1];
      const html = await response.text();
      const scripts = html.match(/<script\b[^>]*>/g)!;
      expect(scripts.length).toBeGreaterThan(0);
      for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
      nonces.add(nonce);
    }
    expect(nonces.size).toBe(5);
  });

  it("give a kept page, the same for every visitor, a policy naming each of its inline scripts by hash", async () => {
    for (const path of ["/", "/posts", "/posts?tag=Morava", "/conflicts", "/signinsignup", "/nie-je-tu"]) {
      const [first, second] = [await fetch(`${base}${path}`), await fetch(`${base}${path}`)];
      const [html, again] = [await first.text(), await second.text()];
      expect(again, path).toBe(html);
      const csp = first.headers.get("content-security-policy")!;
      expect(second.headers.get("content-security-policy"), path).toBe(csp);
      expect(csp, path).not.toContain("nonce");
      const inline = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)].filter(([, attributes]) => !attributes.includes("src="));
      expect(inline.length, path).toBeGreaterThan(0);
      for (const [, attributes, text] of inline) {
        expect(attributes, path).not.toContain("nonce");
        expect(csp, path).toContain(`'sha256-${createHash("sha256").update(text).digest("base64")}'`);
      }
    }
  });

  it("lock uploaded images down further", async () => {
    const html = await (await fetch(`${base}/posts`)).text();
    const image = await fetch(`${base}${html.match(/srcSet="(\/images\/[^" ]+)/i)![1]}`);
    expect(image.headers.get("content-security-policy")).toBe("default-src 'none'; sandbox");
    expect(image.headers.get("content-disposition")).toBe("inline");
  });

  it("never let a signed-in page or a page with a token be kept, and say how long an anonymous page may be", async () => {
    const { client } = await registerUser(base);
    for (const path of ["/posts", "/", "/posts?tag=Morava", "/create-post", "/nie-je-tu"]) {
      expect((await client.request(path)).headers.get("cache-control"), path).toBe("private, no-store");
    }
    const visitor = new Client(base);
    for (const path of ["/", "/posts", "/posts?tag=Morava", "/conflicts", "/signinsignup"]) {
      const response = await visitor.request(path);
      // The same for every visitor (scripts named by hash): a proxy in front may keep it for a minute too.
      expect(response.headers.get("cache-control"), path).toBe("public, max-age=60");
      expect(response.headers.get("vary"), path).toMatch(/Cookie/);
    }
    // The word after a form: rendered for this response, with its own nonce, which a shared cache would hand to everyone: the reader's browser only.
    await visitor.post("/signinsignup?forgot", { intent: "forgot", email: "nikto@example.com" });
    expect((await visitor.request("/signinsignup")).headers.get("cache-control")).toBe("private, max-age=60");
    const token = "A".repeat(43);
    for (const path of [`/reset-password?token=${token}`, "/nie-je-tu", "/posts/neexistuje"]) {
      expect((await visitor.request(path)).headers.get("cache-control"), path).toMatch(/no-store/);
    }
    const refused = await visitor.post(`/reset-password?token=${token}`, { password: "nove-heslo-123", confirmPassword: "nove-heslo-123" });
    expect(refused.response.headers.get("cache-control")).toMatch(/no-store/);
  });

  it("answer a data request (a search typed with JavaScript) as Express did: its type, Vary, caching, compressed as the client asks", async () => {
    const { client } = await registerUser(base);
    const word = `Dátovník${process.pid}`;
    // Enough found to pass the compression's threshold (1 KB).
    for (const n of [1, 2, 3]) await publish(client, `${word} ${n}`, ["Ostatné"], `${word} a text článku ${n}. `.repeat(20));
    const path = `/posts.data?q=${encodeURIComponent(word)}`;
    const bodies = new Set<string>();
    for (const [accepted, encoding] of [["gzip, deflate, br", "br"], ["gzip", "gzip"], ["deflate", "deflate"], ["identity", null], ["gzip;q=0", null]] as const) {
      const response = await fetch(`${base}${path}`, { headers: { "Accept-Encoding": accepted } });
      bodies.add(await response.text());
      expect(response.status).toBe(200);
      expectSecurityHeaders(response, `data, ${accepted}`);
      expect(response.headers.get("content-type")).toBe("text/x-script; charset=utf-8");
      expect(response.headers.get("vary")).toBe("Cookie, Accept-Encoding");
      expect(response.headers.get("cache-control")).toBe("private, max-age=60");
      expect(response.headers.get("x-remix-response")).toBe("yes");
      expect(response.headers.get("content-encoding"), accepted).toBe(encoding);
    }
    // The same data however it was sent.
    expect(bodies.size).toBe(1);
    expect([...bodies][0]).toContain(`${word} 3`);
    expect((await client.request(path)).headers.get("cache-control")).toBe("private, no-store");
    expect((await fetch(`${base}${path}`, { method: "HEAD" })).headers.get("content-encoding")).toBeNull();
  });

  it("send the built script and stylesheet compressed once at build time when the client takes brotli or gzip, else as before", async () => {
    const page = await (await fetch(`${base}/posts`)).text();
    const script = /\/assets\/components-[\w-]+\.js/.exec(page)![0];
    const stylesheet = /\/assets\/[\w-]+\.css/.exec(page)![0];
    for (const [asset, type] of [
      [script, "application/javascript; charset=UTF-8"],
      [stylesheet, "text/css; charset=UTF-8"],
    ]) {
      const bodies = new Set<string>();
      const sizes: Record<string, number> = {};
      for (const [accepted, encoding] of [["gzip, deflate, br, zstd", "br"], ["gzip", "gzip"], ["br;q=0.5, gzip", "gzip"], ["deflate", "deflate"], ["identity", null]] as const) {
        const response = await fetch(`${base}${asset}`, { headers: { "Accept-Encoding": accepted } });
        expect(response.status).toBe(200);
        expect(response.headers.get("content-encoding"), `${asset}, ${accepted}`).toBe(encoding);
        expect(response.headers.get("content-type")).toBe(type);
        expect(response.headers.get("vary")).toBe("Accept-Encoding");
        expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
        expectSecurityHeaders(response, `${asset}, ${accepted}`);
        // Compressed on the fly, an answer is chunked: no length, and the comparisons below fail.
        sizes[encoding ?? "identity"] = Number(response.headers.get("content-length") ?? NaN);
        bodies.add(await response.text());
        if (encoding === "br") {
          // Its own validator: a 304 for the same encoding (fetch would ask past caches with "no-cache" unless told otherwise).
          const revalidation = { "Accept-Encoding": accepted, "If-None-Match": response.headers.get("etag")!, "Cache-Control": "max-age=0" };
          const again = await fetch(`${base}${asset}`, { headers: revalidation });
          expect(again.status).toBe(304);
        }
      }
      // The same file however it was sent, at brotli's highest quality: smaller than the quality 4 it was compressed at on the fly.
      expect(bodies.size).toBe(1);
      const plain = Buffer.from([...bodies][0]);
      expect(sizes.identity).toBe(plain.length);
      expect(sizes.br).toBeLessThan(brotliCompressSync(plain, { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } }).length);
      expect(sizes.gzip).toBeLessThan(plain.length);
      // The compressed files are not addresses of their own.
      expect((await fetch(`${base}${asset}.br`)).status).toBe(404);
    }
  });

  it("send the site's pictures with the headers static files had, 304s and ranges", async () => {
    for (const [picture, type] of [
      ["/img/posts-bg-800.webp", "image/webp"],
      ["/img/banner.jpg", "image/jpeg"],
    ]) {
      const response = await fetch(`${base}${picture}`);
      const bytes = Buffer.from(await response.arrayBuffer());
      expect(response.status).toBe(200);
      expectSecurityHeaders(response, picture);
      expect([response.headers.get("content-type"), response.headers.get("cache-control"), response.headers.get("accept-ranges")]).toEqual([type, "public, max-age=604800", "bytes"]);
      expect([response.headers.get("content-encoding"), response.headers.get("vary")]).toEqual([null, null]);
      expect(Number(response.headers.get("content-length"))).toBe(bytes.length);
      expect(response.headers.get("etag")).toMatch(/^W\/"[0-9a-f]+-[0-9a-f]+"$/);
      const again = await fetch(`${base}${picture}`, { headers: { "If-None-Match": response.headers.get("etag")!, "Cache-Control": "max-age=0" } });
      expect(again.status).toBe(304);
      const head = await fetch(`${base}${picture}`, { method: "HEAD" });
      expect([head.status, head.headers.get("content-length"), (await head.arrayBuffer()).byteLength]).toEqual([200, String(bytes.length), 0]);
      const range = await fetch(`${base}${picture}`, { headers: { Range: "bytes=0-9" } });
      expect([range.status, Buffer.from(await range.arrayBuffer()).equals(bytes.subarray(0, 10))]).toEqual([206, true]);
    }
  });

  it("keep what an author typed as text, however much it looks like a nonce", async () => {
    const { client } = await registerUser(base);
    const typed = "@@DEJINY-NONCE-0000000@@";
    const id = await publish(client, `Nonce ${typed}`, ["Ostatné"], `Text s ${typed} a <b>${typed}</b> nonce="${typed}".`);
    const visitor = new Client(base);
    for (const path of [`/posts/${id}`, `/posts/${id}`, "/posts"]) {
      const response = await visitor.request(path);
      const html = await response.text();
      expect(html, path).toContain(typed);
      // A kept page has no nonce attribute at all; its scripts are named by hash.
      expect(html, path).not.toMatch(/<script\b[^>]*nonce=/);
      expect(response.headers.get("content-security-policy"), path).toMatch(/script-src 'self'( 'sha256-[\w+/=]{44}')+;/);
    }
    await client.post(`/posts/${id}`, { intent: "delete", confirm: "yes" });
  });
});
