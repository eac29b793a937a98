import { inTransaction } from "~/db/connection.server";
import { checkForm, type FieldErrors, formProblem, passageReportSchema, REPORT_FIELDS, reportSchema } from "~/lib/forms";
import { clipText } from "~/lib/text/content-text";
import { MODERATION_MESSAGES, reasonLabel } from "~/lib/moderation/moderation";
import { type PassageFlag, quotedPassage } from "~/lib/text/passages";
import { canModify } from "~/lib/rules";
import { getPost } from "~/models/posts.server";
import { insertReport, openPassageReportsOf } from "~/models/reports.server";
import { mailReportReceived } from "./moderation-mail.server";
import type { ModerationResult } from "./moderation.server";
import type { CurrentUser } from "~/lib/types";
import { release, reportAttempts, reserve } from "~/services/platform/throttle.server";

const refuse = (status: number, error: string) => ({ ok: false, status, error }) as const;
type ReportResult = ModerationResult & { invalid?: string[] };
type Post = NonNullable<ReturnType<typeof getPost>>;

/**
 * A reader reports an article: a reason from the list, an optional note;
 * one open report per reader and article, throttled per account. The
 * reporter's confirmation mail is queued with the report.
 */
export function reportPost(user: CurrentUser, postId: string, form: FormData): ReportResult {
  const checked = checkForm(reportSchema, form);
  if (!checked.ok) return refuseForm(checked.errors, MODERATION_MESSAGES.reportReason);
  const post = reportable(postId);
  if (!post) return refuse(404, "");
  return fileReport(user, post, { ...checked.value, duplicate: MODERATION_MESSAGES.reportDuplicate });
}

/**
 * A reader flags the passage `odsek` names ("Zdroj?"), with the
 * same rules as a report of the whole article, one open flag per reader and
 * passage. The passage's text is read here, from the article as it is now.
 */
export function reportPassage(user: CurrentUser, postId: string, odsek: string, form: FormData): ReportResult {
  const checked = checkForm(passageReportSchema, form);
  if (!checked.ok) return refuseForm(checked.errors, MODERATION_MESSAGES.passageReason);
  const post = reportable(postId);
  if (!post) return refuse(404, "");
  const passage = quotedPassage(post.content, odsek);
  if (!passage) return refuse(400, MODERATION_MESSAGES.noSuchPassage);
  return fileReport(user, post, { ...checked.value, paragraph: passage.n, passage: passage.quote, duplicate: MODERATION_MESSAGES.passageDuplicate });
}

/** How much of a flagged passage the edit form quotes: enough to find it in the text. */
const FLAG_QUOTE_LENGTH = 120;

/**
 * The open "Zdroj?" flags of an article for whoever may edit it, as its
 * edit form lists them: the passage and the reason, neither who sent them
 * nor their note for the editors (the admins' queue shows that). Worded
 * here, so that the article page's script carries none of the moderation's
 * words.
 */
export function passageFlagsFor(user: CurrentUser | null, post: { id: string; authorId: string }): PassageFlag[] {
  if (!canModify(user, post)) return [];
  return openPassageReportsOf(post.id).map((flag) => ({
    paragraph: flag.paragraph ?? 0,
    quote: clipText(flag.passage, FLAG_QUOTE_LENGTH),
    reason: reasonLabel(flag.reason),
  }));
}

function refuseForm(errors: FieldErrors, missing: string): ReportResult {
  const problem = formProblem(errors, REPORT_FIELDS, missing)!;
  return { ...refuse(400, problem.message), invalid: problem.invalid };
}

/** An article that may be reported: a hidden one is reported no more (its reports were decided with it). */
function reportable(postId: string): Post | null {
  const post = getPost(postId);
  return post && !post.hiddenAt ? post : null;
}

function fileReport(
  user: CurrentUser,
  post: Post,
  report: { reason: string; note?: string; paragraph?: number; passage?: string; duplicate: string },
): ReportResult {
  if (post.authorId === user.id) return refuse(400, MODERATION_MESSAGES.reportOwn);
  const attempts = reportAttempts(user.id);
  if (!reserve(attempts)) return refuse(429, MODERATION_MESSAGES.reportQuota);
  const { reason, note, paragraph, passage, duplicate } = report;
  const sent = inTransaction(() => {
    const id = insertReport({ postId: post.id, postTitle: post.title, reporterId: user.id, reason, note: note ?? "", paragraph, passage, createdAt: Date.now() });
    if (id !== undefined) mailReportReceived(user.email, { postTitle: post.title, reason });
    return id !== undefined;
  });
  if (!sent) {
    release(attempts);
    return refuse(400, duplicate);
  }
  return { ok: true, message: user.emailConfirmedAt !== null ? MODERATION_MESSAGES.reportReceived : MODERATION_MESSAGES.reportReceivedUnconfirmed };
}
