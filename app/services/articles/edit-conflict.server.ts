import { formatDateTime } from "~/lib/time/dates";
import { editConflictMessage, REVISION_MESSAGES, type EditConflict } from "~/lib/revisions";
import { typedText } from "~/lib/rules";
import { editableText } from "~/lib/text/article-markup";
import { sourcesToTyped } from "~/lib/sources";
import { getContentSource, getPost } from "~/models/posts.server";
import { countRevisions, listRevisions } from "~/models/revisions.server";
import { diffVersions } from "./revision-diff.server";

/**
 * Two editors saving at once. The edit form carries `baseRevision`, the
 * article's revision when it was opened; a save whose base is not the current
 * revision is not written (checked again in the transaction that writes), and
 * its answer shows who saved in between, the current article against what was
 * typed (the bounded word diff of the history's comparisons), and the form
 * again, now based on the current revision, so a second save goes through.
 */

/** The form's base revision; null when missing or not a plain whole number (a form from before this check, or forged). */
export function readBaseRevision(form: FormData): number | null {
  const raw = form.get("baseRevision");
  return typeof raw === "string" && /^[1-9]\d{0,8}$/.test(raw) ? Number(raw) : null;
}

/** Revisions were saved since `base` (or `base` is ahead of the article): a save on it would overwrite what its editor never saw. */
export function isStale(postId: string, base: number): boolean {
  return base !== countRevisions(postId);
}

/**
 * Why a stale save was refused, with what differs between the current
 * article and the form as typed (as the edit form shows both: editable
 * text, sources one per line). 409 when others saved since its base; 400 for a
 * base that is missing, malformed or ahead of the article. Undefined when the
 * article is gone; rejects with BusyError when too many comparisons wait.
 */
export async function editConflict(postId: string, base: number | null, form: FormData, client: string): Promise<{ status: number; error: string; conflict: EditConflict } | undefined> {
  const post = getPost(postId);
  const [last] = listRevisions(postId, { offset: 0, limit: 1 });
  if (!post || !last) return undefined;
  const typed = (name: string) => typedText(String(form.get(name) ?? ""));
  const changes = await diffVersions(
    { title: post.title, text: editableText(post.content, getContentSource(post.id)), sources: sourcesToTyped(post.sources) },
    { title: typed("title"), text: typed("content"), sources: typed("sources") },
    { client },
  );
  const behind = base !== null && base < last.number;
  return {
    status: behind ? 409 : 400,
    error: behind ? editConflictMessage(last.number - base, last.editorName, formatDateTime(last.createdAt)) : REVISION_MESSAGES.staleForm,
    conflict: { base: last.number, last: { id: last.id, number: last.number, editorName: last.editorName, createdAt: last.createdAt, summary: last.summary, hidden: last.hidden }, changes },
  };
}
