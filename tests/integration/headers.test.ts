import { describe, expect, inject, it } from "vitest";
import { Client, registerUser } from "../../scripts/lib/client";
import { publish } from "../../scripts/lib/publish";

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

  it("give each page a fresh nonce, used by every inline script", async () => {
    const nonces = new Set<string>();
    for (let i = 0; i < 5; i++) {
      const response = await fetch(`${base}/posts`);
      const nonce = response.headers.get("content-security-policy")!.match(NONCE)![1];
      const html = await response.text();
      const scripts = html.match(/<script\b[^>]*>/g)!;
      expect(scripts.length).toBeGreaterThan(0);
      for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
      nonces.add(nonce);
    }
    expect(nonces.size).toBe(5);
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
      // Kept by the reader's own browser for a minute: each page has its own CSP nonce, which a shared cache would reuse.
      expect(response.headers.get("cache-control"), path).toBe("private, max-age=60");
      expect(response.headers.get("vary"), path).toMatch(/Cookie/);
    }
    const token = "A".repeat(43);
    for (const path of [`/reset-password?token=${token}`, "/nie-je-tu", "/posts/neexistuje"]) {
      expect((await visitor.request(path)).headers.get("cache-control"), path).toMatch(/no-store/);
    }
    const refused = await visitor.post(`/reset-password?token=${token}`, { password: "nove-heslo-123", confirmPassword: "nove-heslo-123" });
    expect(refused.response.headers.get("cache-control")).toMatch(/no-store/);
  });

  it("never splice the response's nonce into what an author typed", async () => {
    const { client } = await registerUser(base);
    const typed = "@@DEJINY-NONCE-0000000@@";
    const id = await publish(client, `Nonce ${typed}`, ["Ostatné"], `Text s ${typed} a <b>${typed}</b>.`);
    const visitor = new Client(base);
    for (const path of [`/posts/${id}`, `/posts/${id}`, "/posts"]) {
      const response = await visitor.request(path);
      const nonce = response.headers.get("content-security-policy")!.match(NONCE)![1];
      const html = await response.text();
      expect(html, path).toContain(typed);
      // The nonce appears only in the script tags' attributes.
      expect(html.split(nonce).length - 1, path).toBe((html.match(/<script\b[^>]*nonce=/g) ?? []).length);
    }
    await client.post(`/posts/${id}`, { intent: "delete", confirm: "yes" });
  });
});
