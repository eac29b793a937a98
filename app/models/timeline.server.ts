import type { PostCard } from "~/lib/types";
import { sqlite } from "~/db/connection.server";

/**
 * Articles in historical order (~/lib/time/periods): the timeline, a period's
 * articles in the list, an article's neighbours in time and "Na dnešný
 * deň". Each query is one range of posts_period_idx or posts_period_day_idx
 * (tests/unit/articles/query-plans.test.ts), walked in order and stopped after
 * `limit` rows, so it costs the same at a hundred articles and at a hundred
 * thousand. A hidden article is skipped as the index is walked (they are
 * few); drafts and deleted articles are not in `posts` at all.
 */

const CARD = "p.id, p.title, p.excerpt, p.image, p.image_width AS imageWidth, p.image_height AS imageHeight, p.period";
const READABLE = "p.hidden_at IS NULL";

/** The SQL of this module, exported for tests/unit/articles/query-plans.test.ts. */
export const timelineQueries = {
  // From a place in time on (its key and the id after which to start), oldest first.
  entries: `
  SELECT p.id, p.title, p.period, p.period_start AS periodStart FROM posts p
  WHERE p.period_start >= :start AND (p.period_start > :start OR p.id > :id) AND ${READABLE}
  ORDER BY p.period_start, p.id LIMIT :limit`,
  // The first readable article at or after a key: the centuries that have articles, one seek each.
  firstFrom: `SELECT p.period_start FROM posts p WHERE p.period_start >= :start AND ${READABLE} ORDER BY p.period_start, p.id LIMIT 1`,
  // A period's articles as cards, oldest first.
  cardsBetween: `
  SELECT ${CARD} FROM posts p
  WHERE p.period_start BETWEEN :first AND :last AND ${READABLE}
  ORDER BY p.period_start, p.id LIMIT :limit`,
  // The same with a tag: the tag is a primary-key lookup of each article in the range.
  cardsBetweenWithTag: `
  SELECT ${CARD} FROM posts p
  WHERE p.period_start BETWEEN :first AND :last AND ${READABLE}
    AND EXISTS (SELECT 1 FROM post_tags t WHERE t.post_id = p.id AND t.tag = :tag)
  ORDER BY p.period_start, p.id LIMIT :limit`,
  before: `
  SELECT p.id, p.title, p.period FROM posts p
  WHERE p.period_start <= :start AND (p.period_start < :start OR p.id < :id) AND ${READABLE}
  ORDER BY p.period_start DESC, p.id DESC LIMIT 1`,
  after: `
  SELECT p.id, p.title, p.period FROM posts p
  WHERE p.period_start >= :start AND (p.period_start > :start OR p.id > :id) AND ${READABLE}
  ORDER BY p.period_start, p.id LIMIT 1`,
  onDay: `
  SELECT ${CARD} FROM posts p
  WHERE p.period_day = :day AND ${READABLE}
  ORDER BY p.period_start, p.id LIMIT :limit`,
};

export type TimelineEntry = { id: string; title: string; period: string; periodStart: number };
export type Neighbour = { id: string; title: string; period: string };

const entries = sqlite.prepare<{ start: number; id: string; limit: number }, TimelineEntry>(timelineQueries.entries);
const firstFrom = sqlite.prepare<{ start: number }, number>(timelineQueries.firstFrom).pluck();
const cardsBetween = sqlite.prepare<{ first: number; last: number; limit: number }, PostCard>(timelineQueries.cardsBetween);
const cardsBetweenWithTag = sqlite.prepare<{ first: number; last: number; tag: string; limit: number }, PostCard>(timelineQueries.cardsBetweenWithTag);
const before = sqlite.prepare<{ start: number; id: string }, Neighbour>(timelineQueries.before);
const after = sqlite.prepare<{ start: number; id: string }, Neighbour>(timelineQueries.after);
const onDay = sqlite.prepare<{ day: number; limit: number }, PostCard>(timelineQueries.onDay);

/** Up to `limit` dated articles after the place (`start`, `id`) in time, oldest first. */
export function timelineAfter(start: number, id: string, limit: number): TimelineEntry[] {
  return entries.all({ start, id, limit });
}

/** The sort key of the first readable dated article at or after `start`, if any. */
export function firstDatedFrom(start: number): number | undefined {
  return firstFrom.get({ start });
}

/** Up to `limit` articles whose period starts between two keys (optionally with a tag), oldest first. */
export function cardsInPeriod(range: { first: number; last: number }, tag: string | null, limit: number): PostCard[] {
  return tag ? cardsBetweenWithTag.all({ ...range, tag, limit }) : cardsBetween.all({ ...range, limit });
}

/** The readable dated articles right before and right after one place in time. */
export function neighboursOf(start: number, id: string): { before: Neighbour | null; after: Neighbour | null } {
  return { before: before.get({ start, id }) ?? null, after: after.get({ start, id }) ?? null };
}

/** Up to `limit` articles whose precise date falls on a day of the year (month × 100 + day), oldest first. */
export function cardsOnDay(day: number, limit: number): PostCard[] {
  return onDay.all({ day, limit });
}
