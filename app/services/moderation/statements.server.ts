import { createHmac, timingSafeEqual } from "node:crypto";
import { env } from "~/config/env.server";
import { APPEAL_WINDOW_MS, type AppealState, type StatementOfReasons } from "~/lib/moderation/moderation";
import { decisionsByIds, listStatementsOf } from "~/models/decisions.server";
import { listReportsBy } from "~/models/reports.server";
import { mayAppeal } from "./appeals.server";

/**
 * What moderation tells the people it concerns: an author's statements of
 * reasons (each decision that restricted their article or account, its
 * appeal, and until when they may file one), a reader's own reports with
 * what came of them.
 */

/** More than anyone collects; the page shows them all. */
const STATEMENTS_SHOWN = 100;


export function statementsOf(userId: string): StatementOfReasons[] {
  return listStatementsOf(userId, STATEMENTS_SHOWN).map(({ decision, appealId, appealState, appealText, appealCreatedAt, appealDecidedAt, appealReason }) => ({
    id: decision.id,
    action: decision.action,
    postTitle: decision.postTitle,
    reason: decision.reason,
    ground: decision.ground,
    groundDetail: decision.groundDetail,
    createdAt: decision.createdAt,
    appealUntil: appealId === null && mayAppeal(userId, decision.id).ok ? decision.createdAt + APPEAL_WINDOW_MS : null,
    appeal: appealId === null ? null : { state: appealState as AppealState, text: appealText!, createdAt: appealCreatedAt!, decidedAt: appealDecidedAt, reason: appealReason! },
  }));
}

/** The statement a disabled account is shown when it signs in: the decision that disabled it (none when it was disabled from the account page without one). */
export function disablingStatementOf(userId: string): StatementOfReasons | undefined {
  return statementsOf(userId).find((statement) => statement.action === "disable");
}

/** A reader's reports, newest first, each with the decision that closed it. */
export function reportsOf(userId: string, page: { offset: number; limit: number }) {
  const rows = listReportsBy(userId, page);
  const decisions = decisionsByIds(rows.flatMap((row) => row.decisionId ?? []));
  return rows.map((row) => {
    const decision = row.decisionId === null ? undefined : decisions.get(row.decisionId);
    return {
      ...row,
      decision: decision
        ? { action: decision.action, reason: decision.reason, createdAt: decision.createdAt, reversed: decision.appealState === "granted", shownAgain: decision.shownAgain }
        : null,
    };
  });
}

// ------------------------------------------------ an appeal from the sign-in page

/** How long the sign-in page's appeal form stays good after the right password. */
const APPEAL_TOKEN_LIFETIME = 60 * 60 * 1000;

const mac = (payload: string) => createHmac("sha256", env.sessionSecret).update(`appeal:${payload}`).digest("base64url");

/**
 * A disabled account cannot sign in, so its appeal form carries this
 * instead of a session: proof, signed with the session secret, that the
 * right password for this account was given less than an hour ago.
 */
export function appealToken(userId: string, decisionId: number, now = Date.now()): string {
  const payload = `${userId}.${decisionId}.${now + APPEAL_TOKEN_LIFETIME}`;
  return `${payload}.${mac(payload)}`;
}

/** The account and decision a token was made for, while it is good. */
export function readAppealToken(token: unknown, now = Date.now()): { userId: string; decisionId: number } | null {
  if (typeof token !== "string" || token.length > 200) return null;
  const parts = token.split(".");
  if (parts.length !== 4) return null;
  const [userId, decision, until, signature] = parts;
  const expected = Buffer.from(mac(`${userId}.${decision}.${until}`));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  if (!(Number(until) > now)) return null;
  return { userId, decisionId: Number(decision) };
}
