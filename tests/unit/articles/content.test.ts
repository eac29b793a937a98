import { describe, expect, it } from "vitest";
import { CONTENT_MAX_DEPTH, CONTENT_MAX_LENGTH, CONTENT_MAX_TAGS, CONTENT_STORED_MAX_BYTES, contentMarkupProblem, POST_MESSAGES, utf8Length } from "~/lib/rules";
import { contentToText, excerptOf } from "~/lib/text/content-text";
import { ContentProcessingError, toStoredContent } from "~/services/articles/content.server";
import { Rng } from "../../support/hostile-payloads";

describe("toStoredContent: sanitising", () => {
  it("keeps the allowed tags and drops every attribute but a link's http(s) address, which gets rel", async () => {
    expect(await toStoredContent('<p class="x"><b>a</b> <i>b</i> <em>c</em> <strong>d</strong> <a href="https://x.sk" title="t">e</a></p>')).toBe(
      '<p><b>a</b> <i>b</i> <em>c</em> <strong>d</strong> <a href="https://x.sk/" rel="nofollow ugc noopener">e</a></p>',
    );
    expect(await toStoredContent('<a href="http://archiv.sk/a?b=1&amp;c=2#d" rel="opener" target="_blank">x</a>')).toBe(
      '<a href="http://archiv.sk/a?b=1&amp;c=2#d" rel="nofollow ugc noopener">x</a>',
    );
  });
  it("drops every other address a link might carry, however it is written", async () => {
    const hostile = [
      "javascript:alert(1)",
      "JaVaScRiPt:alert(1)",
      " javascript:alert(1)",
      "java\tscript:alert(1)",
      "&#106;avascript:alert(1)",
      "&#x6A;avascript:alert(1)",
      "javascript&colon;alert(1)",
      "vbscript:msgbox(1)",
      "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
      "//evil.example/x",
      "/admin",
      "mailto:a@b.sk",
      "https:alert(1)",
      "http://",
      ' https://x.sk" onmouseover="alert(1)',
    ];
    for (const href of hostile) {
      const clean = await toStoredContent(`<a href="${href}">x</a>`);
      expect(clean, href).toBe("<a>x</a>");
    }
    expect(await toStoredContent('<a href="https://x.sk/" onclick="alert(1)" style="x" id="y">x</a>')).toBe('<a href="https://x.sk/" rel="nofollow ugc noopener">x</a>');
    // Quotes and angle brackets in an address cannot leave the attribute.
    expect(await toStoredContent('<a href="https://x.sk/&quot;&gt;&lt;script&gt;">x</a>')).toBe('<a href="https://x.sk/%22%3E%3Cscript%3E" rel="nofollow ugc noopener">x</a>');
  });
  it("removes scripts, handlers and javascript: URLs", async () => {
    const dirty = [
      "<script>alert(1)</script>ok",
      '<img src=x onerror="alert(1)">',
      '<a href="javascript:alert(1)">x</a>',
      '<a href="data:text/html,<script>alert(1)</script>">x</a>',
      '<svg onload="alert(1)"><circle/></svg>',
      '<iframe src="https://evil.example"></iframe>',
      "<style>body{}</style>",
      '<p onclick="alert(1)">p</p>',
    ].join("");
    const clean = await toStoredContent(dirty);
    expect(clean).not.toMatch(/<script|onerror|onload|onclick|javascript:|<img|<svg|<iframe|<style/i);
    expect(clean).toContain("ok");
  });
  it("keeps other tags' text but not the tags", async () => {
    expect(await toStoredContent("<span>Nadpis</span><div>text</div><h4>Časť</h4>")).toBe("Nadpistext<h3>Časť</h3>");
  });
  it("writes line breaks as <br/>", async () => {
    expect(await toStoredContent("a<br>b<BR />c")).toBe("a<br/>b<br/>c");
  });
});

describe("toStoredContent", () => {
  it("stores newlines as <br/> and trims", async () => {
    expect(await toStoredContent("  Prvý riadok\r\nDruhý\n\nTretí \n")).toBe("Prvý riadok<br/>Druhý<br/><br/>Tretí");
  });
  it("escapes what is not markup", async () => {
    expect(await toStoredContent("1 < 2 & 3 > 2")).toBe("1 &lt; 2 &amp; 3 &gt; 2");
  });
});

describe("excerptOf", () => {
  const long = "Veľká Morava bola prvým veľkým štátnym útvarom Slovanov v strednej Európe.<br/><br/><b>Cyril</b> a Metod priniesli písmo, liturgiu a vzdelanie, ktoré formovali kultúru celých generácií po nich.";
  it("returns short text whole, as plain text", async () => {
    expect(excerptOf("<b>Krátky</b> text<br/>druhý riadok")).toBe("Krátky text druhý riadok");
  });
  it("cuts on a word boundary with an ellipsis and no markup", async () => {
    const excerpt = excerptOf(long, 100);
    expect(excerpt.length).toBeLessThanOrEqual(101);
    expect(excerpt.endsWith("…")).toBe(true);
    expect(excerpt).not.toMatch(/[<>]/);
    const words = excerpt.slice(0, -1).split(" ");
    expect(contentToText(long).split(" ").slice(0, words.length)).toEqual(words);
  });
  it("decodes entities into characters React will escape again", async () => {
    expect(excerptOf("1 &lt; 2 &amp;&amp; 3 &gt; 2")).toBe("1 < 2 && 3 > 2");
  });
});

describe("contentMarkupProblem", () => {
  const { contentTooManyTags, contentTooDeep } = POST_MESSAGES;
  const nested = (depth: number) => "<b>".repeat(depth) + "text";

  it("allows CONTENT_MAX_TAGS start tags and refuses one more, void ones included", () => {
    expect(contentMarkupProblem("<b>x</b> ".repeat(CONTENT_MAX_TAGS))).toBeNull();
    expect(contentMarkupProblem("<b>x</b> ".repeat(CONTENT_MAX_TAGS + 1))).toBe(contentTooManyTags);
    expect(contentMarkupProblem("a<br>".repeat(CONTENT_MAX_TAGS))).toBeNull();
    expect(contentMarkupProblem("a<br>".repeat(CONTENT_MAX_TAGS + 1))).toBe(contentTooManyTags);
  });

  it("allows nesting CONTENT_MAX_DEPTH deep and refuses one level more", () => {
    expect(contentMarkupProblem(nested(CONTENT_MAX_DEPTH))).toBeNull();
    expect(contentMarkupProblem(nested(CONTENT_MAX_DEPTH + 1))).toBe(contentTooDeep);
    expect(contentMarkupProblem(`<I>${nested(CONTENT_MAX_DEPTH - 1)}</i>`.repeat(50))).toBeNull();
  });

  it("does not nest void elements, but reads <b/> as opening a <b> (as browsers and the sanitiser do)", () => {
    expect(contentMarkupProblem(`${nested(CONTENT_MAX_DEPTH)}<br><img src="x"><hr/><br/>`)).toBeNull();
    expect(contentMarkupProblem(`${nested(CONTENT_MAX_DEPTH)}<span/>`)).toBe(contentTooDeep);
  });

  it("closes back to the matching open tag and ignores unmatched closing tags", () => {
    expect(contentMarkupProblem(`<b>${"<i>".repeat(CONTENT_MAX_DEPTH - 1)}</b>`.repeat(10))).toBeNull();
    expect(contentMarkupProblem(`${"</b></p>".repeat(3_000)}<b>x</b>`)).toBeNull();
    expect(contentMarkupProblem(`${nested(CONTENT_MAX_DEPTH)}${"</i>".repeat(100)}<b>`)).toBe(contentTooDeep);
  });

  it("allows unclosed paragraphs and list items, which close each other", () => {
    expect(contentMarkupProblem("<p>Odsek článku\n".repeat(500))).toBeNull();
    expect(contentMarkupProblem(`<ul>${"<li>bod".repeat(500)}</ul>`)).toBeNull();
    expect(contentMarkupProblem("<b><p>".repeat(CONTENT_MAX_DEPTH / 2 + 1))).toBe(contentTooDeep);
  });

  it("counts neither line breaks nor text that is not a tag", () => {
    expect(contentMarkupProblem("riadok\n".repeat(4_000))).toBeNull();
    expect(contentMarkupProblem("1 < 2 > 0, a <> b <3 <!-- x --> </ b> ".repeat(500))).toBeNull();
  });

  it("refuses 30,000 characters of nested <b> at once, and reads hostile text in linear time", () => {
    const started = performance.now();
    expect(contentMarkupProblem("<b>".repeat(CONTENT_MAX_LENGTH / 3))).toBe(contentTooDeep);
    expect(contentMarkupProblem("<b/>".repeat(CONTENT_MAX_LENGTH / 4))).toBe(contentTooDeep);
    expect(contentMarkupProblem("<br/>".repeat(CONTENT_MAX_LENGTH / 5))).toBe(contentTooManyTags);
    expect(contentMarkupProblem("<a".repeat(CONTENT_MAX_LENGTH / 2))).toBeNull();
    expect(contentMarkupProblem(`${"<".repeat(CONTENT_MAX_LENGTH - 1)}>`)).toBeNull();
    expect(contentMarkupProblem(`<${"a".repeat(CONTENT_MAX_LENGTH - 2)}>`)).toBeNull();
    expect(performance.now() - started).toBeLessThan(50);
  });
});

describe("sanitising the largest bodies the rules allow", () => {
  // CONTENT_MAX_TAGS start tags and CONTENT_MAX_LENGTH characters; the rest
  // line breaks, each one a <br/> more for the sanitiser.
  const blocks = CONTENT_MAX_TAGS / CONTENT_MAX_DEPTH;
  const markup = "<b>".repeat(CONTENT_MAX_DEPTH) + "</b>".repeat(CONTENT_MAX_DEPTH);
  const deepest = `${"<b>".repeat(CONTENT_MAX_DEPTH)}${"\n".repeat(CONTENT_MAX_LENGTH / blocks - markup.length)}${"</b>".repeat(CONTENT_MAX_DEPTH)}`.repeat(blocks);

  it("sanitises the deepest allowed body in well under a second", async () => {
    expect(deepest.length).toBe(CONTENT_MAX_LENGTH);
    expect(contentMarkupProblem(deepest)).toBeNull();
    await toStoredContent(""); // a worker's start-up is not part of the job
    const started = performance.now();
    const stored = await toStoredContent(deepest);
    const elapsed = performance.now() - started;
    console.log(`deepest: ${deepest.length} characters sanitised in ${elapsed.toFixed(1)} ms`);
    expect(stored.startsWith("<b>")).toBe(true);
    expect(elapsed).toBeLessThan(500);
  });

  it("finishes five such jobs at once", async () => {
    const started = performance.now();
    const stored = await Promise.all(Array.from({ length: 5 }, () => toStoredContent(deepest)));
    console.log(`5 bodies at once: ${(performance.now() - started).toFixed(1)} ms`);
    expect(new Set(stored).size).toBe(1);
  });

  it("rejects with ContentProcessingError a body the sanitiser cannot finish", async () => {
    // 200,000 nested tags, which the rules refuse: past the worker's time or memory limit.
    await expect(toStoredContent("<b>".repeat(200_000))).rejects.toBeInstanceOf(ContentProcessingError);
  });
});

describe("what a body takes as it is stored", () => {
  // Pieces of typed text whose stored form grows most: "&" and new lines (5 bytes each), tags and the end tags they imply, entities, characters outside ASCII, links with ASCII addresses.
  const PIECES = [
    "&", "\n", "<", ">", '"', "'", "a", " ", "ž", "€", "😀", "&amp", "&lt;", "&#0;", "&#x10FFFF;", "&nbsp;", "<b>", "</b>", "<i>", "<p>", "</p>",
    "<br>", "</br>", "<a>", "</a>", "<a href=http://a>", "<a href='http://a/?&<>\"`'>", "<h1>", "<h4>", "<li>", "<ul>", "<ol>",
    "<blockquote>", "<cite>", "</cite>", "<x>", "<script>", "</script>", "<!--", "-->", "\u0000", "\t",
  ];

  // Markdown makes tags of a mark or two ("> " a <blockquote></blockquote>): at most 25 bytes each, and CONTENT_MAX_TAGS of them.
  const elements = (stored: string) => (stored.match(/<(?!\/|br\/>)/g) ?? []).length;

  it("stores each typed character in at most 5 bytes, and each element Markdown makes in at most 25 more, but in a link's address", async () => {
    let worst = { ratio: 0, typed: "" };
    let tried = 0;
    // Every piece, and every pair of pieces, repeated; then mixtures of a few (a mixture of all would average the worst away).
    const rng = new Rng(20_240_601);
    const bodies = [
      ...PIECES.flatMap((a) => PIECES.map((b) => (a + b).repeat(10))),
      ...Array.from({ length: 300 }, () => rng.some(PIECES, 4).join("").repeat(5)),
    ];
    for (const typed of bodies) {
      if (contentMarkupProblem(typed)) continue;
      tried++;
      const stored = await toStoredContent(typed);
      const ratio = (utf8Length(stored) - 25 * elements(stored)) / typed.length;
      if (ratio > worst.ratio) worst = { ratio, typed };
    }
    expect(tried).toBeGreaterThan(2_000);
    expect(worst.ratio, JSON.stringify(worst.typed)).toBeLessThanOrEqual(5);
    for (const piece of ["&", "a\n"]) {
      const typed = piece.repeat(CONTENT_MAX_LENGTH / piece.length);
      expect(utf8Length(await toStoredContent(typed)), piece).toBeLessThanOrEqual(CONTENT_STORED_MAX_BYTES);
    }
    expect(utf8Length(await toStoredContent("&".repeat(CONTENT_MAX_LENGTH)))).toBe(CONTENT_STORED_MAX_BYTES);
  });

  it("grows up to 9 bytes a character in a link's address: past the stored bound", async () => {
    // "€" is stored as %E2%82%AC. (A new line inside a tag is a space to the sanitiser; a blank line ends the tag's paragraph.)
    for (const piece of ["€"]) {
      const typed = `<a href="http://a/${piece.repeat(CONTENT_MAX_LENGTH - 30)}">x</a>`;
      expect(typed.length).toBeLessThanOrEqual(CONTENT_MAX_LENGTH);
      expect(contentMarkupProblem(typed)).toBeNull();
      const stored = utf8Length(await toStoredContent(typed));
      expect(stored, piece).toBeGreaterThan(8.9 * CONTENT_MAX_LENGTH);
      expect(stored, piece).toBeGreaterThan(CONTENT_STORED_MAX_BYTES);
    }
  });

  it("counts bytes as UTF-8 does", () => {
    expect(utf8Length("aá€😀")).toBe(1 + 2 + 3 + 4);
    expect(utf8Length("")).toBe(0);
  });
});
