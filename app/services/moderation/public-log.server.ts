import { env } from "~/config/env.server";
import { formatDate, formatMonth, recentMonths } from "~/lib/time/dates";
import { APPEAL_STATES, DECISION_ACTIONS, decisionLabel, groundLabel, pageWindow, type AppealState } from "~/lib/moderation/moderation";
import {
  appealOutcome,
  PUBLIC_LOG_FEED_PATH,
  PUBLIC_LOG_FEED_SIZE,
  PUBLIC_LOG_MONTHS,
  PUBLIC_LOG_PATH,
  PUBLIC_LOG_PER_PAGE,
  PUBLIC_LOG_TITLE,
  UNNAMED_ARTICLE,
  type MonthCount,
  type PublicDecision,
} from "~/lib/moderation/public-log";
import { SITE_NAME } from "~/lib/site";
import { escapeXml as xml } from "~/lib/xml";
import { countDecisions, decisionsInRanges, listPublicDecisions } from "~/models/decisions.server";
import { siteChangedAt } from "~/models/meta.server";
import type { Feed } from "~/services/articles/feed.server";
import { etagOf } from "~/services/platform/http-cache.server";

/**
 * The public moderation log: every decision of the moderators, newest
 * first, as anyone may read it (lib/moderation/public-log.ts says what it shows and
 * what it never does), and how many there were each month. The page is
 * kept by the page cache; migration 0017's triggers give the data stamp a
 * new value on each decision and each appeal decided, so it is never stale.
 */

const UPHELD_ACTIONS = Object.entries(DECISION_ACTIONS).flatMap(([action, words]) => (words.upheld ? [action] : []));

function isAppealState(state: string | null): state is AppealState {
  return state !== null && Object.hasOwn(APPEAL_STATES, state);
}

function publicDecisions(window: { offset: number; limit: number }): PublicDecision[] {
  return listPublicDecisions(window).map((row) => ({
    id: row.id,
    createdAt: row.createdAt,
    action: row.action,
    ground: groundLabel(row),
    reason: row.reason,
    article: row.postId !== null && row.postTitle !== null ? { id: row.postId, title: row.postTitle } : row.article === "visible" ? "none" : row.article,
    appeal: isAppealState(row.appealState) ? { state: row.appealState, decidedAt: row.appealDecidedAt ?? row.createdAt, reason: row.appealReason ?? "" } : null,
  }));
}

/**
 * The decisions of each of the last PUBLIC_LOG_MONTHS months, newest first,
 * from the first month that had any: one index search per month, so its
 * cost is that of the decisions it counts (40–90 ms for 100,000 within
 * the two years; docs/moderation.md, "The public moderation log"), paid when the first page is rendered
 * for the page cache.
 */
export function decisionsPerMonth(now = Date.now()): MonthCount[] {
  const months = recentMonths(now, PUBLIC_LOG_MONTHS);
  const counts = decisionsInRanges(months, UPHELD_ACTIONS).map((count, i) => ({ month: formatMonth(months[i].from), ...count }));
  while (counts.length > 0 && counts[counts.length - 1].total === 0) counts.pop();
  return counts;
}

/** Which page of the log a page number shows (past the last: the last), and how many there are. */
export function publicLogWindow(page: number) {
  const total = countDecisions();
  return { total, ...pageWindow(page, total, PUBLIC_LOG_PER_PAGE) };
}

/** One page of the log; the month table on the first page only, so walking every page costs no more than its rows. */
export function publicLogPage(window: ReturnType<typeof publicLogWindow>) {
  return {
    total: window.total,
    page: window.page,
    pages: window.pages,
    decisions: publicDecisions(window),
    months: window.page === 1 ? decisionsPerMonth() : null,
  };
}

const atomTime = (ms: number) => new Date(ms).toISOString();

function entry(decision: PublicDecision): string {
  const { article } = decision;
  const url = `${env.publicUrl}${PUBLIC_LOG_PATH}#rozhodnutie-${decision.id}`;
  const articleName = typeof article === "string" ? UNNAMED_ARTICLE[article] : `„${article.title}“`;
  const articleHtml = typeof article === "string" ? xml(UNNAMED_ARTICLE[article]) : `<a href="${xml(`${env.publicUrl}/posts/${article.id}`)}">${xml(article.title)}</a>`;
  const fields = [
    ["Dátum", formatDate(decision.createdAt)],
    ["Rozhodnutie", xml(decisionLabel(decision.action, decision.article !== "none"))],
    ["Článok", articleHtml],
    ["Podnet", xml(decision.ground)],
    ["Odôvodnenie", xml(decision.reason)],
    ...(decision.appeal ? [["Námietka", xml(appealOutcome(decision.appeal))]] : []),
  ];
  const html = `<dl>${fields.map(([term, value]) => `<dt>${term}</dt><dd>${value}</dd>`).join("")}</dl>`;
  return [
    "<entry>",
    `<title>${xml(`${decisionLabel(decision.action, decision.article !== "none")}: ${articleName}`)}</title>`,
    `<link rel="alternate" type="text/html" href="${xml(url)}"/>`,
    `<id>${xml(url)}</id>`,
    `<published>${atomTime(decision.createdAt)}</published>`,
    `<updated>${atomTime(Math.max(decision.createdAt, decision.appeal?.decidedAt ?? 0))}</updated>`,
    `<summary>${xml(decision.reason)}</summary>`,
    `<content type="html">${xml(html)}</content>`,
    "</entry>",
  ].join("");
}

/** The log's Atom feed: the newest PUBLIC_LOG_FEED_SIZE decisions, each with what the page shows of it. */
export function publicLogFeed(): Feed {
  const decisions = publicDecisions({ offset: 0, limit: PUBLIC_LOG_FEED_SIZE });
  const self = `${env.publicUrl}${PUBLIC_LOG_FEED_PATH}`;
  // As the site's feed: the site's change time, which each decision and each decided appeal moves forward.
  const changedAt = siteChangedAt();
  const body = [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="sk">',
    `<title>${xml(`${SITE_NAME}: ${PUBLIC_LOG_TITLE.toLowerCase()}`)}</title>`,
    `<subtitle>Rozhodnutia moderátorov o nahlásených článkoch, s odôvodnením</subtitle>`,
    `<id>${xml(self)}</id>`,
    `<link rel="self" type="application/atom+xml" href="${xml(self)}"/>`,
    `<link rel="alternate" type="text/html" href="${xml(env.publicUrl + PUBLIC_LOG_PATH)}"/>`,
    `<updated>${atomTime(changedAt)}</updated>`,
    `<author><name>${xml(`Moderátori stránky ${SITE_NAME}`)}</name></author>`,
    `<icon>${xml(env.publicUrl)}/img/favicon.svg</icon>`,
    ...decisions.map(entry),
    "</feed>",
  ].join("\n");
  return { body, etag: etagOf(body), lastModified: changedAt > 0 ? new Date(changedAt) : null };
}
