import { inTransaction } from "~/db/connection.server";
import { appealSchema, checkForm, reasonSchema } from "~/lib/forms";
import { APPEAL_WINDOW_MS, DECISION_ACTIONS, MODERATION_MESSAGES, type DecisionAction } from "~/lib/moderation/moderation";
import { decideAppealRow, getAppeal, insertAppeal } from "~/models/appeals.server";
import { reporterEmailsOf } from "~/models/reports.server";
import { decidedAgainAfter, getDecision } from "~/models/decisions.server";
import { getPost, setPostHidden } from "~/models/posts.server";
import { getUserById, hasActiveAdminBesides, updateUser } from "~/models/users.server";
import { logModeration, type Actor } from "~/services/platform/moderation-log.server";
import { mailAppealDecided, mailAppealReceived, mailReportDecisionReversed } from "./moderation-mail.server";
import { showRevisionsAgain } from "./revision-deletion.server";

/**
 * Appeals: the author whose article or account a decision restricted may
 * contest it once, within six months, with a text; an admin other than the
 * one who decided (when there is another) grants it, undoing the decision
 * where it can be undone, or rejects it, with a reason the author reads.
 */

export type AppealResult = { ok: true; message: string } | { ok: false; status: number; error: string };
const refuse = (status: number, error: string): AppealResult => ({ ok: false, status, error });

/** Whether this account may contest this decision now (the refusal when not). */
export function mayAppeal(userId: string, decisionId: number, now = Date.now()): AppealResult {
  const decision = Number.isSafeInteger(decisionId) ? getDecision(decisionId) : undefined;
  if (!decision || decision.userId !== userId) return refuse(403, MODERATION_MESSAGES.appealNotYours);
  if (!DECISION_ACTIONS[decision.action as DecisionAction]?.restricts) return refuse(403, MODERATION_MESSAGES.appealNotAllowed);
  if (now - decision.createdAt > APPEAL_WINDOW_MS) return refuse(403, MODERATION_MESSAGES.appealLate);
  return { ok: true, message: "" };
}

/** The author files an appeal (signed in, or by the sign-in page when the decision disabled the account). */
export function fileAppeal(userId: string, decisionId: number, form: FormData): AppealResult {
  const allowed = mayAppeal(userId, decisionId);
  if (!allowed.ok) return allowed;
  const checked = checkForm(appealSchema, form);
  if (!checked.ok) return refuse(400, checked.errors.text?.[0] ?? MODERATION_MESSAGES.appealText);
  const user = getUserById(userId)!;
  const decision = getDecision(decisionId)!;
  const filed = inTransaction(() => {
    if (insertAppeal({ decisionId, userId, text: checked.value.text, createdAt: Date.now() }) === undefined) return false;
    mailAppealReceived(user.email, decision.postTitle);
    return true;
  });
  if (!filed) return refuse(403, MODERATION_MESSAGES.appealTwice);
  return { ok: true, message: MODERATION_MESSAGES.appealFiled };
}

/** An admin grants or rejects an open appeal. */
export function decideAppeal(actor: Actor, appealId: number, outcome: unknown, form: FormData): AppealResult {
  if (outcome !== "granted" && outcome !== "rejected") return refuse(400, MODERATION_MESSAGES.decisionChoice);
  const appeal = Number.isSafeInteger(appealId) ? getAppeal(appealId) : undefined;
  if (!appeal) return refuse(404, MODERATION_MESSAGES.noSuchAppeal);
  if (appeal.state !== "open") return refuse(409, MODERATION_MESSAGES.appealDecided);
  const decision = getDecision(appeal.decisionId)!;
  // An admin never judges their own appeal (their own article or account); another admin decides, when there is another one to do it.
  if (actor !== "command line" && appeal.userId === actor.id) return refuse(403, MODERATION_MESSAGES.appealOwnAppeal);
  if (actor !== "command line" && decision.deciderId === actor.id && hasActiveAdminBesides([actor.id, appeal.userId])) return refuse(403, MODERATION_MESSAGES.appealOwnDecision);
  const checked = checkForm(reasonSchema, form);
  if (!checked.ok) return refuse(400, checked.errors.reason?.[0] ?? MODERATION_MESSAGES.decisionReason);
  const reason = checked.value.reason;
  const author = getUserById(appeal.userId);
  const decided = inTransaction(() => {
    if (!decideAppealRow(appeal.id, { state: outcome, decidedAt: Date.now(), deciderId: actor === "command line" ? null : actor.id, reason })) return false;
    if (author) mailAppealDecided(author.email, { postTitle: decision.postTitle, state: outcome, reason });
    if (outcome === "granted") {
      undo(decision);
      // The readers whose reports the decision upheld learn that it no longer stands.
      for (const email of reporterEmailsOf(decision.id)) mailReportDecisionReversed(email, { postTitle: decision.postTitle, reason });
    }
    logModeration(actor, "decideAppeal", {
      user: author,
      post: decision.postId && decision.postTitle ? { id: decision.postId, title: decision.postTitle } : undefined,
      detail: `${outcome === "granted" ? "Vyhovené" : "Zamietnuté"}: ${reason}`,
    });
    return true;
  });
  if (!decided) return refuse(409, MODERATION_MESSAGES.appealDecided);
  return { ok: true, message: outcome === "granted" ? "Námietke je vyhovené." : "Námietka je zamietnutá." };
}

/** What a granted appeal gives back: the article shown again, the account enabled, an old revision's parts shown. A deleted article or an erased revision cannot come back (the statement said so). */
function undo(decision: NonNullable<ReturnType<typeof getDecision>>): void {
  // A later decision on the same article or account (hidden again, disabled again) stands: it has its own statement and appeal.
  if ((decision.action === "hide" || decision.action === "disable") && decision.postId && getPost(decision.postId) && !decidedAgainAfter(decision, "article")) {
    setPostHidden(decision.postId, null);
  }
  if (decision.action === "disable" && decision.userId && !decidedAgainAfter(decision, "account")) updateUser(decision.userId, { disabledAt: null });
  if (decision.action === "hideRevision" && decision.postId) showRevisionsAgain(decision.postId, decision.revisions);
}
