import { data } from "@remix-run/node";
import { canModify } from "~/lib/rules";
import { historyPage, REVISION_PARTS, REVISIONS_PER_PAGE, withoutHiddenParts, type RevisionPart } from "~/lib/revisions";
import { countRevisions, listRevisions } from "~/models/revisions.server";
import { addressKey } from "~/services/platform/client-address.server";
import { BusyError, retryAfter } from "~/services/platform/concurrency.server";
import { readReason } from "~/services/moderation/moderation-decisions.server";
import type { readablePost } from "~/services/articles/posts.server";
import { decideOnRevisions, type RevisionDecision } from "~/services/moderation/revision-deletion.server";
import { compareRevisions, revisionFor, textErased } from "~/services/articles/revisions.server";
import type { CurrentUser } from "~/lib/types";

/** The history page's server side: what the address asks for, as this reader may see it, and the admins' decisions on revisions. */

type Post = NonNullable<ReturnType<typeof readablePost>>;

export function notFound(): never {
  throw data(null, { status: 404 });
}

/** Too many comparisons waiting for the diff worker (or this client's already): 503, come back in a moment. */
function busy(error: unknown): never {
  if (error instanceof BusyError) throw data(null, { status: 503, headers: retryAfter(503) });
  throw error;
}

/** The list, a comparison or an old revision, as the address asks; what moderation hid is left out for everyone but admins. */
export async function historyOf(post: Post, user: CurrentUser | null, query: URLSearchParams, client: string) {
  const article = { id: post.id, title: post.title, hidden: post.hiddenAt !== null };
  const isAdmin = user?.isAdmin ?? false;
  if (query.has("revision")) {
    const { revision, textHidden } = revisionFor(post.id, query.get("revision"), isAdmin) ?? notFound();
    const current = countRevisions(post.id);
    return {
      mode: "revision" as const,
      post: article,
      revision,
      textHidden,
      // Its own image, as it was then (none when its text is hidden from this reader).
      image: revision.image ? { key: revision.image, width: revision.imageWidth, height: revision.imageHeight } : null,
      current: revision.number === current,
      // A restore names the revision it was confirmed on, as an edit does.
      base: current,
      mayRestore: canModify(user, post) && !textHidden && !textErased(revision),
      mayModerate: isAdmin,
    };
  }
  if (query.has("from") || query.has("to")) {
    const comparison = await compareRevisions(post.id, query.get("from"), query.get("to"), { isAdmin, client: addressKey(client) }).catch(busy);
    if (comparison === undefined) notFound();
    return { mode: "compare" as const, post: article, comparison: comparison === "hidden" ? null : comparison };
  }
  const total = countRevisions(post.id);
  const pages = Math.max(1, Math.ceil(total / REVISIONS_PER_PAGE));
  const page = historyPage(query.get("page"), pages) ?? notFound();
  const revisions = listRevisions(post.id, { offset: (page - 1) * REVISIONS_PER_PAGE, limit: REVISIONS_PER_PAGE });
  return { mode: "list" as const, post: article, total, page, pages, revisions: isAdmin ? revisions : revisions.map(withoutHiddenParts), mayModerate: isAdmin };
}

const DECISIONS = new Set<string>(["hideRevision", "eraseRevision", "showRevision"]);

export function isRevisionDecision(intent: unknown): intent is RevisionDecision {
  return typeof intent === "string" && DECISIONS.has(intent);
}

/** What an admin chose and wrote in the form on revisions, to give it back with a refusal. */
export function typedModeration(form: FormData) {
  return {
    revisions: form.getAll("revision").map(String),
    parts: REVISION_PARTS.filter((part) => form.getAll("part").includes(part)) as RevisionPart[],
    reason: String(form.get("reason") ?? ""),
  };
}

/**
 * An admin's decision on revisions. Erasing is asked twice (it cannot be
 * undone): the first answer is the confirmation with what was chosen.
 */
export function decideFromForm(user: CurrentUser, postId: string, intent: RevisionDecision, form: FormData) {
  if (intent === "eraseRevision" && form.get("confirm") !== "yes") {
    const reason = readReason(form);
    const { revisions, parts } = typedModeration(form);
    if (typeof reason === "string" && revisions.length > 0 && parts.length > 0) return { ok: true as const, confirm: { revisions, parts, reason } };
  }
  const result = decideOnRevisions({ id: user.id, displayName: user.displayName }, postId, intent, form);
  return result.ok ? { ok: true as const, confirm: null } : result;
}
