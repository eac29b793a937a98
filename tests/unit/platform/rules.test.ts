import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { listHref, listSearch, postHref, readListState } from "~/lib/links";
import { cardColourClass, hasHiddenControls, isEmail, MAX_LIST_LIMIT, PAGE_SIZE, parseListLimit, showHiddenControls, typedText } from "~/lib/rules";
import { isTag, TAGS } from "~/lib/tags";

describe("parseListLimit", () => {
  it("defaults to one page", () => {
    expect(parseListLimit(null)).toBe(9);
    expect(parseListLimit("")).toBe(9);
    expect(parseListLimit("abc")).toBe(9);
    expect(parseListLimit("-18")).toBe(9);
    expect(parseListLimit("0")).toBe(9);
  });
  it("keeps whole pages and rounds others up to a page", () => {
    expect(parseListLimit("18")).toBe(18);
    expect(parseListLimit("27")).toBe(27);
    expect(parseListLimit("10")).toBe(18);
    expect(parseListLimit("90")).toBe(90);
  });
  it("clamps huge values", () => {
    expect(parseListLimit("100000000")).toBe(MAX_LIST_LIMIT);
    expect(parseListLimit("1e9")).toBe(PAGE_SIZE);
    expect(MAX_LIST_LIMIT % PAGE_SIZE).toBe(0);
  });
});

describe("card colours", () => {
  it("cycles through four classes by position", () => {
    expect([0, 1, 2, 3, 4, 5, 8].map(cardColourClass)).toEqual([
      "card-c0",
      "card-c1",
      "card-c2",
      "card-c3",
      "card-c0",
      "card-c1",
      "card-c0",
    ]);
  });
  it("gives the classes the spec's colours, in order", () => {
    const css = readFileSync("app/styles/app.css", "utf8");
    const colours = [0, 1, 2, 3].map((i) => css.match(new RegExp(`\\.card-c${i} \\{\\s*background: (#[0-9a-f]{6});`))?.[1]);
    expect(colours).toEqual(["#e0d6c2", "#8f8868", "#976c54", "#b5a38c"]);
  });
});

describe("tags", () => {
  it("has the spec's 30 tags in order", () => {
    expect(TAGS).toHaveLength(30);
    expect(TAGS[0]).toBe("Rímska ríša");
    expect(TAGS[8]).toBe("Napoleon / Napoleonské vojny");
    expect(TAGS[20]).toBe("Dejiny Janponska");
    expect(TAGS[29]).toBe("Ostatné");
    expect(new Set(TAGS).size).toBe(30);
  });
  it("recognises only those tags, exactly", () => {
    expect(isTag("Morava")).toBe(true);
    expect(isTag("morava")).toBe(false);
    expect(isTag("Morava ")).toBe(false);
    expect(isTag(null)).toBe(false);
    expect(isTag(["Morava"])).toBe(false);
  });
});

describe("list state and links", () => {
  it("reads tag and limit from a query", () => {
    expect(readListState(new URLSearchParams("tag=Morava&limit=18"))).toEqual({ tag: "Morava", limit: 18, q: "", period: null, unknownTag: null });
    expect(readListState(new URLSearchParams("tag=Atlantída"))).toEqual({ tag: null, limit: 9, q: "", period: null, unknownTag: "Atlantída" });
    expect(readListState(new URLSearchParams(""))).toEqual({ tag: null, limit: 9, q: "", period: null, unknownTag: null });
    // A search, trimmed and cut at 100 characters.
    expect(readListState(new URLSearchParams(`q=${encodeURIComponent(`  Štefánik ${"x".repeat(200)}`)}`)).q).toBe(`Štefánik ${"x".repeat(91)}`);
  });
  it("writes only what differs from the defaults", () => {
    expect(listSearch({ tag: null, limit: 9 })).toBe("");
    expect(listHref({ tag: null, limit: 18 })).toBe("/posts?limit=18");
    expect(listHref({ tag: "Napoleon / Napoleonské vojny", limit: 9 })).toBe(
      "/posts?tag=Napoleon+%2F+Napoleonsk%C3%A9+vojny",
    );
  });
  it("round-trips through the URL", () => {
    const state = { tag: "Dejiny Číny", limit: 27, q: "", period: null };
    expect(readListState(new URLSearchParams(listSearch(state)))).toEqual({ ...state, unknownTag: null });
    expect(postHref("a/b", state)).toBe("/posts/a%2Fb?tag=Dejiny+%C4%8C%C3%ADny&limit=27");
    const searched = { tag: null, limit: 18, q: "Štefánik & syn", period: null };
    expect(readListState(new URLSearchParams(listSearch(searched)))).toEqual({ ...searched, unknownTag: null });
    expect(listHref(searched)).toBe("/posts?q=%C5%A0tef%C3%A1nik+%26+syn&limit=18");
    // A period between the tag and the limit; a century, or a range of years (negative before Christ).
    for (const period of [{ century: -1 }, { from: -500, to: 476 }, { from: null, to: 1526 }]) {
      const dated = { tag: "Stredovek", limit: 18, q: "", period };
      expect(readListState(new URLSearchParams(listSearch(dated)))).toEqual({ ...dated, unknownTag: null });
    }
    expect(listHref({ tag: "Stredovek", limit: 18, period: { century: -1 } })).toBe("/posts?tag=Stredovek&century=-1&limit=18");
    expect(listHref({ tag: null, limit: 9, period: { from: -500, to: 476 } })).toBe("/posts?from=-500&to=476");
  });
});

describe("typed text", () => {
  it("counts a new line as one character, however the form sent it", () => {
    expect(typedText("a\r\nb\rc\nd")).toBe("a\nb\nc\nd");
    expect(typedText("x\r\n".repeat(10_000)).length).toBe(20_000);
  });
});

describe("hidden controls", () => {
  it("finds control characters and bidi marks, and writes them out visibly", () => {
    for (const text of ["a\tb", "a\u0000", "\u202eexe.gpj", "\u2066x\u2069", "a\u200fb", "\u009b"]) expect(hasHiddenControls(text), JSON.stringify(text)).toBe(true);
    for (const text of ["Štefánik", "Dejiny Číny – 20. storočie", "😀 emoji", "a b"]) expect(hasHiddenControls(text), text).toBe(false);
    expect(showHiddenControls("Evil\u001b[31m\u202e")).toBe("Evil\\u{1b}[31m\\u{202e}");
  });
  it("are no part of an e-mail address", () => {
    expect(isEmail("a@b.sk")).toBe(true);
    expect(isEmail("a\u202e@b.sk")).toBe(false);
    expect(isEmail("a\u0001@b.sk")).toBe(false);
  });
});
