import { describe, expect, it } from "vitest";
import { contentToText, excerptOf } from "~/lib/text/content-text";
import { checkForm, EDIT_POST_FIELDS, editPostSchema, formProblem } from "~/lib/forms";
import { POST_MESSAGES } from "~/lib/rules";
import { linkCitations, readSources, SOURCE_MESSAGES, SOURCE_TEXT_MAX_LENGTH, SOURCE_URL_MAX_LENGTH, SOURCES_MAX, sourcesToTyped, sourcesWithinBounds, storedLinkLength } from "~/lib/sources";
import { escapeXml } from "~/lib/xml";

describe("reading the sources an author typed", () => {
  it("takes one per line, with an http(s) link at its end if there is one; blank lines do not count", () => {
    const typed = [
      "  Kováč, D.: Dejiny Slovenska. Praha 1998.  ",
      "",
      "Slovenský národný archív, fond Štefánik https://www.minv.sk/?archiv&x=1",
      "https://sk.wikipedia.org/wiki/Milan_Rastislav_%C5%A0tef%C3%A1nik",
      "Listina z roku 1237 ftp://archiv.sk/listina",
    ].join("\n");
    expect(readSources(typed)).toEqual({
      sources: [
        { text: "Kováč, D.: Dejiny Slovenska. Praha 1998.", url: null },
        { text: "Slovenský národný archív, fond Štefánik", url: "https://www.minv.sk/?archiv&x=1" },
        { text: "https://sk.wikipedia.org/wiki/Milan_Rastislav_%C5%A0tef%C3%A1nik", url: "https://sk.wikipedia.org/wiki/Milan_Rastislav_%C5%A0tef%C3%A1nik" },
        // Only http(s) is a link; anything else stays text (and is shown as text).
        { text: "Listina z roku 1237 ftp://archiv.sk/listina", url: null },
      ],
    });
    expect(readSources("")).toEqual({ sources: [] });
    expect(readSources("\n \n")).toEqual({ sources: [] });
  });

  it("says which source breaks which rule", () => {
    expect(readSources(Array.from({ length: SOURCES_MAX + 1 }, (_, i) => `Zdroj ${i}`).join("\n"))).toEqual({ error: SOURCE_MESSAGES.tooMany });
    expect(readSources(Array.from({ length: SOURCES_MAX }, (_, i) => `Zdroj ${i}`).join("\n"))).not.toHaveProperty("error");
    expect(readSources(`Prvý\n${"x".repeat(501)}`)).toEqual({ error: SOURCE_MESSAGES.tooLong(2) });
    expect(readSources(`${"x".repeat(500)} https://a.sk`)).not.toHaveProperty("error");
    expect(readSources("Kniha https://")).toEqual({ error: SOURCE_MESSAGES.badLink(1) });
    expect(readSources("Kniha http://exa mple")).not.toHaveProperty("error");
    expect(readSources(`Kniha https://a.sk/${"x".repeat(2_000)}`)).toEqual({ error: SOURCE_MESSAGES.linkTooLong(1) });
    expect(readSources("Skrytý\u202eznak")).toEqual({ error: SOURCE_MESSAGES.controls(1) });
    expect(readSources("x\n".repeat(100_000))).toEqual({ error: SOURCE_MESSAGES.tooMany });
  });

  it("bounds a link as it is stored: percent-encoded, the host in punycode, in JSON", () => {
    const link = (path: string) => `https://a.sk/${path}`;
    // 2,000 characters typed and stored.
    const ascii = link("x".repeat(SOURCE_URL_MAX_LENGTH - link("").length));
    expect(readSources(`Kniha ${ascii}`)).toEqual({ sources: [{ text: "Kniha", url: ascii }] });
    // "€" is typed as one character and stored as the nine of %E2%82%AC: after "https://a.sk/", 220 of them and 7 more characters fill it.
    const fits = link("€".repeat(220)) + "x".repeat(SOURCE_URL_MAX_LENGTH - link("").length - 9 * 220);
    const read = readSources(`Kniha ${fits}`);
    expect("sources" in read && read.sources[0].url!.length).toBe(SOURCE_URL_MAX_LENGTH);
    expect(readSources(`Kniha ${fits}€`)).toEqual({ error: SOURCE_MESSAGES.linkTooLong(1) });
    expect(readSources(`Prvý\nKniha ${link("€".repeat(1_990))}`)).toEqual({ error: SOURCE_MESSAGES.linkTooLong(2) });
    // A backslash stays one in a query and is written as two in JSON.
    const slashes = link(`?${"\\".repeat(1_000)}`);
    expect(slashes.length).toBeLessThan(SOURCE_URL_MAX_LENGTH);
    expect(storedLinkLength(new URL(slashes).href)).toBeGreaterThan(SOURCE_URL_MAX_LENGTH);
    expect(readSources(`Kniha ${slashes}`)).toEqual({ error: SOURCE_MESSAGES.linkTooLong(1) });
    // A host outside ASCII is stored in punycode.
    expect(readSources("Kniha https://€€€.sk/")).toEqual({ sources: [{ text: "Kniha", url: "https://xn--lzgaa.sk/" }] });
  });

  it("keeps every source, as stored, within its bounds: each link's JSON at most SOURCE_URL_MAX_LENGTH, each reference SOURCE_TEXT_MAX_LENGTH", () => {
    const worst = Array.from({ length: SOURCES_MAX }, (_, i) => `${"€".repeat(SOURCE_TEXT_MAX_LENGTH)} https://a.sk/${"€".repeat(i * 7)}`).join("\n");
    const read = readSources(worst);
    expect(read).not.toHaveProperty("error");
    if ("error" in read) return;
    expect(sourcesWithinBounds(read.sources)).toBe(true);
    for (const { text, url } of read.sources) {
      expect(text.length).toBeLessThanOrEqual(SOURCE_TEXT_MAX_LENGTH);
      expect(JSON.stringify(url).length - 2).toBeLessThanOrEqual(SOURCE_URL_MAX_LENGTH);
    }
    // Stored before these bounds held: a link of 17,928 characters, 31 sources.
    expect(sourcesWithinBounds([{ text: "Kniha", url: `https://a.sk/${"%E2%82%AC".repeat(1_990)}` }])).toBe(false);
    expect(sourcesWithinBounds(Array.from({ length: SOURCES_MAX + 1 }, () => ({ text: "Kniha", url: null })))).toBe(false);
  });

  it("gives the stored sources back as the author typed them", () => {
    const typed = "Kniha\nČlánok https://a.sk/\nhttps://b.sk/";
    const read = readSources(typed);
    expect("sources" in read && sourcesToTyped(read.sources)).toBe(typed);
  });

  it("is one of the edit form's rules, optional, with its own message", () => {
    const form = (sources?: string) => {
      const data = new FormData();
      data.set("title", "Nadpis");
      data.set("content", "Text [1]");
      if (sources !== undefined) data.set("sources", sources);
      return checkForm(editPostSchema, data);
    };
    expect(form()).toMatchObject({ ok: true, value: { sources: "" } });
    expect(form("Kniha\r\nČlánok")).toMatchObject({ ok: true, value: { sources: "Kniha\nČlánok" } });
    const refused = form("Kniha javascript:alert(1) https://");
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(formProblem(refused.errors, EDIT_POST_FIELDS, POST_MESSAGES.emptyEdit)).toEqual({ message: SOURCE_MESSAGES.badLink(1), invalid: ["sources"] });
  });
});

describe("markers in the text", () => {
  it("link [n] to the nth source, the first mention of each with the id its source links back to", () => {
    const { html, mentioned } = linkCitations("Prvé [1], druhé [2] a znova [1]. Bez zdroja [3], [0] a [x].", 2);
    expect(html).toBe(
      'Prvé <sup class="citation"><a href="#zdroj-1" id="zmienka-1" aria-label="Zdroj č. 1">[1]</a></sup>, ' +
        'druhé <sup class="citation"><a href="#zdroj-2" id="zmienka-2" aria-label="Zdroj č. 2">[2]</a></sup> a znova ' +
        '<sup class="citation"><a href="#zdroj-1" aria-label="Zdroj č. 1">[1]</a></sup>. Bez zdroja [3], [0] a [x].',
    );
    expect([...mentioned]).toEqual([1, 2]);
  });

  it("touch only text: never a tag's attribute, nor text inside a link", () => {
    const stored = '<a href="https://a.sk/[1]" rel="nofollow ugc noopener">odkaz [1]</a> a <b>tučné [1]</b>';
    expect(linkCitations(stored, 1).html).toBe(
      '<a href="https://a.sk/[1]" rel="nofollow ugc noopener">odkaz [1]</a> a <b>tučné <sup class="citation"><a href="#zdroj-1" id="zmienka-1" aria-label="Zdroj č. 1">[1]</a></sup></b>',
    );
    expect(linkCitations("Text [1]", 0)).toEqual({ html: "Text [1]", mentioned: new Set() });
  });

  it("never reach the cards' excerpts or the search's text", () => {
    expect(contentToText("Bitka [1] pri Moháči [2].<br/>Koniec[12]")).toBe("Bitka pri Moháči. Koniec");
    expect(excerptOf("Bitka [1] pri Moháči.")).toBe("Bitka pri Moháči.");
  });
});

describe("text in XML (feeds, sitemap)", () => {
  it("is escaped, and loses what no XML document may contain", () => {
    expect(escapeXml(`a<b>&"c'`)).toBe("a&lt;b&gt;&amp;&quot;c&apos;");
    expect(escapeXml("zvonček\u0007 a\u0000 tab\tnový\nriadok \uFFFE \uD800x 😀")).toBe("zvonček a tab\tnový\nriadok  x 😀");
  });
});
