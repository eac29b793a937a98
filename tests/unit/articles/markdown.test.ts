import { describe, expect, it } from "vitest";
import { CONTENT_MAX_LENGTH, POST_MESSAGES } from "~/lib/rules";
import { editableText, storedToEditable } from "~/lib/text/article-markup";
import { ContentBoundsError, ContentProcessingError, toStoredContent } from "~/services/articles/content.server";

/** What the author writes (Markdown) and what is stored: exactly the tags the sanitiser allows (docs/articles.md, "Article text"). */
describe("Markdown → stored HTML", () => {
  const cases: [string, string, string][] = [
    ["a new line is a line break, a blank line a paragraph's end", "Prvý riadok\nDruhý\n\nTretí", "Prvý riadok<br/>Druhý<br/><br/>Tretí"],
    ["bold, italics and links", "**tučné**, *kurzíva*, _tiež_ a [archív](https://archiv.sk/a)", '<strong>tučné</strong>, <em>kurzíva</em>, <em>tiež</em> a <a href="https://archiv.sk/a" rel="nofollow ugc noopener">archív</a>'],
    ["an address in angle brackets is a link", "<https://archiv.sk>", '<a href="https://archiv.sk/" rel="nofollow ugc noopener">https://archiv.sk</a>'],
    ["headings start at h2", "# Úvod\n## Príčiny\n### Vojna\n#### Mier", "<h2>Úvod</h2><h2>Príčiny</h2><h3>Vojna</h3><h3>Mier</h3>"],
    ["lists", "Roky:\n\n- 862\n- 863\n\n1. Cyril\n2. Metod", "Roky:<ul><li>862</li><li>863</li></ul><ol><li>Cyril</li><li>Metod</li></ol>"],
    ["a quotation with its cite line", "> Citát z kroniky\n> — Kosmas, Kronika Čechov", "<blockquote>Citát z kroniky<cite>Kosmas, Kronika Čechov</cite></blockquote>"],
    ["a cite line after a blank line, or with two hyphens", "> Citát\n>\n> -- Kosmas", "<blockquote>Citát<cite>Kosmas</cite></blockquote>"],
    ["a dash inside a quotation's line is text", "> Citát — a nie zdroj", "<blockquote>Citát — a nie zdroj</blockquote>"],
    ["source markers stay as typed", "Veľká Morava [1] a Nitra [2].", "Veľká Morava [1] a Nitra [2]."],
    ["HTML typed the old way still works", "<h2>Príčiny</h2>\nText\n<ul>\n<li>a</li>\n</ul>\n<b>x</b> <i>y</i>", "<h2>Príčiny</h2>Text<ul><li>a</li></ul><b>x</b> <i>y</i>"],
    ["a backslash keeps a mark as text", "\\*nie kurzíva\\* a 1\\. máj", "*nie kurzíva* a 1. máj"],
  ];
  it.each(cases)("%s", async (_, typed, stored) => {
    expect(await toStoredContent(typed)).toBe(stored);
  });

  const refused: [string, string, string][] = [
    ["a script link keeps its text, as text", "[klik](javascript:alert(1))", "[klik](javascript:alert(1))"],
    ["a data: or relative link loses its address", '<a href="data:text/html,x">a</a> <a href="/admin">b</a>', "<a>a</a> <a>b</a>"],
    ["an image is no tag here: its text stays", "![mapa](https://x.sk/m.png)", '!<a href="https://x.sk/m.png" rel="nofollow ugc noopener">mapa</a>'],
    ["code keeps its text, escaped", "`<b>kód</b>`", "&lt;b&gt;kód&lt;/b&gt;"],
    ["an indented line is no code block", "Text\n\n    odsadený <b>riadok</b>", "Text<br/><br/>odsadený <b>riadok</b>"],
    ["a rule is no tag", "a\n\n***\n\nb", "a<br/><br/>***<br/><br/>b"],
    ["an HTML block does not swallow the lines after it", "<blockquote>\nriadok 1\nriadok 2\n</blockquote>", "<blockquote>riadok 1<br/>riadok 2</blockquote>"],
    ["script, style and attributes go", '<script>alert(1)</script><style>b{}</style><b onclick="x" class="y">t</b>', "<b>t</b>"],
    ["a cite outside a quotation keeps only its text", "<cite>Kosmas</cite>", "Kosmas"],
  ];
  it.each(refused)("%s", async (_, typed, stored) => {
    expect(await toStoredContent(typed)).toBe(stored);
  });

  it("refuses lists and quotations nested past 20 levels, however they are written", async () => {
    const nested = (depth: number) => Array.from({ length: depth }, (_, i) => `${"  ".repeat(i)}- úroveň ${i + 1}`).join("\n");
    await expect(toStoredContent(nested(20))).resolves.toContain("úroveň 20");
    for (const typed of [nested(21), `${"> ".repeat(21)}a`, `${"- ".repeat(21)}a`, `${"> - ".repeat(11)}a`]) {
      await expect(toStoredContent(typed), typed.slice(0, 40)).rejects.toThrow(new ContentBoundsError(POST_MESSAGES.contentMarksTooDeep));
    }
  });

  it("refuses more than 2,000 elements, counted before the HTML is made", async () => {
    await expect(toStoredContent("*a* ".repeat(1_000))).resolves.toContain("<em>a</em>");
    await expect(toStoredContent("*a* ".repeat(2_001))).rejects.toThrow(new ContentBoundsError(POST_MESSAGES.contentTooManyMarks));
    await expect(toStoredContent("- a\n".repeat(2_000))).rejects.toThrow(ContentBoundsError);
    // Emphasis, link and code marks count before parsing: 30,000 characters of them would not fit the worker's heap.
    await expect(toStoredContent("**a** ".repeat(1_000))).resolves.toContain("<strong>a</strong>");
    for (const unit of ["***a*** ", "_a_", "[`", "*"]) {
      await expect(toStoredContent(unit.repeat(Math.ceil(4_001 / unit.replace(/[^*_`[]/g, "").length))), unit).rejects.toThrow(new ContentBoundsError(POST_MESSAGES.contentTooManyMarks));
    }
    // A list item or a quotation's line counts too: 4,000 of them would hold 4 MB of tokens.
    await expect(toStoredContent("- a\n".repeat(4_001))).rejects.toThrow(new ContentBoundsError(POST_MESSAGES.contentTooManyMarks));
  });

  it("makes the same HTML each time from the same source: the edit form's round trip changes nothing", async () => {
    const source = "## Príčiny\n\nText s **dôrazom** [1]\n\n- 862\n- 863\n\n> Citát\n> — Kosmas";
    const stored = await toStoredContent(source);
    expect(editableText(stored, source)).toBe(source);
    expect(await toStoredContent(editableText(stored, source))).toBe(stored);
    // An article saved before Markdown opens as its text reads, and saves to the same content.
    const old = "Úvod<br/>riadok<h2>Príčiny</h2>Text<ul><li>a</li></ul><blockquote>Citát<cite>Kosmas</cite></blockquote>";
    expect(editableText(old, null)).toBe(storedToEditable(old));
    expect(await toStoredContent(editableText(old, null))).toBe(old);
  });

  it("parses and sanitises the worst 30,000 characters of marks within the worker's bounds (2 s, 24 MB): stored or refused, never failed", async () => {
    await toStoredContent(""); // a worker's start-up is not part of the job
    const fill = (unit: string) => unit.repeat(Math.ceil(CONTENT_MAX_LENGTH / unit.length)).slice(0, CONTENT_MAX_LENGTH);
    const worst = ["*a **b ", "***a*** ", "*a* ", "<b>a</b> ", "[a", "[a](https://x.sk/) ", "`a ``b ", `${">".repeat(20)} a\n\n`, `${">".repeat(30)} a\n\n`, "- a\n", "1. a\n", "## a\n", "a\n", "> - **[a](https://x.sk/)** *b*\n", "&amp;&#1; "];
    for (const unit of worst) {
      const started = performance.now();
      const outcome = await toStoredContent(fill(unit)).catch((error: unknown) => error);
      expect(outcome, unit).not.toBeInstanceOf(ContentProcessingError);
      expect(performance.now() - started, unit).toBeLessThan(2_000);
    }
  });
});
