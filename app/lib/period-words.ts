/**
 * An article's time as words of the search index (post_texts.tags, migration
 * 0021), so that a search within a period (`/posts?q=…&century=9`) is one
 * more condition of the index's query, read as fast as a word. Before, each
 * match of the words was looked up in posts to see its period: a common word
 * in a century with few articles read every match (0.2 s at 100,000).
 *
 * The year an article's period starts in is four words: its millennium,
 * century, decade and year, counted so that each of the readers' centuries
 * (801–900) and millennia (1001–2000) is one word. A filter's years are the
 * fewest such spans that cover them: one word for a century, at most 72 for
 * any range. Like a tag's word, each begins with a private-use character, so
 * no word a reader types, nor its beginning, is one of them (~/lib/search).
 */

const MARK = "\uE001";
/** The spans, widest first, each named by a letter. */
const SPANS = [
  ["k", 1000],
  ["c", 100],
  ["d", 10],
  ["y", 1],
] as const;
/** Years are astronomical (1 BC is 0): 10,000 BC (−9999) is 0, 1 BC is 9999, AD 10,000 is 19,999. */
const FIRST_YEAR = -9_999;
const LAST_OFFSET = 19_999;

/** The year of a sort key (~/lib/time/periods momentKey: year × 10,000 + month × 100 + day), from 0 as the words count. */
const offsetOf = (key: number) => Math.min(LAST_OFFSET, Math.max(0, Math.floor(key / 10_000) - FIRST_YEAR));
const word = (letter: string, span: number, offset: number) => `${MARK}${letter}${Math.floor(offset / span)}`;

/** The words of an article whose period starts at sort key `periodStart`; none without a period. */
export function periodWords(periodStart: number | null): string[] {
  if (periodStart === null) return [];
  const offset = offsetOf(periodStart);
  return SPANS.map(([letter, span]) => word(letter, span, offset));
}

/** The fewest words that together name every year from the sort key `first` to `last` (~/lib/time/periods periodFilterKeys). */
export function periodWordsBetween({ first, last }: { first: number; last: number }): string[] {
  const words: string[] = [];
  for (let from = offsetOf(first), to = offsetOf(last); from <= to; ) {
    // The widest span that starts here and ends within the range; a year always does.
    const [letter, span] = SPANS.find(([, span]) => from % span === 0 && from + span - 1 <= to)!;
    words.push(word(letter, span, from));
    from += span;
  }
  return words;
}
