/**
 * What one article may take where it is kept and where it is sent: in the
 * database (its row, each revision, a draft) and in a feed. Every limit an
 * author is told counts the field as it is stored — sanitised, normalised,
 * percent-encoded — so in UTF-8, as SQLite keeps text, a character takes at
 * most 3 bytes (one outside ASCII 2 or 3, a pair of surrogates 4 for its
 * two; JSON's `\"` and `\\` 2). The text alone is bounded in bytes
 * (CONTENT_STORED_MAX_BYTES). The figures of docs/limits-and-security.md
 * ("What an article may cost on disk") and docs/reading.md are made of these, and tests hold the database and
 * the feeds to them.
 */
import { PERIOD_MAX_LENGTH } from "~/lib/time/periods";
import { CONTENT_MAX_LENGTH, CONTENT_STORED_MAX_BYTES, DISPLAY_NAME_MAX_LENGTH, MAX_TAGS, SUMMARY_MAX_LENGTH, TITLE_MAX_LENGTH, utf8Length } from "./rules";
import { SOURCE_TEXT_MAX_LENGTH, SOURCE_URL_MAX_LENGTH, SOURCES_FIELD_MAX_LENGTH, SOURCES_MAX, sourcesWithinBounds, type Source } from "./sources";
import { TAGS } from "./tags";

const bytes = (characters: number) => 3 * characters;

/** One source in the JSON of `sources`: its reference as typed, its link (ASCII once normalised) as stored. */
const SOURCE_JSON_MAX_BYTES = '{"text":"","url":""}'.length + bytes(SOURCE_TEXT_MAX_LENGTH) + SOURCE_URL_MAX_LENGTH;

/** The JSON list of the five longest tags. */
const TAGS_JSON_MAX_BYTES = utf8Length(JSON.stringify([...TAGS].sort((a, b) => utf8Length(b) - utf8Length(a)).slice(0, MAX_TAGS)));

/** The most bytes each text column of an article (`posts`, and each of its `revisions`) takes. */
export const ARTICLE_MAX_BYTES = {
  title: bytes(TITLE_MAX_LENGTH),
  content: CONTENT_STORED_MAX_BYTES,
  /** The text as written (Markdown), as typed. */
  contentSource: bytes(CONTENT_MAX_LENGTH),
  sources: "[]".length + SOURCES_MAX * SOURCE_JSON_MAX_BYTES + (SOURCES_MAX - 1),
  tags: TAGS_JSON_MAX_BYTES,
  period: bytes(PERIOD_MAX_LENGTH),
} as const;

/** A revision's text columns: the article's, the editor's name and "Čo ste zmenili?". */
export const REVISION_TEXT_MAX_BYTES =
  Object.values(ARTICLE_MAX_BYTES).reduce((sum, n) => sum + n, 0) + bytes(DISPLAY_NAME_MAX_LENGTH) + bytes(SUMMARY_MAX_LENGTH);

/** A draft's text columns, each kept as typed within the forms' limits (the sources as the whole field). */
export const DRAFT_TEXT_MAX_BYTES = bytes(TITLE_MAX_LENGTH + CONTENT_MAX_LENGTH + SOURCES_FIELD_MAX_LENGTH + SUMMARY_MAX_LENGTH + PERIOD_MAX_LENGTH) + TAGS_JSON_MAX_BYTES;

/** Whether stored content and sources keep these bounds: a revision saved before they held may not (restoring it would copy it). */
export function withinStoredBounds({ content, sources }: { content: string; sources: Source[] }): boolean {
  return utf8Length(content) <= CONTENT_STORED_MAX_BYTES && sourcesWithinBounds(sources);
}

// ---------------------------------------------------------------- feeds

/** How many articles a feed carries. */
export const FEED_SIZE = 20;
/**
 * Most bytes of an entry's `<content>` as the feed sends it (the article's
 * HTML escaped once more as XML): an article that fits is sent whole, with
 * its sources; a longer one as its image, the leading paragraphs that fit
 * and a link to the rest.
 */
export const FEED_CONTENT_MAX_BYTES = 16_384;
/** A first paragraph too long to fit is cut to this many characters of plain text (at most 11 bytes each in the feed: '"' is "&amp;quot;"). */
export const FEED_LEAD_LENGTH = 1_000;
/**
 * Most bytes of one whole `<entry>`: its content and the rest (title,
 * excerpt, author, tags, dates: at most about 2.5 KB) with its two
 * addresses (a PUBLIC_URL of up to 700 characters fits).
 */
export const FEED_ENTRY_MAX_BYTES = FEED_CONTENT_MAX_BYTES + 4_096;
/** A whole feed: its entries and its head (title, addresses, dates). */
export const FEED_MAX_BYTES = FEED_SIZE * FEED_ENTRY_MAX_BYTES + 2_048;
