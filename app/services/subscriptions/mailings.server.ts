import { randomBytes } from "node:crypto";
import { inTransaction } from "~/db/connection.server";
import { digestDueAt } from "~/lib/subscriptions";
import {
  getMailing,
  insertMailing,
  insertNewsletterMails,
  lastDigest,
  noteQueued,
  subscribersFollowing,
  unqueuedMailingIds,
  type Mailing,
  type Topics,
} from "~/models/subscription-mailings.server";
import { onNewArticle } from "~/services/articles/new-articles.server";
import { outboxMailId } from "~/services/platform/mail-outbox.server";
import { articlesForMail, digestArticles } from "./newsletter-mail.server";
import { startNewsletterSender, wakeNewsletterSender } from "./newsletter-sender.server";

/**
 * What subscribers are mailed, and when (docs/subscriptions.md):
 *
 * - a new article, once: its mailing is written in the transaction that
 *   publishes it (so a crash cannot lose it), and an edit, a restored
 *   revision or an article shown again after it was hidden makes none;
 * - a weekly digest, on Monday morning, of the articles announced since
 *   the digest before.
 *
 * A mailing's mails are queued in the background, CHUNK subscribers per
 * transaction with a pause as long as the chunk took between them, so readers'
 * requests are not held up, and a restart goes on from the last chunk.
 * The mails themselves are made when their batch is first handed over
 * (newsletter-mail.server.ts).
 */

const DAY = 24 * 60 * 60 * 1000;
const WEEK = 7 * DAY;
/** Subscribers a chunk queues: a few milliseconds of the event loop (the benchmark measures it). */
const CHUNK = 200;
/** A pass that failed (a full disk, a busy database) goes on this much later, from where it stopped. */
const QUEUE_RETRY_MS = 60 * 1000;

/** A subscription's mail not sent within a day (the mail service down all that time) is news no more. */
const SEND_WITHIN_MS = DAY;

const mailingId = () => randomBytes(12).toString("base64url");

/** A newly published article is to be announced: inside the transaction that publishes it (new-articles.server.ts). */
function announceArticle(postId: string, now: number): void {
  insertMailing({ id: mailingId(), kind: "article", postId, createdAt: now });
  // After the publishing transaction has committed.
  setImmediate(queueMailingsSoon);
}

/** The week's digest, unless it has been made: checked at start and hourly. */
export function queueDigestIfDue(now = Date.now()): void {
  const last = lastDigest();
  if (last && last.createdAt >= digestDueAt(now)) return;
  queueDigest(now, last);
}

/** A digest now, of the articles announced since the last one (an admin's button): the next weekly one goes on from here. */
export function queueDigestNow(now = Date.now()): void {
  queueDigest(now, lastDigest());
}

function queueDigest(now: number, last: Mailing | undefined): void {
  insertMailing({ id: mailingId(), kind: "digest", periodStart: last?.createdAt ?? now - WEEK, createdAt: now });
  queueMailingsSoon();
}

let queueing: Promise<void> | undefined;
let again = false;

/** Queue the mails of every mailing not yet queued, in the background; one pass at a time. */
function queueMailingsSoon(): void {
  if (queueing) {
    again = true;
    return;
  }
  queueing = queueAll()
    .catch((error) => {
      console.error("Subscriptions: could not queue the mails of a mailing; trying again in a minute", error);
      setTimeout(queueMailingsSoon, QUEUE_RETRY_MS).unref();
    })
    .finally(() => {
      queueing = undefined;
      if (again) {
        again = false;
        queueMailingsSoon();
      }
    });
}

async function queueAll(): Promise<void> {
  for (const id of unqueuedMailingIds()) {
    // Who it goes to is read once a pass, not once a chunk (a digest's audience reads up to 300 articles); what is no longer public is left out when the mails are made.
    const mailing = getMailing(id);
    const audience = mailing ? audienceOf(mailing) : null;
    for (;;) {
      const started = performance.now();
      if (!queueChunk(id, audience, Date.now())) break;
      // Readers' requests go between two chunks, with at least the time the chunk took: the pass takes at most half the server (and the sender waits for its end).
      await new Promise((resolve) => setTimeout(resolve, Math.max(1, performance.now() - started)));
    }
    wakeNewsletterSender();
  }
}

/** Queue the next CHUNK mails of a mailing to `audience` (none: it is done); true when more may remain. */
function queueChunk(id: string, audience: ReturnType<typeof audienceOf>, now: number): boolean {
  return inTransaction(() => {
    const mailing = getMailing(id);
    if (!mailing || mailing.queuedAt !== null) return false;
    const ids = audience ? subscribersFollowing(audience.frequency, audience.topics, mailing.queuedThrough, CHUNK) : [];
    insertNewsletterMails(ids.map((subscriberId) => ({ id: outboxMailId(now), mailingId: id, subscriberId, now, sendBefore: now + SEND_WITHIN_MS })));
    const more = ids.length === CHUNK;
    noteQueued(id, { through: ids.at(-1) ?? mailing.queuedThrough, added: ids.length, doneAt: more ? null : now });
    return more;
  });
}

/** Who a mailing goes to: instant subscribers of the article's topics, or weekly ones of any of the digest's; null when nobody (the article is no longer public). */
function audienceOf(mailing: Mailing): { frequency: "instant" | "weekly"; topics: Topics } | null {
  const articles = mailing.kind === "article" ? [...articlesForMail(mailing.postId ? [mailing.postId] : []).values()] : digestArticles(mailing);
  if (articles.length === 0) return null;
  // For a digest a superset: its mail is made for each subscriber's own topics when sent, and skipped when none of the articles is theirs.
  const topics: Topics = {
    tags: [...new Set(articles.flatMap((a) => a.tags))],
    centuries: [...new Set(articles.flatMap((a) => (a.century === null ? [] : [a.century])))],
  };
  return { frequency: mailing.kind === "article" ? "instant" : "weekly", topics };
}

/** At start: announce new articles from now on, go on with mailings a restart interrupted, send their mails, make the week's digest if it is due, and look again hourly. */
export function startMailings(): void {
  onNewArticle(announceArticle);
  startNewsletterSender();
  queueMailingsSoon();
  const check = () => {
    try {
      queueDigestIfDue();
    } catch (error) {
      console.error("Subscriptions: could not make the weekly digest; the next hour tries again", error);
    }
  };
  check();
  setInterval(check, 60 * 60 * 1000).unref();
}
