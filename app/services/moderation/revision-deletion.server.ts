import { inTransaction, sqlite } from "~/db/connection.server";
import { MODERATION_MESSAGES } from "~/lib/moderation/moderation";
import { REVISION_PART_LABELS, REVISION_PARTS, revisionCount, type RevisionPart } from "~/lib/revisions";
import { insertDecision } from "~/models/decisions.server";
import { getPost } from "~/models/posts.server";
import { countRevisions, eraseRevisionParts, getRevision, setRevisionsHidden, type StoredRevision } from "~/models/revisions.server";
import { getUserById, hasActiveAdminBesides } from "~/models/users.server";
import { readReason, type DecisionResult } from "./moderation-decisions.server";
import { logModeration, type Actor } from "~/services/platform/moderation-log.server";
import { mailStatementOfReasons } from "./moderation-mail.server";

/**
 * Revision deletion, as wikis have it: an admin hides parts of old
 * revisions of an article (the text, the summary, the editor's name) from
 * everyone but admins, shows them again, or erases what is hidden for good
 * (personal data that must go). The history keeps each row, its date and
 * size. Each is a moderation decision with a reason: a row of
 * moderation_decisions per editor whose words it touches (their statement of
 * reasons, which they may contest), the public log's entry, the admins' log.
 * The current revision is changed by editing, never hidden.
 */

export type RevisionDecision = "hideRevision" | "eraseRevision" | "showRevision";

/** At most this many revisions in one decision (the history shows 50 a page). */
const REVISIONS_PER_DECISION = 50;

const refuse = (status: number, error: string, invalid?: string[]): DecisionResult => ({ ok: false, status, error, invalid });

/** What the decision's row keeps of the revisions it concerns (to undo it on a granted appeal). */
export type DecidedRevisions = { revisions: { id: string; number: number }[]; parts: RevisionPart[] };

/** "verzie 2, 3 (text, popis zmeny)": what a decision on revisions concerns, as the statement and the public log name it. */
export function revisionsWords({ revisions, parts }: DecidedRevisions): string {
  const numbers = revisions.map((r) => r.number).sort((a, b) => a - b);
  const which = numbers.length === 1 ? `verzia ${numbers[0]}` : `verzie ${numbers.join(", ")}`;
  return `${which} (${parts.map((part) => REVISION_PART_LABELS[part].replace(/ \(.*\)$/, "")).join(", ")})`;
}

/**
 * Decide on old revisions of an article from the history's form: `revision`
 * (repeated), `part` (repeated: text, summary, editor), `reason`. Erasing
 * hides the chosen parts and erases them in one step.
 */
export function decideOnRevisions(actor: Actor, postId: string, action: RevisionDecision, form: FormData): DecisionResult {
  const post = getPost(postId);
  if (!post) return refuse(404, "Takýto článok neexistuje.");
  const ids = [...new Set(form.getAll("revision").map(String))];
  const parts = REVISION_PARTS.filter((part) => form.getAll("part").includes(part));
  if (ids.length === 0) return refuse(400, MODERATION_MESSAGES.noRevisionChosen, ["revision"]);
  if (ids.length > REVISIONS_PER_DECISION) return refuse(400, MODERATION_MESSAGES.tooManyRevisions, ["revision"]);
  if (parts.length === 0) return refuse(400, MODERATION_MESSAGES.noPartChosen, ["part"]);
  const revisions = ids.map((id) => getRevision(post.id, id));
  if (revisions.some((revision) => revision === undefined)) return refuse(404, "Taká verzia článku neexistuje.");
  const chosen = revisions as StoredRevision[];
  const current = countRevisions(post.id);
  if (action !== "showRevision" && chosen.some((revision) => revision.number === current)) return refuse(400, MODERATION_MESSAGES.currentRevision, ["revision"]);
  // One's own article, or one's own words: another admin decides, when there is one.
  const own = actor !== "command line" && (post.authorId === actor.id || chosen.some((revision) => revision.editorId === actor.id));
  if (own && hasActiveAdminBesides([(actor as { id: string }).id])) return refuse(403, MODERATION_MESSAGES.ownRevisions);
  const reason = readReason(form);
  if (typeof reason !== "string") return reason;

  // One decision per editor whose words it touches: each gets one statement of reasons for theirs.
  const byEditor = new Map<string | null, StoredRevision[]>();
  for (const revision of chosen) {
    const editor = revision.editorId !== null && getUserById(revision.editorId) ? revision.editorId : null;
    byEditor.set(editor, [...(byEditor.get(editor) ?? []), revision]);
  }
  const now = Date.now();
  const run = () =>
    inTransaction(() => {
      let changed = 0;
      for (const [editorId, group] of byEditor) {
        const groupIds = group.map((revision) => revision.id);
        const done =
          action === "eraseRevision" ? eraseRevisionParts(post.id, groupIds, parts, now) : setRevisionsHidden(post.id, groupIds, parts, action === "showRevision" ? null : now);
        if (done === 0) continue;
        changed += group.length;
        record(actor, post, action, reason, editorId, { revisions: group.map(({ id, number }) => ({ id, number })), parts });
      }
      return changed;
    });
  // Erasing overwrites the freed bytes in the database file too (not in older backups: docs/operations says so).
  const changed = action === "eraseRevision" ? withSecureDelete(run) : run();
  if (changed === 0) return refuse(409, "Vybrané verzie už sú v tomto stave.");
  const what = action === "showRevision" ? "Znova zobrazené" : action === "eraseRevision" ? "Natrvalo vymazané" : "Skryté";
  return { ok: true, decided: changed, message: `${what}: ${revisionCount(changed)}.` };
}

function withSecureDelete<T>(work: () => T): T {
  sqlite.pragma("secure_delete = ON");
  try {
    return work();
  } finally {
    sqlite.pragma("secure_delete = OFF");
  }
}

/** The decision's row, the editor's statement when it restricts another person's words, and the admins' log entry; in the caller's transaction. */
function record(actor: Actor, post: NonNullable<ReturnType<typeof getPost>>, action: RevisionDecision, reason: string, editorId: string | null, decided: DecidedRevisions): void {
  const editor = editorId === null ? undefined : getUserById(editorId);
  const restricts = action !== "showRevision" && editor !== undefined && (actor === "command line" || editor.id !== actor.id);
  const decision = {
    createdAt: Date.now(),
    action,
    postId: post.id,
    postTitle: post.title,
    userId: restricts ? editor!.id : null,
    ground: "initiative",
    groundDetail: revisionsWords(decided),
    reason,
    deciderId: actor === "command line" ? null : actor.id,
    revisions: JSON.stringify(decided),
  };
  insertDecision(decision);
  if (restricts) mailStatementOfReasons(editor!.email, decision);
  logModeration(actor, action, { post, user: editor, detail: `${revisionsWords(decided)}. ${reason}` });
}

/** Undo a decision that hid parts of revisions (a granted appeal): what was erased cannot come back. */
export function showRevisionsAgain(postId: string, stored: string | null): void {
  if (!stored) return;
  const { revisions, parts } = JSON.parse(stored) as DecidedRevisions;
  setRevisionsHidden(
    postId,
    revisions.map((r) => r.id),
    parts,
    null,
  );
}
