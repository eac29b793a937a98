/** Reads of an article (how many times its page was opened): the periods the pages show, and their words. */

/** The periods shown, in days, today included: "za 7 dní", "za 30 dní". */
export const READ_WINDOWS = { week: 7, month: 30 } as const;

/** Days of counts kept: the longest period and one more, so that the day just ended is whole until its last batch is in. */
export const READS_KEPT_DAYS = READ_WINDOWS.month + 1;

/** An article's reads in the last 7 and 30 days. */
export type ArticleReads = { week: number; month: number };

/** "1 prečítanie", "3 prečítania", "12 prečítaní" (and "0 prečítaní"). */
export function readCount(n: number): string {
  return `${n} ${n === 1 ? "prečítanie" : n >= 2 && n <= 4 ? "prečítania" : "prečítaní"}`;
}

/**
 * "12 prečítaní za 7 dní · 40 za 30 dní"; "Za 30 dní žiadne prečítanie"
 * when nobody read it. Each part holds together (no-break spaces): a
 * narrow screen breaks the line only between them.
 */
export function readsSentence({ week, month }: ArticleReads): string {
  const together = (words: string) => words.replaceAll(" ", "\u00a0");
  if (month === 0) return together(`Za ${READ_WINDOWS.month} dní žiadne prečítanie`);
  return `${together(`${readCount(week)} za ${READ_WINDOWS.week} dní`)} · ${together(`${month} za ${READ_WINDOWS.month} dní`)}`;
}
