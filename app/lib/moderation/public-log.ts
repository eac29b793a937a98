/** Words and shapes of the public moderation log (/moderation and its Atom feed), shared by the page and the server. */
import { APPEAL_STATES, type AppealState } from "./moderation";

/** Decisions on one page of /moderation. */
export const PUBLIC_LOG_PER_PAGE = 25;
/** Decisions in the log's feed. */
export const PUBLIC_LOG_FEED_SIZE = 50;
/** The month table goes back at most this far (this month included). */
export const PUBLIC_LOG_MONTHS = 24;

export const PUBLIC_LOG_PATH = "/moderation";
export const PUBLIC_LOG_FEED_PATH = "/moderation/feed.xml";
export const PUBLIC_LOG_TITLE = "Verejný záznam moderovania";

/** A page's address: the first page has no number. */
export function publicLogHref(page: number): string {
  return page > 1 ? `${PUBLIC_LOG_PATH}?page=${page}` : PUBLIC_LOG_PATH;
}

/** Whether the address's `page` is written as the site writes it for `page` (else the page redirects there: one address, one cached page). */
export function isCanonicalPage(raw: string | null, page: number): boolean {
  return raw === (page > 1 ? String(page) : null);
}

/**
 * A decision as anyone may read it: the article named only while everyone
 * can read it, the appeal only once decided. Nothing about who reported,
 * wrote or decided.
 */
export type PublicDecision = {
  id: number;
  createdAt: number;
  action: string;
  /** groundLabel's words: the readers' reasons, or the moderators' own initiative. */
  ground: string;
  reason: string;
  article: { id: string; title: string } | "hidden" | "deleted" | "none";
  appeal: { state: AppealState; decidedAt: number; reason: string } | null;
};

/** What the log says for an article it does not name. */
export const UNNAMED_ARTICLE = { hidden: "skrytý článok", deleted: "odstránený článok", none: "—" } as const;

/** An appeal's outcome as the log prints it: "Námietke sa vyhovelo: …". */
export function appealOutcome(appeal: NonNullable<PublicDecision["appeal"]>): string {
  return appeal.reason ? `${APPEAL_STATES[appeal.state]}: ${appeal.reason}` : APPEAL_STATES[appeal.state];
}

/** One row of the month table. */
export type MonthCount = { month: string; total: number; upheld: number };

const NUMBER = new Intl.NumberFormat("sk-SK");

/** "1 234" */
export const formatCount = (n: number) => NUMBER.format(n);

/** "1 rozhodnutie", "3 rozhodnutia", "5 rozhodnutí", "1 234 rozhodnutí". */
export function decisionCount(n: number): string {
  return `${formatCount(n)} ${n === 1 ? "rozhodnutie" : n >= 2 && n <= 4 ? "rozhodnutia" : "rozhodnutí"}`;
}
