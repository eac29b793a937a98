import { describe, expect, it } from "vitest";
import { ARTICLE_MAX_BYTES, DRAFT_TEXT_MAX_BYTES, REVISION_TEXT_MAX_BYTES, withinStoredBounds } from "~/lib/bounds";
import { CONTENT_STORED_MAX_BYTES, MAX_TAGS, TITLE_MAX_LENGTH, utf8Length } from "~/lib/rules";
import { readSources, SOURCE_TEXT_MAX_LENGTH, SOURCE_URL_MAX_LENGTH, SOURCES_MAX, type Source } from "~/lib/sources";
import { TAGS } from "~/lib/tags";

/** The sources that take most as stored: each reference of 3-byte characters, each link filled as stored. */
function worstSources(): Source[] {
  const link = "https://a.sk/?";
  const line = `${"€".repeat(SOURCE_TEXT_MAX_LENGTH)} ${link}${"x".repeat(SOURCE_URL_MAX_LENGTH - link.length)}`;
  const read = readSources(Array.from({ length: SOURCES_MAX }, () => line).join("\n"));
  if ("error" in read) throw new Error(read.error);
  return read.sources;
}

describe("the bounds of what an article stores", () => {
  it("are reached exactly by the largest article the rules allow", () => {
    expect(utf8Length(JSON.stringify(worstSources()))).toBe(ARTICLE_MAX_BYTES.sources);
    expect(utf8Length("€".repeat(TITLE_MAX_LENGTH))).toBe(ARTICLE_MAX_BYTES.title);
    const longestTags = [...TAGS].sort((a, b) => utf8Length(b) - utf8Length(a)).slice(0, MAX_TAGS);
    expect(utf8Length(JSON.stringify(longestTags))).toBe(ARTICLE_MAX_BYTES.tags);
    expect(ARTICLE_MAX_BYTES.content).toBe(CONTENT_STORED_MAX_BYTES);
  });

  it("add up to what docs/limits-and-security.md says a revision and a draft take at most", () => {
    expect(ARTICLE_MAX_BYTES).toEqual({ title: 270, content: 150_000, contentSource: 90_000, sources: 105_631, tags: 125, period: 300 });
    expect(REVISION_TEXT_MAX_BYTES).toBe(347_076);
    expect(DRAFT_TEXT_MAX_BYTES).toBe(316_475);
  });

  it("tell a revision stored before they held, which may not be restored", () => {
    const sources = worstSources();
    expect(withinStoredBounds({ content: "&amp;".repeat(30_000), sources })).toBe(true);
    expect(withinStoredBounds({ content: "&amp;".repeat(30_000) + "x", sources })).toBe(false);
    expect(withinStoredBounds({ content: "", sources: [{ text: "Kniha", url: `https://a.sk/${"%E2%82%AC".repeat(1_990)}` }] })).toBe(false);
    expect(withinStoredBounds({ content: "", sources: [...sources, sources[0]] })).toBe(false);
  });
});
