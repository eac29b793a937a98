import { inTransaction } from "~/db/connection.server";
import { checkForm, formProblem, REPORT_FIELDS, reportSchema } from "~/lib/forms";
import { MODERATION_MESSAGES } from "~/lib/moderation";
import { getPost } from "~/models/posts.server";
import { insertReport } from "~/models/reports.server";
import { mailReportReceived } from "./moderation-mail.server";
import type { ModerationResult } from "./moderation.server";
import type { CurrentUser } from "./session.server";
import { release, reportAttempts, reserve } from "./throttle.server";

const refuse = (status: number, error: string) => ({ ok: false, status, error }) as const;

/**
 * A reader reports an article: a reason from the list, an optional note;
 * one open report per reader and article, throttled per account. The
 * reporter's confirmation mail is queued with the report.
 */
export function reportPost(user: CurrentUser, postId: string, form: FormData): ModerationResult & { invalid?: string[] } {
  const checked = checkForm(reportSchema, form);
  if (!checked.ok) {
    const problem = formProblem(checked.errors, REPORT_FIELDS, MODERATION_MESSAGES.reportReason)!;
    return { ...refuse(400, problem.message), invalid: problem.invalid };
  }
  const post = getPost(postId);
  // A hidden article is reported no more: its reports were decided with it.
  if (!post || post.hiddenAt) return refuse(404, "");
  if (post.authorId === user.id) return refuse(400, MODERATION_MESSAGES.reportOwn);
  const attempts = reportAttempts(user.id);
  if (!reserve(attempts)) return refuse(429, MODERATION_MESSAGES.reportQuota);
  const { reason, note } = checked.value;
  const sent = inTransaction(() => {
    const id = insertReport({ postId, postTitle: post.title, reporterId: user.id, reason, note: note ?? "", createdAt: Date.now() });
    if (id !== undefined) mailReportReceived(user.email, { postTitle: post.title, reason });
    return id !== undefined;
  });
  if (!sent) {
    release(attempts);
    return refuse(400, MODERATION_MESSAGES.reportDuplicate);
  }
  return { ok: true, message: "Ďakujeme, hlásenie sme prijali. Čo redakcia rozhodla, uvidíte v Mojich hláseniach a dostanete e-mail." };
}
