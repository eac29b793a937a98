import { describe, expect, inject, it } from "vitest";
import { Client, registerUser } from "../support/client";

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

  it("keep signed-in pages private and public pages shareable", async () => {
    const { client } = await registerUser(base);
    expect((await client.request("/posts")).headers.get("cache-control")).toBe("private, no-store");
    expect((await new Client(base).request("/posts")).headers.get("cache-control") ?? "").not.toMatch(/private/);
  });
});
