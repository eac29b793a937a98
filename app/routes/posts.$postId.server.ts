import { data } from "@remix-run/node";
import { env } from "~/config/env.server";
import type { ArticlePreview } from "~/lib/drafts";
import { listHref, readListState } from "~/lib/links";
import type { EditConflict } from "~/lib/revisions";
import { editsTags } from "~/lib/forms";
import { canModify, typedFields, typedText } from "~/lib/rules";
import { editableText } from "~/lib/text/article-markup";
import type { CurrentUser } from "~/lib/types";
import { getContentSource } from "~/models/posts.server";
import { countRevisions } from "~/models/revisions.server";
import { answerEditForm, answerEditFormOfGoneArticle, type FormNotice } from "~/services/articles/drafts.server";
import { isMultipartUpload, withUploadedForm } from "~/services/articles/post-upload.server";
import { mayChangePost, readablePost, refusal, removePost, savePost, type ChangePermission, type PostField, type PostRefusal } from "~/services/articles/posts.server";
import { articleNeighbours } from "~/services/articles/timeline.server";
import { changeVisibility, HIDDEN_PAGE_HEADERS, isVisibilityIntent } from "~/services/moderation/hidden-articles.server";
import { deletePostAsModerator } from "~/services/moderation/moderation-decisions.server";
import { passageFlagsFor } from "~/services/moderation/reports.server";
import { retryAfter } from "~/services/platform/concurrency.server";
import { readForm } from "~/services/platform/forms.server";
import { redirectWithNotice } from "~/services/platform/notice.server";
import { getCurrentUser } from "~/services/platform/session.server";
import { asRefusal, ifStorageFails, onForm } from "~/services/platform/storage-fault.server";

/** The article page's server side: what its loader reads, and what its action does with the edit, delete, draft, preview and visibility forms. */

/** The article page's data: the article as this reader may see it, with its edit count, flags, neighbours and the list it was opened from. */
export async function articlePage(request: Request, postId: string) {
  const user = await getCurrentUser(request);
  const post = readablePost(postId, user);
  if (!post) throw data(null, { status: 404 });
  const { searchParams } = new URL(request.url);
  const { tag, limit, q, period } = readListState(searchParams);
  // Hidden: only its author and admins get here (readablePost); nothing may keep or index their page.
  const hidden = post.hiddenAt !== null ? { own: user?.id === post.authorId } : null;
  // On the edit form of whoever may edit it: the text as its author wrote it, and the open "Zdroj?" flags of its passages.
  const editing = searchParams.has("edit") && canModify(user, post);
  const flags = editing ? passageFlagsFor(user, post) : [];
  const editable = editing ? editableText(post.content, getContentSource(post.id)) : null;
  // Revision 1 is the article as published: the edits are the revisions after it.
  const neighbours = articleNeighbours(post);
  const page = { post, list: { tag, limit, q, period }, publicUrl: env.publicUrl, edits: countRevisions(post.id) - 1, hidden, flags, neighbours, editable };
  return hidden ? data(page, { headers: HIDDEN_PAGE_HEADERS }) : page;
}

/**
 * Save or delete the article (its author or an admin; the posts service
 * decides). Without `confirm=yes` a delete answers with the confirmation
 * step (the no-JavaScript path). The edit form is multipart (it may bring a
 * new image); the other buttons' forms are urlencoded.
 */
export async function changeArticle(request: Request, postId: string) {
  const user = await getCurrentUser(request);
  const permission = mayChangePost(user, postId);
  if (!permission.ok && permission.status === 404) return keptFromGoneArticle(user, request);
  if (!permission.ok) return refused(permission);
  if (isMultipartUpload(request)) {
    return withUploadedForm(permission.user.id, request, (read) =>
      read.refusal ? Promise.resolve(refused(read.refusal, editedValues(read.fields))) : answerChange(permission, request, read.fields, read.input.image),
    );
  }
  return answerChange(permission, request, await readForm(request), null);
}

/** changeArticle's answer to the form as read (`image`: a new image's bytes, sent with the edit form). */
async function answerChange(permission: ChangePermission, request: Request, form: FormData, image: Uint8Array | null) {
  const url = new URL(request.url);
  const intent = form.get("intent");
  // An admin hides the article or shows it again (hidden-articles.server.ts refuses anyone else).
  if (isVisibilityIntent(intent)) {
    const decided = await ifStorageFails(() => changeVisibility(permission.user, permission.post.id, intent, form), (fault) => asRefusal(onForm(fault)));
    if (decided.ok) return redirectWithNotice(`${url.pathname}${url.search}`, intent === "hide" ? "hidden" : "shown");
    // Not an admin (the author): there is no form to show again.
    if (decided.status === 403) return data({ ...NOTHING_TO_SHOW, error: decided.error }, { status: 403 });
    const visibility = { error: decided.error, reason: typedText(String(form.get("reason") ?? "")) };
    return data({ ...NOTHING_TO_SHOW, visibility }, { status: decided.status, headers: retryAfter(decided.status) });
  }
  if (intent === "delete" && form.get("confirm") !== "yes") return { ...NOTHING_TO_SHOW, confirmDelete: true };
  // An admin deleting someone else's article decides: with a reason, the author's statement of reasons (its reports upheld with it).
  if (intent === "delete" && permission.user.id !== permission.post.authorId) {
    const decided = await ifStorageFails(() => deletePostAsModerator(permission.user, permission.post.id, form), (fault) => asRefusal(onForm(fault)));
    if (decided.ok) return redirectWithNotice(listHref(readListState(url.searchParams)), "deleted");
    const deleteRefused = { error: decided.error, reason: typedText(String(form.get("reason") ?? "")) };
    return data({ ...NOTHING_TO_SHOW, confirmDelete: true, deleteRefused }, { status: decided.status, headers: retryAfter(decided.status) });
  }
  // A pending edit kept as a draft, or previewed: the article stays as readers see it.
  if (intent === "draft" || intent === "preview") {
    const answer = await answerEditForm(permission, form, intent, image);
    // A new image is kept as a pending upload (the answer's values name it), so it need not be picked again.
    const kept = "values" in answer ? answer.values?.pendingImage : undefined;
    if (!answer.ok) return refused({ ...answer, pendingImage: kept || answer.pendingImage }, editedValues(form));
    if ("redirect" in answer) return redirectWithNotice<FormNotice>(answer.redirect, answer.notice);
    return { ...NOTHING_TO_SHOW, values: { ...editedValues(form), pendingImage: kept ?? "" }, preview: answer.preview };
  }
  const result = await ifStorageFails(
    async () => (intent === "delete" ? await removePost(permission) : intent === "save" ? await savePost(permission, form, image) : null),
    (fault) => refusal(fault.status, (intent === "save" ? onForm(fault) : fault).error),
  );
  if (!result) return data(NOTHING_TO_SHOW, { status: 400 });
  // A refused edit shows the form again as it was typed.
  if (!result.ok) return refused(result, intent === "save" ? editedValues(form) : null);
  if (intent === "delete") return redirectWithNotice(listHref(readListState(url.searchParams)), "deleted");
  url.searchParams.delete("edit");
  return redirectWithNotice(`${url.pathname}${url.search}`, "saved");
}

/**
 * The edit form sent to an article that is gone (deleted while it was
 * open; hidden from this reader, or never there, look the same): what a
 * signed-in reader typed and saved, kept or previewed becomes a new
 * article's draft, shown with its message (303). Refused by the draft
 * rules, it answers 404 with the text for the error page to give back
 * (with JavaScript the edit form stays, with the message and the text).
 */
async function keptFromGoneArticle(user: CurrentUser | null, request: Request) {
  if (!user) throw data(null, { status: 404 });
  if (isMultipartUpload(request)) return withUploadedForm(user.id, request, (read) => keptFromForm(user, read.refusal ? null : read.fields, read.input.image));
  // The edit form's buttons send urlencoded forms too (an older page); anything else (or unreadable) is answered as before it was read.
  const urlencoded = request.headers.get("content-type")?.startsWith("application/x-www-form-urlencoded");
  return keptFromForm(user, urlencoded ? await readForm(request).catch(() => null) : null, null);
}

async function keptFromForm(user: CurrentUser, form: FormData | null, image: Uint8Array | null) {
  if (!form) throw data(null, { status: 404 });
  const intent = form.get("intent");
  // Only the edit form's own buttons (it always carries the revision it was opened at); anything else gets the plain 404.
  if ((intent !== "save" && intent !== "draft" && intent !== "preview") || !form.has("baseRevision")) throw data(null, { status: 404 });
  const kept = await answerEditFormOfGoneArticle(user, form, image);
  if (kept.ok && "redirect" in kept) return redirectWithNotice<FormNotice>(kept.redirect, kept.notice);
  return data({ ...NOTHING_TO_SHOW, error: kept.ok ? null : kept.error, values: editedValues(form), gone: true }, { status: 404 });
}

/** What a refused edit shows again, with the revision its form was opened at (a stale one's answer is based on the current). */
type EditedValues = { title: string; content: string; sources: string; period: string; summary: string; baseRevision: string; tags: string[] | null; pendingImage: string };

const NOTHING_TO_SHOW = {
  error: null,
  confirmDelete: false,
  invalid: [] as PostField[],
  values: null as EditedValues | null,
  conflict: null as EditConflict | null,
  preview: null as ArticlePreview | null,
  /** A refused hide or restore: why, and the reason as typed. */
  visibility: null as { error: string; reason: string } | null,
  /** An admin's refused delete of someone else's article (a reason is required): why, and the reason as typed. */
  deleteRefused: null as { error: string; reason: string } | null,
  /** The edit form of an article deleted meanwhile whose text could not be kept as a draft: the error page gives it back. */
  gone: false,
};

function editedValues(form: FormData): EditedValues {
  // The tags as ticked, when the form brings them (editsTags).
  return {
    ...typedFields(form, ["title", "content", "sources", "period", "summary", "baseRevision", "pendingImage"]),
    tags: editsTags(form) ? form.getAll("tags").map(String) : null,
  };
}

function refused({ status, error, invalid, conflict, pendingImage }: Pick<PostRefusal, "status" | "error" | "invalid" | "conflict" | "pendingImage">, values: EditedValues | null = null) {
  if (values && conflict) values.baseRevision = String(conflict.base);
  // A new image accepted while the rest was refused: kept, so it need not be picked again.
  if (values && pendingImage) values.pendingImage = pendingImage;
  return data({ ...NOTHING_TO_SHOW, error, invalid, values, conflict: conflict ?? null }, { status, headers: retryAfter(status) });
}
