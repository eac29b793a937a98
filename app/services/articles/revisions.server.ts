import { withinStoredBounds } from "~/lib/bounds";
import { editableText } from "~/lib/text/article-markup";
import { formatDateTime } from "~/lib/time/dates";
import {
  HIDDEN_PART_WORDS,
  REVISION_ID,
  REVISION_MESSAGES,
  restoreConflictMessage,
  restoredSummary,
  withoutHiddenParts,
  type Comparison,
  type RevisionContent,
  type RevisionInfo,
} from "~/lib/revisions";
import { POST_MESSAGES } from "~/lib/rules";
import { sourcesToTyped } from "~/lib/sources";
import { countRevisions, getRevision, listRevisions, type StoredRevision } from "~/models/revisions.server";
import { readBaseRevision } from "./edit-conflict.server";
import { diffVersions } from "./revision-diff.server";
import { refusal, writeRevision, type ChangePermission, type PostResult } from "./posts.server";
import { editAttempts, reserve } from "~/services/platform/throttle.server";

/**
 * An article's old revisions: comparing two, and restoring one (as a new
 * revision: history is never rewritten). Who may restore is the posts
 * service's rule (mayChangePost); the write is its writeRevision, as for an edit.
 */

/** A revision of this article named in an address, whole (hidden parts too); undefined for a missing, malformed or another article's id. */
export function findRevision(postId: string, id: string | null): StoredRevision | undefined {
  return id !== null && REVISION_ID.test(id) ? getRevision(postId, id) : undefined;
}

/**
 * A revision as `isAdmin` may read it: admins whole; anyone else without
 * its hidden summary and name, and with nothing of its text when that is
 * hidden (`textHidden`: the page says so instead).
 */
export function revisionFor(postId: string, id: string | null, isAdmin: boolean): { revision: RevisionContent; textHidden: boolean } | undefined {
  const found = findRevision(postId, id);
  if (!found) return undefined;
  // Who saved it, and its text as written, stay on the server.
  const { editorId, contentSource, ...revision } = found;
  if (isAdmin) return { revision, textHidden: false };
  if (!revision.hidden.text) return { revision: withoutHiddenParts(revision), textHidden: false };
  return { revision: { ...withoutHiddenParts(revision), title: "", content: "", sources: [], tags: [], image: "", period: "" }, textHidden: true };
}

const info = ({ id, number, editorName, createdAt, summary, hidden }: RevisionContent): RevisionInfo => ({ id, number, editorName, createdAt, summary, hidden });

const textsOf = (revision: StoredRevision) => ({
  title: revision.title,
  // The text as its author wrote it (Markdown marks and all), as the edit form shows it.
  text: editableText(revision.content, revision.contentSource),
  sources: sourcesToTyped(revision.sources),
});

const imageOf = ({ image, imageWidth, imageHeight }: RevisionContent) => ({ key: image, width: imageWidth, height: imageHeight });

/** Whether moderation erased this revision's text for good. */
export const textErased = ({ hidden }: RevisionContent) => hidden.text && hidden.erased;

/** Who asks for a comparison: admins may compare revisions whose text is hidden; `client` takes its turn at the diff worker. */
export type ComparisonViewer = { isAdmin: boolean; client: string };

/**
 * Two revisions of this article compared, the older first (named newer
 * first, they are swapped); undefined when either is not this article's,
 * "hidden" when the text of either is hidden from this viewer. Each pair is
 * worked out once (revision-diff.server). Rejects with BusyError when this
 * client or too many others have comparisons waiting.
 */
export async function compareRevisions(postId: string, fromId: string | null, toId: string | null, viewer: ComparisonViewer): Promise<Comparison | "hidden" | undefined> {
  const from = findRevision(postId, fromId);
  const to = findRevision(postId, toId);
  if (!from || !to) return undefined;
  if (!viewer.isAdmin && (from.hidden.text || to.hidden.text)) return "hidden";
  const swapped = from.number > to.number;
  const [older, newer] = swapped ? [to, from] : [from, to];
  const shown = (revision: RevisionContent) => (viewer.isAdmin ? info(revision) : withoutHiddenParts(info(revision)));
  // An erased revision's texts are not what they were: its pairs are new keys.
  const key = `${older.id}${older.hidden.erased ? "!" : ""}:${newer.id}${newer.hidden.erased ? "!" : ""}`;
  return {
    from: shown(older),
    to: shown(newer),
    swapped,
    ...(await diffVersions(textsOf(older), textsOf(newer), { key, client: viewer.client })),
    tags: { added: newer.tags.filter((tag) => !older.tags.includes(tag)), removed: older.tags.filter((tag) => !newer.tags.includes(tag)) },
    period: { from: older.period, to: newer.period },
    image: { from: imageOf(older), to: imageOf(newer) },
  };
}

/**
 * Restore an old revision's title, content, sources, period, tags and image as the article's
 * next revision ("Obnovená verzia z …"), counted against the editor's edit
 * quota like a save. Like an edit, it names the revision it was confirmed on
 * (`baseRevision`): when the article was saved since, nothing is restored
 * (409, with who saved). 404 for a revision that is not this article's, or
 * whose text moderation hid from this user.
 */
export function restoreRevision(permission: ChangePermission, revisionId: string, form: FormData): PostResult {
  const revision = findRevision(permission.post.id, revisionId);
  // Its text hidden from this user (revisionFor's rule): as if it were not there.
  if (!revision || (revision.hidden.text && !permission.user.isAdmin)) return refusal(404, "");
  // An erased text is gone: restoring it would empty the article.
  if (textErased(revision)) return refusal(400, REVISION_MESSAGES.erasedText);
  const { title, content, contentSource, sources, period, tags, number, createdAt } = revision;
  const current = countRevisions(permission.post.id);
  if (number === current) return refusal(400, REVISION_MESSAGES.alreadyCurrent);
  if (!withinStoredBounds(revision)) return refusal(400, REVISION_MESSAGES.beyondBounds);
  if (!reserve(editAttempts(permission.user.id))) return refusal(429, POST_MESSAGES.editQuota);
  const base = readBaseRevision(form);
  const summary = restoredSummary(formatDateTime(createdAt));
  const image = { key: revision.image, width: revision.imageWidth, height: revision.imageHeight, pending: false };
  const change = { title, content, contentSource, sources, period, tags, image };
  if (base !== null && writeRevision(permission, change, { summary, logAs: "restoreArticle", detail: `verzia ${number}`, base }) === true) return { ok: true };
  return refusal(base === null ? 400 : 409, base === null ? REVISION_MESSAGES.staleRestore : whyNotRestored(permission.post.id, base));
}

/** Why a restore was not made: the article was saved since its confirmation was shown. */
function whyNotRestored(postId: string, base: number): string {
  const [last] = listRevisions(postId, { offset: 0, limit: 1 });
  return restoreConflictMessage(last.number - base, last.hidden.editor ? HIDDEN_PART_WORDS.editor : last.editorName, formatDateTime(last.createdAt));
}
