import { inTransaction } from "~/db/connection.server";
import { checkForm, DECISION_FIELDS, decisionSchema, formProblem, reasonSchema } from "~/lib/forms";
import { DECISION_ACTIONS, decisionLabel, MODERATION_MESSAGES, reasonLabel, type DecisionAction, type ReportDecision } from "~/lib/moderation/moderation";
import { insertDecision, lastHidingOf } from "~/models/decisions.server";
import { getPost, setPostHidden } from "~/models/posts.server";
import { listOpenReports, openReportsOf, openReportsOfAuthor, reporterEmailsOf, resolveReports } from "~/models/reports.server";
import { getUserById, hasActiveAdminBesides, updateUser } from "~/models/users.server";
import { ensureDecisionRoom } from "~/services/platform/mail-outbox.server";
import { logModeration, type Actor } from "~/services/platform/moderation-log.server";
import { mailArticleShownAgain, mailFixRequested, mailReportDecided, mailStatementOfReasons } from "./moderation-mail.server";
import { deletePostAs } from "~/services/articles/posts.server";
import { endAllSessionsOf } from "~/services/platform/session.server";

/**
 * Decisions on reported articles, and hiding or restoring one on the
 * moderators' own initiative. Each decision is one row of
 * moderation_decisions (the public log, and the author's statement of
 * reasons), written in one transaction with what it does: the article hidden
 * or deleted, the author disabled, the article's open reports resolved, the
 * mails to each reporter and to the author queued, the admin's log entry.
 * With no room in the outbox for its mails, a decision changes nothing
 * (OutboxFullError, answered 503 by the caller's ifStorageFails).
 */

export type DecisionResult = { ok: true; decided: number; message: string } | { ok: false; status: number; error: string; invalid?: string[] };

type Post = NonNullable<ReturnType<typeof getPost>>;

const refuse = (status: number, error: string, invalid?: string[]): DecisionResult => ({ ok: false, status, error, invalid });

/** The admins' bulk form: one decision, one reason, for the open reports of every article chosen. */
export async function decideReports(actor: Actor, form: FormData): Promise<DecisionResult> {
  const checked = checkForm(decisionSchema, form);
  if (!checked.ok) {
    const problem = formProblem(checked.errors, DECISION_FIELDS, MODERATION_MESSAGES.decisionReason)!;
    return refuse(400, problem.message, problem.invalid);
  }
  const { post: ids, decision, reason } = checked.value;
  const posts = [...new Set(ids)].flatMap((id) => getPost(id) ?? []);
  // Nobody judges reports of their own article, when another admin can.
  if (posts.some((post) => mustLeaveToOthers(actor, post.authorId))) return refuse(403, MODERATION_MESSAGES.ownArticle, ["post"]);
  // An admin is not disabled from here: the account page has the rules about admins (not oneself, not the last one).
  if (decision === "disable" && posts.some((post) => getUserById(post.authorId)?.isAdmin)) return refuse(400, MODERATION_MESSAGES.disableAdmin, ["decision"]);
  // Room in the outbox for every mail it may send (each reporter, the author), before any article is decided: taken whole, or waiting whole.
  ensureDecisionRoom(posts.reduce((mails, post) => mails + new Set(openReportsOf(post.id).map((r) => r.email)).size + 1, 0));
  let decided = 0;
  for (const post of posts) if (await decide(actor, post, decision, reason, { onlyReported: true })) decided++;
  if (decided === 0) return refuse(409, MODERATION_MESSAGES.alreadyDecided);
  return { ok: true, decided, message: `${decisionLabel(decision)}: rozhodnuté o ${decided} ${decided === 1 ? "článku" : "článkoch"}.` };
}

/** Hide an article on the moderators' own initiative (its open reports, if any, are upheld with it). */
export async function hidePost(actor: Actor, postId: string, form: FormData | { reason: string }): Promise<DecisionResult> {
  const reason = readReason(form);
  if (typeof reason !== "string") return reason;
  const post = getPost(postId);
  if (!post) return refuse(404, "Takýto článok neexistuje.");
  if (post.hiddenAt) return { ok: true, decided: 0, message: "Článok už je skrytý." };
  await decide(actor, post, "hide", reason, { onlyReported: false });
  return { ok: true, decided: 1, message: "Článok je skrytý." };
}

/**
 * Delete someone else's article from its page, as a decision: the reason is
 * the author's statement of reasons and the public log's; its open reports,
 * if any, are upheld with it and their readers told.
 */
export async function deletePostAsModerator(actor: Actor, postId: string, form: FormData): Promise<DecisionResult> {
  const reason = readReason(form);
  if (typeof reason !== "string") return reason;
  const post = getPost(postId);
  if (!post) return refuse(404, "Takýto článok neexistuje.");
  await decide(actor, post, "delete", reason, { onlyReported: false });
  return { ok: true, decided: 1, message: "Článok je odstránený." };
}

/** Show a hidden article again, with the reason the public log gives. */
export function restoreHidden(actor: Actor, postId: string, form: FormData | { reason: string }): DecisionResult {
  const reason = readReason(form);
  if (typeof reason !== "string") return reason;
  const post = getPost(postId);
  if (!post) return refuse(404, "Takýto článok neexistuje.");
  if (!post.hiddenAt) return refuse(409, MODERATION_MESSAGES.notHidden);
  // Showing one's own hidden article again is a decision on one's own work: another admin makes it, when there is one.
  if (mustLeaveToOthers(actor, post.authorId)) return refuse(403, MODERATION_MESSAGES.ownRestore);
  inTransaction(() => {
    const hiding = lastHidingOf(post.id);
    setPostHidden(post.id, null);
    record(actor, post, "restore", reason, []);
    // Those whose reports the hiding upheld read that it no longer stands.
    if (hiding) for (const email of reporterEmailsOf(hiding.id)) mailArticleShownAgain(email, { postTitle: post.title, reason });
  });
  return { ok: true, decided: 1, message: "Článok je znova zverejnený." };
}

/** A decision's reason, checked by the form's rules: the reason, or the refusal. */
export function readReason(form: FormData | { reason: string }): string | Extract<DecisionResult, { ok: false }> {
  const data = form instanceof FormData ? form : toForm(form);
  const checked = checkForm(reasonSchema, data);
  if (checked.ok) return checked.value.reason;
  return { ok: false, status: 400, error: checked.errors.reason?.[0] ?? MODERATION_MESSAGES.decisionReason, invalid: ["reason"] };
}

function toForm(fields: Record<string, string>): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  return form;
}

/**
 * Carry out one decision on one article. With `onlyReported`, an article
 * with no open report left is not decided again (false): two admins
 * deciding at once, or a form sent twice, decide it once.
 */
async function decide(actor: Actor, post: Post, action: ReportDecision, reason: string, { onlyReported }: { onlyReported: boolean }): Promise<boolean> {
  const work = () => {
    const reports = openReportsOf(post.id);
    if (onlyReported && reports.length === 0) return false;
    if (action === "hide" || action === "disable") setPostHidden(post.id, Date.now());
    if (action === "disable") {
      updateUser(post.authorId, { disabledAt: Date.now() });
      endAllSessionsOf(post.authorId);
    }
    record(actor, post, action, reason, reports);
    return true;
  };
  if (action !== "delete") return inTransaction(work);
  let done = false;
  await deletePostAs(actor, post, `${decisionLabel(action)}: ${reason}`, () => {
    done = work();
    // Nothing to delete when there was nothing left to decide.
    return done;
  });
  return done;
}

/** Disable an account on the moderators' own initiative (the account page, the command line): the decision and its statement of reasons, in the caller's transaction. */
export function recordAccountDisabled(actor: Actor, user: { id: string; email: string }, reason: string): void {
  const decision = {
    createdAt: Date.now(),
    action: "disable",
    postId: null,
    postTitle: null,
    userId: user.id,
    ground: "initiative",
    reason,
    deciderId: actor === "command line" ? null : actor.id,
  };
  insertDecision(decision);
  mailStatementOfReasons(user.email, { ...decision, groundDetail: "" });
}

/**
 * "Remove all articles" of an account as one decision (the account page,
 * the command line), in the caller's transaction before the rows go: the
 * author's statement of reasons (one, however many articles), the open
 * reports of those articles upheld by it and each reporter told once per
 * article, the public log's entry.
 */
export function recordArticlesRemoved(actor: Actor, user: { id: string; email: string }, reason: string): void {
  const reports = openReportsOfAuthor(user.id);
  const decision = {
    createdAt: Date.now(),
    action: "removeArticles",
    postId: null,
    postTitle: null,
    userId: user.id,
    ground: reports.length > 0 ? "reports" : "initiative",
    groundDetail: [...new Set(reports.map((r) => reasonLabel(r.reason)))].join(", "),
    reason,
    deciderId: actor === "command line" ? null : actor.id,
  };
  const decisionId = insertDecision(decision);
  resolveReports(
    reports.map((r) => r.id),
    "upheld",
    decisionId,
  );
  const told = new Set<string>();
  for (const { email, postTitle } of reports) {
    if (told.has(`${email}\n${postTitle}`)) continue;
    told.add(`${email}\n${postTitle}`);
    mailReportDecided(email, { postTitle, action: "delete", reason });
  }
  mailStatementOfReasons(user.email, decision);
}

/** The decision's row, its reports resolved, its mails and the admin's log entry; in the caller's transaction. */
function record(actor: Actor, post: Post, action: DecisionAction, reason: string, reports: ReturnType<typeof openReportsOf>): void {
  const words = DECISION_ACTIONS[action];
  const reasons = [...new Set(reports.map((r) => reasonLabel(r.reason)))].join(", ");
  const decision = {
    createdAt: Date.now(),
    action,
    postId: post.id,
    postTitle: post.title,
    userId: words.restricts ? post.authorId : null,
    ground: reports.length > 0 ? "reports" : "initiative",
    groundDetail: reasons,
    reason,
    deciderId: actor === "command line" ? null : actor.id,
  };
  const decisionId = insertDecision(decision);
  resolveReports(
    reports.map((r) => r.id),
    words.upheld ? "upheld" : "dismissed",
    decisionId,
  );
  // One mail per reporter, however many of their reports (the article's, a passage's) the decision closes.
  for (const email of new Set(reports.map((r) => r.email))) mailReportDecided(email, { postTitle: post.title, action, reason });
  const author = getUserById(post.authorId);
  if (words.restricts && author) mailStatementOfReasons(author.email, decision);
  // Asked to fix it, the author must hear what to fix: the flags that said so are closed with the decision.
  if (action === "requestFix" && author) mailFixRequested(author.email, { ...decision, postId: post.id });
  logModeration(actor, action === "restore" ? "restoreHidden" : action === "hide" && reports.length === 0 ? "hideArticle" : "decideReports", {
    post,
    user: { id: post.authorId, displayName: post.authorName },
    detail: `${words.label}. ${reason}${reasons ? ` (hlásenia: ${reasons})` : ""}`,
  });
}

/** Whether `actor` wrote the article and another active admin can decide about it instead. */
function mustLeaveToOthers(actor: Actor | { id: string }, authorId: string): boolean {
  return actor !== "command line" && actor.id === authorId && hasActiveAdminBesides([actor.id]);
}

/**
 * The admins' queue as `viewer` sees it: the oldest `limit` open reports,
 * grouped by article (in the order of each article's oldest report). On
 * the viewer's own articles the reporters stay anonymous, as to any author
 * (no name, and no note: a reader may sign it), and the article is left to
 * another admin when there is one.
 */
export function reportQueue(viewer: { id: string }, limit: number) {
  const { rows, total } = listOpenReports(limit);
  const articles = new Map<string, { postId: string; postTitle: string; hidden: boolean; own: boolean; leftToOthers: boolean; reports: typeof rows }>();
  for (const row of rows) {
    const own = row.authorId === viewer.id;
    const article = articles.get(row.postId) ?? { postId: row.postId, postTitle: row.postTitle, hidden: row.hidden, own, leftToOthers: own && mustLeaveToOthers(viewer, row.authorId), reports: [] };
    article.reports.push(own ? { ...row, reporterId: "", reporterName: "", note: "" } : row);
    articles.set(row.postId, article);
  }
  return { articles: [...articles.values()], total };
}
