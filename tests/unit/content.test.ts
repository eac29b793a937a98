import { describe, expect, it } from "vitest";
import { contentToText, excerptOf, sanitizeContent, toStoredContent } from "~/services/content.server";

describe("sanitizeContent", () => {
  it("keeps the allowed tags and drops every attribute", async () => {
    expect(await sanitizeContent('<p class="x"><b>a</b> <i>b</i> <em>c</em> <strong>d</strong> <a href="https://x.sk" title="t">e</a></p>')).toBe(
      "<p><b>a</b> <i>b</i> <em>c</em> <strong>d</strong> <a>e</a></p>",
    );
  });
  it("removes scripts, handlers and javascript: URLs", async () => {
    const dirty = [
      "<script>alert(1)</script>ok",
      '<img src=x onerror="alert(1)">',
      '<a href="javascript:alert(1)">x</a>',
      '<svg onload="alert(1)"><circle/></svg>',
      '<iframe src="https://evil.example"></iframe>',
      "<style>body{}</style>",
      '<p onclick="alert(1)">p</p>',
    ].join("");
    const clean = await sanitizeContent(dirty);
    expect(clean).not.toMatch(/<script|onerror|onload|onclick|javascript:|<img|<svg|<iframe|<style/i);
    expect(clean).toContain("ok");
  });
  it("keeps other tags' text but not the tags", async () => {
    expect(await sanitizeContent("<h1>Nadpis</h1><div>text</div>")).toBe("Nadpistext");
  });
  it("writes line breaks as <br/>", async () => {
    expect(await sanitizeContent("a<br>b<BR />c")).toBe("a<br/>b<br/>c");
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
