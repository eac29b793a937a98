import { withinStoredBounds } from "~/lib/bounds";
import { contentToLines } from "~/lib/content-text";
import { formatDateTime } from "~/lib/dates";
import { REVISION_ID, REVISION_MESSAGES, restoredSummary, type Comparison, type RevisionContent } from "~/lib/revisions";
import { POST_MESSAGES } from "~/lib/rules";
import { sourcesToTyped } from "~/lib/sources";
import { countRevisions, getRevision } from "~/models/revisions.server";
import { diffVersions } from "./revision-diff.server";
import { refusal, writeRevision, type ChangePermission, type PostResult } from "./posts.server";
import { editAttempts, reserve } from "./throttle.server";

/**
 * An article's old revisions: comparing two, and restoring one (as a new
 * revision: history is never rewritten). Who may restore is the posts
 * service's rule (mayChangePost); the write is its writeRevision, as for an edit.
 */

/** A revision of this article named in an address; undefined for a missing, malformed or another article's id. */
export function findRevision(postId: string, id: string | null): RevisionContent | undefined {
  return id !== null && REVISION_ID.test(id) ? getRevision(postId, id) : undefined;
}

const info = ({ id, number, editorName, createdAt, summary }: RevisionContent) => ({ id, number, editorName, createdAt, summary });

const textsOf = (revision: RevisionContent) => ({
  title: revision.title,
  // The sanitised content's text: markup is never compared, nor shown from a diff.
  text: contentToLines(revision.content),
  sources: sourcesToTyped(revision.sources),
});

/** Two revisions of this article compared, the older first (named newer first, they are swapped); undefined when either is not this article's. Rejects with BusyError when too many comparisons wait. */
export async function compareRevisions(postId: string, fromId: string | null, toId: string | null): Promise<Comparison | undefined> {
  const from = findRevision(postId, fromId);
  const to = findRevision(postId, toId);
  if (!from || !to) return undefined;
  const swapped = from.number > to.number;
  const [older, newer] = swapped ? [to, from] : [from, to];
  return {
    from: info(older),
    to: info(newer),
    swapped,
    ...(await diffVersions(textsOf(older), textsOf(newer))),
    tags: { added: newer.tags.filter((tag) => !older.tags.includes(tag)), removed: older.tags.filter((tag) => !newer.tags.includes(tag)) },
    imageChanged: older.image !== newer.image,
  };
}

/**
 * Restore an old revision's title, content, sources and period as the article's
 * next revision ("Obnovená verzia z …"), counted against the editor's edit
 * quota like a save. 404 for a revision that is not this article's.
 */
export function restoreRevision(permission: ChangePermission, revisionId: string): PostResult {
  const revision = findRevision(permission.post.id, revisionId);
  if (!revision) return refusal(404, "");
  if (revision.number === countRevisions(permission.post.id)) return refusal(400, REVISION_MESSAGES.alreadyCurrent);
  if (!withinStoredBounds(revision)) return refusal(400, REVISION_MESSAGES.beyondBounds);
  if (!reserve(editAttempts(permission.user.id))) return refusal(429, POST_MESSAGES.editQuota);
  const { title, content, sources, period } = revision;
  writeRevision(permission, { title, content, sources, period }, { summary: restoredSummary(formatDateTime(revision.createdAt)), logAs: "restoreArticle", detail: `verzia ${revision.number}` });
  return { ok: true };
}
