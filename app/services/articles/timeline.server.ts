import { dayOfYear } from "~/lib/time/dates";
import { timelineAfterParam } from "~/lib/time/timeline-after";
import { CENTURY_LIMIT, centuryKeys, centuryOf, keyYear, periodFilterKeys, type PeriodFilter } from "~/lib/time/periods";
import type { PostCard } from "~/lib/types";
import { cardsInPeriod, cardsOnDay, firstDatedFrom, neighboursOf, timelineAfter, type Neighbour, type TimelineEntry } from "~/models/timeline.server";

/**
 * Time as a way in (~/lib/time/periods): the timeline's pages, a list filtered
 * by a period, an article's neighbours in time and "Na dnešný deň". Only
 * readable articles: the queries skip hidden ones, and drafts and deleted
 * articles are not articles (~/models/timeline.server).
 */

/** Articles on a page of the timeline. */
export const TIMELINE_PAGE_SIZE = 100;
/** A century with more articles than this on a page is divided into its decades. */
export const DENSE_CENTURY = 20;
/** "Na dnešný deň" shows at most this many articles. */
export const ON_THIS_DAY_LIMIT = 6;

/** The earliest key any period has, minus one. */
const BEFORE_ALL = centuryKeys(-CENTURY_LIMIT)[0] - 1;

/** Where a timeline page starts: a century (`?century=9`), or after an article (`?after=<key>.<id>`, the "Ďalej" link). */
export type TimelineStart = { century: number } | { after: { start: number; id: string } } | null;

export type TimelineGroup = { century: number; decades: { decade: number | null; entries: TimelineEntry[] }[] };

/**
 * The centuries that have readable articles, oldest first: one index seek
 * per century found (at most the 200 centuries a period may fall in), so
 * the cost does not grow with the number of articles.
 */
export function centuriesWithArticles(): number[] {
  const centuries: number[] = [];
  let from = BEFORE_ALL + 1;
  for (let found = firstDatedFrom(from); found !== undefined; found = firstDatedFrom(from)) {
    const century = centuryOf(keyYear(found));
    centuries.push(century);
    if (century === CENTURY_LIMIT) break;
    from = centuryKeys(century === -1 ? 1 : century + 1)[0];
  }
  return centuries;
}

/** A page of the timeline: its articles grouped by century (and by decade in a dense one), and where the next page starts. */
export function timelinePage(start: TimelineStart): { groups: TimelineGroup[]; next: string | null; centuries: number[] } {
  const place = !start ? { start: BEFORE_ALL, id: "" } : "century" in start ? { start: centuryKeys(start.century)[0], id: "" } : start.after;
  const rows = timelineAfter(place.start, place.id, TIMELINE_PAGE_SIZE + 1);
  const shown = rows.slice(0, TIMELINE_PAGE_SIZE);
  const next = rows.length > TIMELINE_PAGE_SIZE ? timelineAfterParam(shown[shown.length - 1]) : null;
  return { groups: grouped(shown), next, centuries: centuriesWithArticles() };
}

/** Entries in runs of the same key (they come in order, so each key's run is whole), in order. */
function runsBy(entries: TimelineEntry[], keyOf: (year: number) => number): [number, TimelineEntry[]][] {
  const runs = new Map<number, TimelineEntry[]>();
  for (const entry of entries) {
    const key = keyOf(keyYear(entry.periodStart));
    const run = runs.get(key) ?? [];
    run.push(entry);
    runs.set(key, run);
  }
  return [...runs];
}

function grouped(entries: TimelineEntry[]): TimelineGroup[] {
  return runsBy(entries, centuryOf).map(([century, list]) => ({
    century,
    decades: list.length > DENSE_CENTURY ? runsBy(list, decadeOf).map(([decade, run]) => ({ decade, entries: run })) : [{ decade: null, entries: list }],
  }));
}

/** A decade as the first astronomical year of its ten (1920 for 1920–1929; −98 for 99–90 BC). */
function decadeOf(year: number): number {
  return year > 0 ? Math.floor(year / 10) * 10 : 1 - (Math.floor((1 - year) / 10) * 10 + 9);
}

/** Up to `limit` cards of a period (and a tag), oldest first, and the id of the one after them. */
export function listPeriod(filter: PeriodFilter, tag: string | null, limit: number): { posts: PostCard[]; next: string | null } {
  const rows = cardsInPeriod(periodFilterKeys(filter), tag, limit + 1);
  return { posts: rows.slice(0, limit), next: rows[limit]?.id ?? null };
}

/** The dated articles right before and after an article in time ("Predtým" / "Potom"); null when it has no period. */
export function articleNeighbours(post: { id: string; periodStart: number | null }): { before: Neighbour | null; after: Neighbour | null } | null {
  return post.periodStart === null ? null : neighboursOf(post.periodStart, post.id);
}

/** The articles whose precise date falls on today's day and month in Europe/Bratislava ("Na dnešný deň"). */
export function onThisDay(now = Date.now()): PostCard[] {
  return cardsOnDay(dayOfYear(now), ON_THIS_DAY_LIMIT);
}
