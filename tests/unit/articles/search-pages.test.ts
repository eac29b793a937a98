import { describe, expect, it } from "vitest";
import { createSearchPages, cutTemplate, MARK } from "../../../server/search-pages";

// How a template is cut from the page rendered for MARK, and when it is refused
// (the pages themselves are compared with Remix's in tests/integration/articles/search-pages.test.ts).
const asText = "\u2042&amp;&lt;\u2042";
const asAddress = "%E2%81%82%26%3C%E2%81%82";
const results = `<p class="search-summary empty">Pre „${asText}“ nič.</p>`;
const data = '"[\\"q\\",\\"\\u2042\\u0026\\u003c\\u2042\\"]\\n"';
const page = (extra = "") =>
  `<title>Hľadanie: ${asText}</title><a href="/posts?q=${asAddress}&amp;tag=X">X</a><input value="${asText}"/>${results}${extra}<script>enqueue(${data});</script>`;

/** The page a template makes for `q`, with `found` as its results and `script` as its data. */
function fill(template: NonNullable<ReturnType<typeof cutTemplate>>, q: { text: string; address: string }, found: string, script: string): string {
  return template.map((piece) => (typeof piece === "string" ? piece : { qText: q.text, qAddress: q.address, results: found, data: script }[piece.slot])).join("");
}

describe("a search page's template", () => {
  it("makes the query's places, the results and the data its slots", () => {
    const template = cutTemplate(page(), results, data);
    expect(template).not.toBeNull();
    expect(fill(template!, { text: "a &amp; b", address: "a+%26+b" }, "<ul>cards</ul>", '"new"')).toBe(
      '<title>Hľadanie: a &amp; b</title><a href="/posts?q=a+%26+b&amp;tag=X">X</a><input value="a &amp; b"/><ul>cards</ul><script>enqueue("new");</script>',
    );
  });

  it("is refused when the results or the data are not there exactly once, or the query is left in another spelling", () => {
    expect(cutTemplate(page(results), results, data)).toBeNull();
    expect(cutTemplate(page(), results, '"other"')).toBeNull();
    expect(cutTemplate(page(), "<p>other</p>", data)).toBeNull();
    // Unescaped, JSON-escaped, %-escaped in lower case, a character reference: a place this template would not fill.
    for (const stray of [MARK, "\\u2042", "%e2%81%82", "&#x2042;", "&#8258;"]) expect(cutTemplate(page(`<meta content="${stray}">`), results, data), stray).toBeNull();
  });

  it("leaves a search to the whole render when its list's template is refused, and asks again after the data changes", async () => {
    let stamp = 1;
    let rendered = 0;
    const searchPages = createSearchPages({
      pages: {
        dataStamp: () => stamp,
        searchResults: async () => ({ html: "<p>found</p>", data: "[]\n" }),
      },
      // A page in which the results are not to be found: no template.
      render: async () => {
        rendered++;
        return new Response(page(), { status: 200 });
      },
      publicUrl: "http://dejiny.test",
    });
    const context = { clientAddress: "test", cspNonce: "n" };
    expect(await searchPages(new URL("http://dejiny.test/posts?q=bitka"), context)).toBeNull();
    expect(await searchPages(new URL("http://dejiny.test/posts?q=mier"), context)).toBeNull();
    expect(rendered).toBe(1);
    expect(await searchPages(new URL("http://dejiny.test/posts?tag=Stredovek"), context)).toBeNull();
    stamp++;
    await searchPages(new URL("http://dejiny.test/posts?q=mier"), context);
    expect(rendered).toBe(2);
  });
});
