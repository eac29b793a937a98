import { periodWordsBetween } from "./period-words";

/**
 * Text as search compares it: lower case, without diacritics ("Štefánik"
 * and "stefanik" are the same). The database has the same function as
 * `fold()` (app/db/connection.server.ts).
 */
export function foldForSearch(text: string): string {
  // Printable ASCII has nothing to decompose: the fast way for most words of an excerpt.
  if (PRINTABLE_ASCII.test(text)) return text.toLowerCase();
  return text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
}
const PRINTABLE_ASCII = /^[ -~]*$/;

/** A LIKE pattern that finds `query` anywhere, with LIKE's wildcards in it taken literally (ESCAPE '\'). */
export function containsPattern(query: string): string {
  return `%${foldForSearch(query).replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Longest search the article list takes (longer input is cut). */
export const SEARCH_MAX_LENGTH = 100;
const MAX_TERMS = 6;
/**
 * A longer word is looked for by its first 8 letters: the index has every
 * prefix up to 8 letters (migration 0006), so each word is one lookup, and
 * Slovak words of one family share them ("Štefánikovi", "Štefánikova").
 */
const MAX_TERM_LENGTH = 8;
/** A word: letters (with any combining marks) and digits. */
const WORD = /[\p{L}\p{M}\p{N}]+/gu;

/**
 * The words of a search as the index compares them: folded, each at most 8
 * letters, at most 6 different ones. Only letters and digits survive, so no
 * input can reach the index's query syntax.
 */
export function searchTerms(query: string): string[] {
  const words = foldForSearch(query.slice(0, SEARCH_MAX_LENGTH)).match(WORD) ?? [];
  return [...new Set(words.map((word) => word.slice(0, MAX_TERM_LENGTH)))].slice(0, MAX_TERMS);
}

/**
 * A tag as one word of the index (post_texts.tags): "Česko-Slovensko" is
 * "\uE000ceskoslovensko". The index's tokenizer keeps a private-use character
 * in a word and no search word has one (searchTerms), so no word a reader
 * types, nor its beginning, is a tag's: else "ta" would read every tagged
 * article's entry to find it in none of their texts (20 ms at 100,000).
 */
export function tagToken(tag: string): string {
  return `\uE000${foldForSearch(tag).replace(/[^\p{L}\p{N}]/gu, "")}`;
}

/** The two FTS5 queries of a search, asked in turn (~/models/search.server): of the titles' index, then of the whole text's. */
export type SearchQueries = { inTitle: string; inText: string };

/**
 * The FTS5 queries of a search: every word (each as the beginning of a word,
 * "stefan" finds "Štefánikovi", except one-letter words, which must match
 * whole) in the title; else in the title and text together (the articles
 * the first found are among those, and are skipped). With a tag, only
 * articles that have it; with a period (its first and last sort keys,
 * ~/lib/time/periods periodFilterKeys), only articles whose period starts in it.
 */
export function searchQueries(terms: string[], tag: string | null, period: { first: number; last: number } | null = null): SearchQueries {
  const words = `(${terms.map((term) => (term.length > 1 ? `"${term}"*` : `"${term}"`)).join(" ")})`;
  const conditions = [
    ...(tag ? [`tags : "${tagToken(tag)}"`] : []),
    ...(period ? [`tags : (${periodWordsBetween(period).map((word) => `"${word}"`).join(" OR ")})`] : []),
  ];
  const narrowed = (expression: string) => [expression, ...conditions].join(" AND ");
  return { inTitle: narrowed(`title : ${words}`), inText: narrowed(`{title body} : ${words}`) };
}

function isMatch(word: string, terms: string[]): boolean {
  // An ASCII first letter folds to itself in lower case: a word no term begins so is not folded (most of a text's words).
  const first = word.charCodeAt(0) < 128 ? word[0].toLowerCase() : null;
  if (first !== null && !terms.some((term) => term[0] === first)) return false;
  const folded = foldForSearch(word);
  return terms.some((term) => (term.length > 1 ? folded.startsWith(term) : folded === term));
}

export type Segment = { text: string; mark: boolean };

/** `text` in pieces, the words a search matched marked (shown as <mark>; React escapes every piece). */
export function highlight(text: string, terms: string[]): Segment[] {
  const segments: Segment[] = [];
  let done = 0;
  for (const word of text.matchAll(WORD)) {
    if (!isMatch(word[0], terms)) continue;
    if (word.index > done) segments.push({ text: text.slice(done, word.index), mark: false });
    segments.push({ text: word[0], mark: true });
    done = word.index + word[0].length;
  }
  if (done < text.length) segments.push({ text: text.slice(done), mark: false });
  return segments;
}

/** How much of a text the excerpt of a search hit is looked for in (and read from the database). */
export const EXCERPT_SEARCH_LENGTH = 5_000;

/** About `length` characters of `text` from a little before its first matching word, cut between words, "…" where cut. */
export function excerptAround(text: string, terms: string[], length = 180): string {
  let first = 0;
  // Looked for near the beginning only, so that a long text matched by its title costs little.
  for (const word of text.slice(0, EXCERPT_SEARCH_LENGTH).matchAll(WORD)) {
    if (isMatch(word[0], terms)) {
      first = word.index;
      break;
    }
  }
  let start = Math.max(0, first - Math.floor(length / 4));
  if (start > 0) {
    const space = text.indexOf(" ", start);
    start = space === -1 || space >= first ? first : space + 1;
  }
  let end = Math.min(text.length, start + length);
  if (end < text.length) end = text.lastIndexOf(" ", end) > start ? text.lastIndexOf(" ", end) : end;
  return `${start > 0 ? "…" : ""}${text.slice(start, end).trim()}${end < text.length ? "…" : ""}`;
}
