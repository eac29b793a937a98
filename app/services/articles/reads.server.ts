import { env } from "~/config/env.server";
import type { CurrentUser } from "~/lib/types";
import { siteDay } from "~/lib/time/dates";
import { postState } from "~/models/posts.server";
import type { ArticleReads } from "~/lib/reads";
import { addReads, authorOfPost, mostReadPosts, readsOfPosts, readsOfSite, type MostRead, type ReadBatch } from "~/models/reads.server";
import { knownSessionUser, sessionOfCookie } from "~/services/platform/session.server";

/**
 * Reads of articles (docs/reading.md#reads): how many times each article's
 * page was opened each day, counted in memory and written in batches. The
 * HTTP server decides which requests are reads (server/reads.ts) and hands
 * over the article's id and the Cookie header, nothing else: no address,
 * no user, no cookie is kept or set.
 */

type CounterOptions = {
  /** Writes a batch in one transaction; with `today`, also forgets the days no longer kept (addReads). */
  write: (batch: ReadBatch, today?: number) => void;
  /** Whether an id is an article shown to everyone: asked once per article and batch, so only real articles take room. */
  isShown: (postId: string) => boolean;
  /** How long the first count of a batch waits before the batch is written. */
  intervalMs: number;
  now?: () => number;
  /** The day a moment falls on (siteDay: Europe/Bratislava). */
  dayOf?: (ms: number) => number;
  /** A batch that could not be written (a full disk): said here, and dropped. */
  onError?: (error: unknown) => void;
};

export type ReadCounter = ReturnType<typeof createReadCounter>;

/**
 * Counts in memory, O(1) a read: a Map of article id → count for the
 * current day. The first count of a batch sets a timer; when it fires (or
 * at `flush`), the whole batch is written in one transaction and the
 * counter starts empty. A map holds at most one entry per article shown
 * (an id is taken only after `isShown` said yes), and a batch at most two
 * days' maps (the interval is at most an hour), however many ids a client
 * makes up.
 */
export function createReadCounter({ write, isShown, intervalMs, now = Date.now, dayOf = siteDay, onError = () => {} }: CounterOptions) {
  let current: { day: number; counts: Map<string, number> } = { day: NaN, counts: new Map() };
  /** Maps of days that ended before the batch was written. */
  let ended: ReadBatch = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  let prunedOn: number | undefined;
  let closed = false;

  function flush(): void {
    clearTimeout(timer);
    timer = undefined;
    const batch = current.counts.size > 0 ? [...ended, current] : ended;
    ended = [];
    current = { day: current.day, counts: new Map() };
    if (batch.length === 0) return;
    const today = dayOf(now());
    try {
      // Days past those kept are forgotten with the first batch of each day.
      write(batch, prunedOn === today ? undefined : today);
      prunedOn = today;
    } catch (error) {
      onError(error);
    }
  }

  return {
    /** One read of article `postId` (an id no article shown has is not counted). */
    count(postId: string): void {
      if (closed) return;
      const day = dayOf(now());
      if (day !== current.day) {
        if (current.counts.size > 0) ended.push(current);
        current = { day, counts: new Map() };
      }
      const counts = current.counts;
      const n = counts.get(postId);
      if (n !== undefined) {
        counts.set(postId, n + 1);
        return;
      }
      if (!isShown(postId)) return;
      counts.set(postId, 1);
      timer ??= setTimeout(flush, intervalMs);
      // Waiting counts never keep a process alive: the server writes them when it stops.
      timer.unref?.();
    },
    /** Write what was counted now, in one transaction. */
    flush,
    /** The last batch written; nothing is counted after. */
    close(): void {
      flush();
      closed = true;
    },
    /** How many article-days wait in memory. */
    waiting(): number {
      return ended.reduce((sum, { counts }) => sum + counts.size, current.counts.size);
    },
  };
}

/** The site's counter; none on a read-only replica, which writes nothing (its reads are not counted). */
const counter = env.readOnly
  ? null
  : createReadCounter({
      write: addReads,
      isShown: (postId) => postState(postId) === "shown",
      intervalMs: env.readsFlushMs,
      onError: (error) => console.error("Counted reads could not be written; this batch of counts is lost.", error),
    });

/** Whether a reader's read counts: a visitor's, or a signed-in reader's of someone else's article; never an admin's. */
function counts(user: CurrentUser | null, postId: string): boolean {
  return user === null || (!user.isAdmin && authorOfPost(postId) !== user.id);
}

/**
 * A read of article `postId`, by the reader the Cookie header names (a
 * request the HTTP server judged a read: server/reads.ts). Its author's own
 * reads and admins' are not counted. A promise only when the session had
 * to be looked up. `databaseVersion`: as for the server's other session
 * lookups (app/server-interface.server.ts), so a known session costs no query.
 */
export function noteRead(postId: string, cookieHeader: string | undefined, databaseVersion: () => string): void | Promise<void> {
  if (!counter) return;
  if (!cookieHeader?.includes("dejiny_session=")) return counter.count(postId);
  const known = knownSessionUser(cookieHeader, databaseVersion);
  if (known !== undefined) {
    if (counts(known, postId)) counter.count(postId);
    return;
  }
  return sessionOfCookie(cookieHeader, databaseVersion).then((session) => {
    if (counts(session?.user ?? null, postId)) counter.count(postId);
  });
}

/** Write the counted reads now, and count no more: the server is stopping. */
export function closeReads(): void {
  counter?.close();
}

/** The written reads of these articles in the last 7 and 30 days (an author's page of them), 0 for one nobody read. */
export function readsOf(postIds: string[]): Record<string, ArticleReads> {
  const found = readsOfPosts(postIds, siteDay(Date.now()));
  return Object.fromEntries(postIds.map((id) => [id, found.get(id) ?? { week: 0, month: 0 }]));
}

/** The site's written reads in the last 7 and 30 days, and its `limit` most read articles of one of the two (`by`). */
export function siteReads(by: keyof ArticleReads, limit: number): { total: ArticleReads; mostRead: MostRead[] } {
  const today = siteDay(Date.now());
  return { total: readsOfSite(today), mostRead: mostReadPosts(today, by, limit) };
}
