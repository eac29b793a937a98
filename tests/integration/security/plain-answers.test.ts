import { gunzipSync } from "node:zlib";
import { request } from "node:http";
import { describe, expect, inject, it } from "vitest";
import { TAGS } from "~/lib/tags";

const base = inject("baseUrl");

/** A raw answer: fetch would take the gzip off and hide whether the body came compressed. */
function raw(path: string, headers: Record<string, string> = {}, method = "GET"): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    request(`${base}${path}`, { method, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) }));
    })
      .on("error", reject)
      .end();
  });
}

// Answered by the server before Remix (server/plain-answers.ts), with the headers the route and the static files gave.
describe("health, robots.txt and the tag list", () => {
  it("/healthz says ok, is never kept, and answers HEAD without a body", async () => {
    const answer = await raw("/healthz?probe=1");
    expect(answer.status).toBe(200);
    expect(answer.body.toString()).toBe("ok");
    expect(answer.headers["cache-control"]).toBe("no-store");
    expect(answer.headers["content-type"]).toBe("text/plain; charset=utf-8");
    expect(answer.headers["content-security-policy"]).toContain("default-src 'self'");
    const head = await raw("/healthz", {}, "HEAD");
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
  });

  it("robots.txt comes gzipped when asked, with its ETag, and 304 when the reader has it", async () => {
    const plain = await raw("/robots.txt");
    expect(plain.body.toString()).toMatch(/^User-agent: \*\n[\s\S]*Sitemap: http.*\/sitemap\.xml\n$/);
    expect(plain.headers["cache-control"]).toBe("public, max-age=86400");
    expect(plain.headers.etag).toMatch(/^"[\w-]{22}"$/);
    const gzipped = await raw("/robots.txt", { "Accept-Encoding": "gzip" });
    expect(gzipped.headers["content-encoding"]).toBe("gzip");
    expect(gzipped.headers.vary).toBe("Accept-Encoding");
    expect(gunzipSync(gzipped.body).toString()).toBe(plain.body.toString());
    const again = await raw("/robots.txt", { "If-None-Match": String(plain.headers.etag) });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect((await raw("/robots.txt", { "If-None-Match": '"other"' })).status).toBe(200);
  });

  it("/tags.json is the 30 tags, kept an hour, with validators of the built file", async () => {
    const answer = await raw("/tags.json");
    expect(JSON.parse(answer.body.toString())).toEqual([...TAGS]);
    expect(answer.headers["content-type"]).toBe("application/json; charset=UTF-8");
    expect(answer.headers["cache-control"]).toBe("public, max-age=3600");
    expect(answer.headers.etag).toMatch(/^W\/"[0-9a-f]+-[0-9a-f]+"$/);
    expect((await raw("/tags.json", { "If-None-Match": String(answer.headers.etag) })).status).toBe(304);
    expect((await raw("/tags.json", { "If-Modified-Since": String(answer.headers["last-modified"]) })).status).toBe(304);
    expect((await raw("/tags.json", { "If-Modified-Since": "Thu, 01 Jan 1970 00:00:00 GMT" })).status).toBe(200);
  });
});
