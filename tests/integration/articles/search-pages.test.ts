import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, registerUser } from "../../../scripts/lib/client";
import { publish } from "../../../scripts/lib/publish";
import { startServer, type RunningServer } from "../../../scripts/lib/server";
import { listHref, type ListState } from "~/lib/links";
import { PAGE_SIZE } from "~/lib/rules";

// A visitor's new search is made from a kept page of its list
// (server/search-pages.ts). Hydration reads the page, so it must be the very
// page React and Remix render: two servers over one database, one making
// search pages from templates and answering search data without Remix's
// handler, the other (DEJINY_SEARCH_SHORTCUTS=off) leaving both to Remix;
// every answer compared byte for byte.
const root = mkdtempSync(path.join(tmpdir(), "dejiny-search-pages-"));
const env = { DEMO_CONTENT: "on", TRUST_PROXY: "true", PUBLIC_URL: "http://dejiny.test" };
let templated: RunningServer;
let whole: RunningServer;
let writer: Client;

beforeAll(async () => {
  templated = await startServer(env, root);
  whole = await startServer({ ...env, DEJINY_SEARCH_SHORTCUTS: "off" }, root);
  ({ client: writer } = await registerUser(templated.url));
  // Found once; its title and text full of what HTML, addresses and scripts escape.
  const id = await publish(writer, `Zvláštny <b>názov</b> & "úvodzovky" 'apostrof' ⁂ Kvakľavec`, ["Stredovek"], `Kvakľavec & <i>spol.</i> v roku 1410, „citát“ a \u2028 riadok.`);
  expect(id).not.toBeNull();
  // Its browser shows the word after publishing on the article, and is done with it.
  await writer.get(`/posts/${id}`);
});
afterAll(async () => {
  await whole?.stop();
  await templated?.stop();
  rmSync(root, { recursive: true, force: true });
});

/** The same request to both servers: status, the headers a reader gets (but Date, and a nonce) and the body. */
async function both(address: string, headers: Record<string, string> = {}, method = "GET") {
  const answers = [];
  for (const server of [templated, whole]) {
    const response = await fetch(`${server.url}${address}`, { method, headers: { "X-Forwarded-For": "203.0.113.9", ...headers }, redirect: "manual" });
    // Each answer rendered for one response has a nonce of its own (a kept page names its scripts by hash).
    const kept = [...response.headers]
      .filter(([name]) => name !== "date" && name !== "keep-alive" && name !== "connection")
      .map(([name, value]) => [name, name === "content-security-policy" ? value.replace(/'nonce-[^']+'/, "'nonce-…'") : value]);
    answers.push({ status: response.status, headers: kept, body: Buffer.from(await response.arrayBuffer()) });
  }
  return answers;
}

const searches: [string, Omit<ListState, "q" | "limit"> & { limit?: number }][] = [
  ["bitka", { tag: null }],
  ["a", { tag: null }], // more than a page: "Načítaj viac"
  ["a", { tag: null, limit: PAGE_SIZE * 2 }],
  ["a", { tag: "Stredovek" }],
  ["a", { tag: "Osobnosti", limit: PAGE_SIZE * 3 }],
  ["bitka", { tag: null, period: { century: 19 } }],
  ["a", { tag: "Stredovek", period: { from: 1000, to: 1600 } }],
  ["kvaklavec", { tag: null }], // one match
  ["Kvakľavec spol", { tag: "Stredovek" }],
  ["žžžqqq", { tag: null }], // none
  ["žžžqqq", { tag: "Stredovek", period: { century: 15 } }],
  ['<script>alert("x")</script>', { tag: null }],
  ['"*(NEAR OR', { tag: null }],
  ["!!!", { tag: null }], // no words at all
  ["a & b < c > d ' e \" f", { tag: null }],
  ["100% + 50 = ? / # ;", { tag: null }],
  ["⁂&<⁂", { tag: null }],
  ["⁂", { tag: "Stredovek" }],
  ["a\u2028b\u2029c", { tag: null }],
  ["Štefánik 🙂 ľudia", { tag: null }],
  ["stefan", { tag: null }],
  ["x".repeat(100), { tag: null }],
];

describe("a new search's page from a kept page of its list", () => {
  it("is byte for byte the page rendered whole, with the same headers, for many searches", async () => {
    for (const [q, list] of searches) {
      const address = listHref({ limit: PAGE_SIZE, ...list, q });
      for (const encoding of ["gzip", "identity"]) {
        const [fromTemplate, rendered] = await both(address, { "Accept-Encoding": encoding });
        expect(rendered.status, address).toBe(200);
        expect(fromTemplate.headers, address).toEqual(rendered.headers);
        expect(decode(fromTemplate), address).toBe(decode(rendered));
        expect(fromTemplate.body.equals(rendered.body), address).toBe(true);
      }
    }
  });

  it("finds what it should: the test's searches are not all empty pages", async () => {
    const cards = async (address: string) => (await new Client(templated.url).get(address)).doc.querySelectorAll(".card").length;
    expect(await cards("/posts?q=a")).toBe(PAGE_SIZE);
    expect(await cards("/posts?q=kvaklavec")).toBe(1);
    const { doc } = await new Client(templated.url).get("/posts?q=a");
    expect(doc.querySelector("a.load-more")?.getAttribute("href")).toMatch(/^\/posts\?q=a&limit=18#card-/);
  });

  it("answers revalidation, HEAD and a changed list as before", async () => {
    const address = "/posts?q=kronika+dejiny";
    const [first] = await both(address);
    const etag = first.headers.find(([name]) => name === "etag")![1];
    const [notModified, notModifiedWhole] = await both(address, { "If-None-Match": etag });
    expect(notModified.status).toBe(304);
    expect(notModified).toEqual(notModifiedWhole);
    const [head, headWhole] = await both("/posts?q=kronika+v%C3%A1lka", {}, "HEAD");
    expect(head).toEqual(headWhole);
    // A new article: the next search's template is made afresh (the period form's centuries, the results).
    const second = await publish(writer, "Kvakľavec druhý", ["Stredovek"], "Kvakľavec v roku 1999.");
    expect(second).not.toBeNull();
    await writer.get(`/posts/${second}`);
    const [after, afterWhole] = await both("/posts?q=kvaklavec");
    expect(decode(after)).toBe(decode(afterWhole));
    expect(decode(after)).toContain("Kvakľavec druhý");
  });

  it("answers a search's data request (typing with JavaScript) byte for byte as Remix's handler, visitors and signed-in readers alike", async () => {
    const dataAddress = (q: string, list: (typeof searches)[number][1]) => listHref({ limit: PAGE_SIZE, ...list, q }).replace("/posts", "/posts.data");
    const odd = ["/posts.data?q=", "/posts.data?q=a&century=abc", "/posts.data?q=a&_routes=routes%2Fposts", "/posts.data?q=a&tag=Nezn%C3%A1my"];
    for (const cookie of ["", writer.cookieHeader()]) {
      for (const address of [...searches.map(([q, list]) => dataAddress(q, list)), ...odd]) {
        for (const encoding of ["br", "gzip", "identity"]) {
          const [shortcut, remix] = await both(address, { "Accept-Encoding": encoding, ...(cookie && { Cookie: cookie }) });
          expect(shortcut.headers, address).toEqual(remix.headers);
          expect(decode(shortcut), address).toBe(decode(remix));
          expect(shortcut.body.equals(remix.body), address).toBe(true);
        }
      }
    }
    const [head, headRemix] = await both(dataAddress("bitka", { tag: null }), {}, "HEAD");
    expect(head).toEqual(headRemix);
  });

  it("leaves a signed-in reader's search to the whole render (their page shows who they are), the same as before", async () => {
    const cookie = writer.cookieHeader();
    for (const q of ["bitka", "žžžqqq", "a"]) {
      const [fromTemplate, rendered] = await both(listHref({ tag: null, limit: PAGE_SIZE, q }), { Cookie: cookie });
      expect(fromTemplate.status).toBe(200);
      expect(decode(fromTemplate)).toContain("nav-signout");
      expect(fromTemplate).toEqual(rendered);
    }
  });
});

/** The body as text (fetch has undone the gzip), for a readable difference. */
function decode({ body }: { body: Buffer }): string {
  return body.toString("utf8");
}
