import { describe, expect, it } from "vitest";
import { contentToText } from "~/lib/text/content-text";
import { parsePassageNumber, passageAt, passagesHtml, quotedPassage, splitPassages } from "~/lib/text/passages";
import { toStoredContent } from "~/services/articles/content.server";

/** Each passage as [its number (null: a heading), its HTML]. */
const split = (html: string) => splitPassages(html).map((p) => [p.n, p.html]);

describe("an article's passages", () => {
  const cases: [string, string, (number | string | null)[][]][] = [
    ["empty content", "", []],
    ["only line breaks and spaces", "<br/> <br/><br/>", []],
    ["one line", "Jedna veta.", [[1, "Jedna veta."]]],
    ["a single line break stays inside its passage", "Prvý riadok<br/>druhý riadok", [[1, "Prvý riadok<br/>druhý riadok"]]],
    ["a blank line separates two", "Prvý.<br/><br/>Druhý.", [[1, "Prvý."], [2, "Druhý."]]],
    ["a blank line with spaces on it separates too", "Prvý.<br/> \t<br/>Druhý.", [[1, "Prvý."], [2, "Druhý."]]],
    ["several blank lines are one gap", "Prvý.<br/><br/><br/><br/>Druhý.", [[1, "Prvý."], [2, "Druhý."]]],
    ["breaks at the start and end are not passages", "<br/><br/>Prvý.<br/><br/>", [[1, "Prvý."]]],
    [
      "inline tags stay in their passage; a blank line inside an open one does not cut it",
      "<b>Tučný<br/><br/>ešte tučný</b> koniec.<br/><br/>Iný s <a href=\"https://x.sk/\" rel=\"nofollow ugc noopener\">odkazom</a>.",
      [
        [1, "<b>Tučný<br/><br/>ešte tučný</b> koniec."],
        [2, 'Iný s <a href="https://x.sk/" rel="nofollow ugc noopener">odkazom</a>.'],
      ],
    ],
    [
      "a heading is in its place, unnumbered",
      "Úvod.<h2>Príčiny</h2>Prvá príčina.<br/><br/>Druhá.<h3>Dane</h3>",
      [
        [1, "Úvod."],
        [null, "<h2>Príčiny</h2>"],
        [2, "Prvá príčina."],
        [3, "Druhá."],
        [null, "<h3>Dane</h3>"],
      ],
    ],
    [
      "a list is one passage, nested lists and all",
      "Body:<ul><li>a</li><li>b<ul><li>c</li></ul></li></ul>Potom.",
      [
        [1, "Body:"],
        [2, "<ul><li>a</li><li>b<ul><li>c</li></ul></li></ul>"],
        [3, "Potom."],
      ],
    ],
    [
      "a quotation with its cite line is one passage; two blocks in a row are two",
      "<blockquote>Citát<br/><br/>ďalej<cite>Kronika</cite></blockquote><ol><li>x</li></ol>",
      [
        [1, "<blockquote>Citát<br/><br/>ďalej<cite>Kronika</cite></blockquote>"],
        [2, "<ol><li>x</li></ol>"],
      ],
    ],
    ["a legacy <p> is a passage of its own", "<p>Starý</p><p>odsek</p>Text", [[1, "<p>Starý</p>"], [2, "<p>odsek</p>"], [3, "Text"]]],
    ["an empty list or inline tag is nothing to read", "<ul><li></li></ul><b> </b><br/><br/>Text", [[1, "Text"]]],
    ["a block inside an inline tag stays in the text passage", "<b>a<ul><li>b</li></ul></b>c", [[1, "<b>a<ul><li>b</li></ul></b>c"]]],
  ];
  it.each(cases)("%s", (_, html, expected) => {
    expect(split(html)).toEqual(expected);
  });

  it("numbers what the sanitiser stores from typed text the same way", async () => {
    const stored = await toStoredContent("Prvý odsek,\nstále prvý.\n\n<h2>Nadpis</h2>\nDruhý [1].\n\n<ul>\n<li>a</li>\n</ul>\n\n\nŠtvrtý &amp; <b>posledný</b>");
    expect(splitPassages(stored).map((p) => [p.n, contentToText(p.html)])).toEqual([
      [1, "Prvý odsek, stále prvý."],
      [null, "Nadpis"],
      [2, "Druhý."],
      [3, "a"],
      [4, "Štvrtý & posledný"],
    ]);
  });

  it("gives a passage's plain text (markers [n] left out), and nothing for a number it does not have", () => {
    const html = "Prvý.<br/><br/>Druhý s <b>tučným</b> a zdrojom [2].<h2>N</h2>";
    expect(passageAt(html, 2)).toEqual({ n: 2, html: "Druhý s <b>tučným</b> a zdrojom [2].", text: "Druhý s tučným a zdrojom." });
    expect(passageAt(html, 3)).toBeNull();
    expect(passageAt(html, 0)).toBeNull();
  });

  it("reads ?odsek= as a positive number only", () => {
    for (const bad of ["", "0", "-1", "1.5", "1e3", " 2", "2 ", "abc", "02", "1234567", "9".repeat(400)]) expect(parsePassageNumber(bad)).toBeNull();
    expect(parsePassageNumber("7")).toBe(7);
    expect(parsePassageNumber("123456")).toBe(123456);
  });

  it("quotes a long passage cut on a word boundary, at most 300 characters", () => {
    const long = `${"slovo ".repeat(100)}koniec`;
    const quoted = quotedPassage(`Krátky.<br/><br/>${long}`, "2")!;
    expect(quoted.n).toBe(2);
    expect(quoted.quote.length).toBeLessThanOrEqual(300);
    expect(quoted.quote).toMatch(/^slovo slovo .*slovo…$/);
    expect(quotedPassage("Krátky.", "2")).toBeNull();
    expect(quotedPassage("Krátky.", "x")).toBeNull();
  });

  it("renders each numbered passage with its anchor, and a 'Zdroj?' link only when asked", () => {
    const passages = splitPassages("Prvý<br/>riadok.<br/><br/><b>a<p>b</p></b><h2>N</h2><ul><li>x</li></ul>");
    expect(passagesHtml(passages)).toBe('<p id="odsek-1">Prvý<br/>riadok.</p><div id="odsek-2"><b>a<p>b</p></b></div><h2>N</h2><div id="odsek-3"><ul><li>x</li></ul></div>');
    const flagged = passagesHtml(passages, (n) => `/posts/ab"c/report?odsek=${n}`);
    expect(flagged).toContain('<p id="odsek-1">Prvý<br/>riadok. <a class="passage-flag" href="/posts/ab&quot;c/report?odsek=1">Zdroj?<span class="visually-hidden"> (označiť odsek 1)</span></a></p>');
    expect(flagged.match(/passage-flag/g)).toHaveLength(3);
    expect(flagged).toContain("<h2>N</h2>");
  });

  it("takes linear time on the largest content and on hostile shapes of it", () => {
    const size = 60_000;
    const shapes = {
      paragraphs: "Veta o dejinách.<br/><br/>".repeat(size / 26),
      lineBreaks: "<br/>".repeat(size / 5),
      spaces: `a${" ".repeat(size)}b`,
      blankLinesInBold: `<b>${"x<br/><br/>".repeat(size / 11)}</b>`,
      lists: "<ul><li>a</li></ul>".repeat(size / 19),
      tags: "<i>".repeat(size / 3),
    };
    for (const [shape, html] of Object.entries(shapes)) {
      const started = performance.now();
      const passages = splitPassages(html);
      const last = passages.at(-1)?.n;
      if (last) passageAt(html, last);
      passagesHtml(passages, (n) => `/posts/x/report?odsek=${n}`);
      // A quadratic pass over 60,000 characters takes seconds; this takes a few milliseconds.
      expect(performance.now() - started, shape).toBeLessThan(250);
    }
    expect(splitPassages(`${"Veta.<br/><br/>".repeat(4000)}`)).toHaveLength(4000);
  });
});
