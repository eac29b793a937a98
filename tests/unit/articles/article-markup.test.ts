import { describe, expect, it } from "vitest";
import { storedToEditable, withoutBreaksBesideBlocks } from "~/lib/text/article-markup";
import { contentToText, excerptOf } from "~/lib/text/content-text";
import { CONTENT_MAX_DEPTH, CONTENT_MAX_LENGTH, CONTENT_MAX_TAGS, contentMarkupProblem } from "~/lib/rules";
import { toStoredContent } from "~/services/articles/content.server";

describe("the structure of a long article", () => {
  it("keeps h2, h3, lists, list items, a blockquote and its cite line", async () => {
    const html = "<h2>Príčiny</h2><h3>Dane</h3><ul><li>a</li></ul><ol><li>b</li></ol><blockquote>Citát<cite>Kronika</cite></blockquote>";
    expect(await toStoredContent(html)).toBe(html);
  });

  it("keeps no attribute on them (a link inside keeps its http(s) address)", async () => {
    const html =
      '<h2 id="x" class="y">A</h2><h3 style="color:red">B</h3><ul type="square" onclick="alert(1)"><li value="3" data-x="1">c</li></ul>' +
      '<ol start="5" reversed><li>d</li></ol><blockquote cite="https://x.sk/"><a href="https://x.sk/" title="t">e</a><cite lang="la">f</cite></blockquote>';
    expect(await toStoredContent(html)).toBe(
      '<h2>A</h2><h3>B</h3><ul><li>c</li></ul><ol><li>d</li></ol><blockquote><a href="https://x.sk/" rel="nofollow ugc noopener">e</a><cite>f</cite></blockquote>',
    );
  });

  it("makes an h1 an h2 and an h4, h5 or h6 an h3, keeping their text (the title is the page's h1)", async () => {
    expect(await toStoredContent('<h1 class="x">Úvod</h1><H4>Prvá</H4><h5>Druhá</h5><h6 id="y">Tretia</h6>')).toBe("<h2>Úvod</h2><h3>Prvá</h3><h3>Druhá</h3><h3>Tretia</h3>");
  });

  it("keeps a cite only inside a blockquote; elsewhere its text stays and the tag goes", async () => {
    expect(await toStoredContent("<cite>Kronika</cite> a <blockquote>Citát <cite>Kosmas</cite></blockquote><cite>po nej</cite>")).toBe(
      "Kronika a <blockquote>Citát <cite>Kosmas</cite></blockquote>po nej",
    );
    expect(await toStoredContent("<blockquote><blockquote>a</blockquote><cite>b</cite></blockquote><p><cite><b>c</b></cite></p>")).toBe(
      "<blockquote><blockquote>a</blockquote><cite>b</cite></blockquote><p><b>c</b></p>",
    );
    // A stray closing tag does not make the next cite look quoted.
    expect(await toStoredContent("</blockquote><cite>d</cite>")).toBe("d");
  });

  it("keeps nested lists", async () => {
    const html = "<ol><li>Rastislav<ul><li>862: posolstvo<ol><li>863: príchod</li></ol></li></ul></li><li>Svätopluk</li></ol>";
    expect(await toStoredContent(html)).toBe(html);
  });

  it("still drops javascript: links, scripts and handlers inside the new tags", async () => {
    const clean = await toStoredContent(
      '<ul><li><a href="javascript:alert(1)">x</a></li></ul><blockquote><script>alert(1)</script><cite onmouseover="alert(1)">y</cite></blockquote><h2><img src=x onerror=alert(1)>z</h2>',
    );
    expect(clean).toBe("<ul><li><a>x</a></li></ul><blockquote><cite>y</cite></blockquote><h2>z</h2>");
  });

  it("stores no line break the author typed beside a block tag, and every other one", async () => {
    const typed = "Úvod\n<h2>Príčiny</h2>\n\nText\na ďalší riadok\n<ul>\n  <li>jeden</li>\n  <li>dva\n  <ol><li>a</li></ol></li>\n</ul>\n\n<blockquote>Citát\n<cite>Kosmas</cite>\n</blockquote>\nKoniec";
    expect(await toStoredContent(typed)).toBe(
      // A line's leading spaces are not kept (Markdown).
      "Úvod<h2>Príčiny</h2>Text<br/>a ďalší riadok<ul><li>jeden</li><li>dva<ol><li>a</li></ol></li></ul><blockquote>Citát<cite>Kosmas</cite></blockquote>Koniec",
    );
    // A paragraph keeps its old behaviour.
    expect(await toStoredContent("<p>a</p>\n<p>b</p>")).toBe("<p>a</p><br/><p>b</p>");
    expect(withoutBreaksBesideBlocks("a<br/><br/>b")).toBe("a<br/><br/>b");
  });

  it("gives the author back each block on a line of its own, which saves to the same content", async () => {
    const stored = "Úvod<h2>Príčiny</h2>Text<br/>riadok<ul><li>jeden</li><li>dva<ol><li>a</li></ol></li></ul><blockquote>Citát<cite>Kosmas</cite></blockquote>Koniec";
    const editable = storedToEditable(stored);
    expect(editable).toBe(
      "Úvod\n<h2>Príčiny</h2>\nText\nriadok\n<ul>\n<li>jeden</li>\n<li>dva\n<ol>\n<li>a</li>\n</ol>\n</li>\n</ul>\n<blockquote>\nCitát\n<cite>Kosmas</cite>\n</blockquote>\nKoniec",
    );
    expect(await toStoredContent(editable)).toBe(stored);
    expect(storedToEditable("a<br/><br/><b>b</b>")).toBe("a\n\n<b>b</b>");
  });
});

describe("plain text of a long article", () => {
  const stored = "<h2>Príčiny</h2>Úvodný text.<ul><li>prvý</li><li>druhý</li></ul><h3>Boj</h3><blockquote>Citát<cite>Kronika</cite></blockquote>Koniec";

  it("never runs together the words of two blocks, for search", () => {
    expect(contentToText(stored)).toBe("Príčiny Úvodný text. prvý druhý Boj Citát Kronika Koniec");
  });


  it("leaves the headings out of a card's excerpt, which stays plain text", () => {
    expect(excerptOf(stored)).toBe("Úvodný text. prvý druhý Citát Kronika Koniec");
  });
});

describe("sanitising the largest long articles the rules allow", () => {
  // Each body is CONTENT_MAX_LENGTH characters with at most CONTENT_MAX_TAGS
  // start tags nested at most CONTENT_MAX_DEPTH deep, padded with typed new
  // lines: each a <br/> for the sanitiser and then for the pass that drops
  // those beside a block.
  const padded = (markup: string) => markup + "\n".repeat(CONTENT_MAX_LENGTH - markup.length);
  /** `count` units, new lines between them. */
  const spread = (unit: string, count: number, opening = "") => {
    const gap = "\n".repeat(Math.floor((CONTENT_MAX_LENGTH - opening.length - unit.length * count) / count));
    return padded(opening + (unit + gap).repeat(count));
  };
  const depth = CONTENT_MAX_DEPTH / 2; // a <ul> and an <li> a level
  const deepList = "<ul><li>x".repeat(depth) + "</li></ul>".repeat(depth);
  const deepQuote = `${"<blockquote>x".repeat(CONTENT_MAX_DEPTH - 1)}<cite>y</cite>${"</blockquote>".repeat(CONTENT_MAX_DEPTH - 1)}`;
  const bodies: Record<string, string> = {
    "one list of 1,999 items, a new line between each": spread("<li>bod</li>", CONTENT_MAX_TAGS - 1, "<ul>"),
    "lists nested 10 deep, 100 times": spread(deepList, CONTENT_MAX_TAGS / CONTENT_MAX_DEPTH),
    "2,000 unclosed list items": padded("<ul>" + "<li>a\n".repeat(CONTENT_MAX_TAGS - 1)),
    "quotations nested 19 deep around a cite line, as many as fit": spread(deepQuote, Math.floor(CONTENT_MAX_LENGTH / (deepQuote.length + 2))),
    "1,000 headings to be renamed": spread("<h1>a</h1><h6>b</h6>", CONTENT_MAX_TAGS / 2),
  };

  it("are within the rules, and each is sanitised in well under a second", async () => {
    await toStoredContent(""); // a worker's start-up is not part of the job
    for (const [name, body] of Object.entries(bodies)) {
      expect(body.length, name).toBe(CONTENT_MAX_LENGTH);
      expect(contentMarkupProblem(body), name).toBeNull();
      const started = performance.now();
      const stored = await toStoredContent(body);
      const elapsed = performance.now() - started;
      console.log(`${name}: sanitised in ${elapsed.toFixed(1)} ms (${stored.length} characters stored)`);
      expect(stored, name).toMatch(/^<(?:ul|blockquote|h2)>/);
      expect(elapsed, name).toBeLessThan(1000);
    }
  });
});
