import { DRAFT_MESSAGES, DRAFTS_PER_ACCOUNT, formIntent, type ArticlePreview, type DraftNotice } from "~/lib/drafts";
import type { Notice } from "~/lib/notices";
import { checkForm, DRAFT_FIELDS, draftSchema, editsTags, formProblem } from "~/lib/forms";
import { BUSY_FORM_MESSAGE, BUSY_MESSAGE, POST_MESSAGES, typedFields, typedText } from "~/lib/rules";
import { tidyPeriod } from "~/lib/time/periods";
import { sourcesFrom } from "~/lib/sources";
import { inTransaction } from "~/db/connection.server";
import { countDraftsOf, deleteDraft, getDraft, rebaseDraft, writeDraft, type Draft, type DraftImage } from "~/models/drafts.server";
import { markImageLoose } from "~/models/loose-images.server";
import { getPendingImage } from "~/models/pending-images.server";
import { getPost } from "~/models/posts.server";
import { countRevisions } from "~/models/revisions.server";
import { deleteImage } from "~/services/images/images.server";
import type { PostFormRead } from "./post-upload.server";
import {
  acceptImage,
  keepPending,
  keptValues,
  mayChangePost,
  publishPost,
  refusal,
  savePost,
  storedContent,
  type ChangePermission,
  type DraftToPublish,
  type PostFormInput,
  type PostRefusal,
  type PostResult,
  type PostValues,
} from "./posts.server";
import type { CurrentUser } from "~/lib/types";
import { ifStorageFails, onForm, type StorageFault } from "~/services/platform/storage-fault.server";
import { editAttempts, previewAttempts, release, reserve } from "~/services/platform/throttle.server";

/**
 * Drafts and previews. A draft is private to its author (an admin may read
 * it, nobody else learns it exists: 404); only its author saves, publishes
 * or deletes it. Saving needs only a title (~/lib/forms draftSchema) and
 * counts as an edit; publishing goes through the posts service's own paths
 * (publishPost for a new article, savePost for a pending edit), with every
 * rule of the create and edit forms. A preview sanitises the body as
 * publishing would and saves nothing a reader sees.
 */

/** A draft form as sent: the create form's fields and, for a pending edit, the summary. */
export type DraftInput = PostFormInput & { summary: string };

/** What a draft form shows again: the create form's values and the summary. */
export type DraftValues = PostValues & { summary: string };

export type DraftRefusal = PostRefusal & { values: DraftValues };

function refuse(status: number, error: string, invalid: PostRefusal["invalid"], values: DraftValues): DraftRefusal {
  return { ...refusal(status, error, invalid), values };
}

// ---------------------------------------------------------------- who

/** A draft its reader may see: its author, or an admin (who may only read it). */
export type DraftAccess = { draft: Draft; user: CurrentUser; own: boolean };

/** The draft, if `user` may see it; undefined (answered as 404, the same as a missing id) for anyone else. */
export function mayOpenDraft(user: CurrentUser | null, id: string): DraftAccess | undefined {
  const draft = getDraft(id);
  if (!draft || !user || (draft.authorId !== user.id && !user.isAdmin)) return undefined;
  return { draft, user, own: draft.authorId === user.id };
}

/** Leave to change a draft: only its author's. */
function mayChangeDraft(access: DraftAccess | undefined): PostRefusal | null {
  if (!access) return refusal(404, "");
  return access.own ? null : refusal(403, DRAFT_MESSAGES.notAuthor);
}

// ---------------------------------------------------------------- images

/**
 * The image a draft form brings: a file sent with it (checked and kept as a
 * pending upload, like a refused create form keeps it), one sent earlier
 * (this user's pending upload), or none (the draft keeps its own; its own
 * key, sent back by the form, is no new image).
 */
async function formImage(
  userId: string,
  input: DraftInput,
  own: string | null,
  values: DraftValues,
): Promise<{ ok: true; image: DraftImage | null } | DraftRefusal> {
  if (input.image) {
    const accepted = await acceptImage(userId, input.image);
    if (!accepted.ok) return refuse(accepted.status, accepted.error, accepted.invalid, values);
    values.pendingImage = keepPending(accepted.image, userId);
    return { ok: true, image: accepted.image };
  }
  if (!input.pendingImage || input.pendingImage === own) return { ok: true, image: null };
  const pending = getPendingImage(input.pendingImage, userId);
  if (!pending) return refuse(400, POST_MESSAGES.pendingImageGone, ["image"], { ...values, pendingImage: "" });
  return { ok: true, image: pending };
}

function valuesOf(input: DraftInput): DraftValues {
  const { title, content, sources, period, tags, pendingImage, summary } = input;
  return { title, content, sources, period, tags, pendingImage, summary };
}

// ---------------------------------------------------------------- save

/** What a draft is of: a new article, or a pending edit of this article from this revision. */
export type DraftTarget = { postId: string; baseRevision: number } | null;

/**
 * Save a draft for `user`: a new one (of a new article, or a pending edit of
 * `target`), or `access`'s draft again. Only the title is required; the
 * other fields are bounded as the forms bound them. At most
 * DRAFTS_PER_ACCOUNT drafts; each save counts as an edit.
 */
export async function saveDraft(
  user: CurrentUser,
  input: DraftInput,
  to: { access: DraftAccess } | { target: DraftTarget },
): Promise<PostResult<{ id: string }> | DraftRefusal> {
  const access = "access" in to ? to.access : undefined;
  const forbidden = access && mayChangeDraft(access);
  if (forbidden) return forbidden;
  const values = valuesOf(input);
  const checked = checkDraft(input);
  if (!checked.ok) return refuse(400, checked.error, checked.invalid, values);
  // Asked first so that a full account costs no upload; asked again as the draft is written.
  if (!access && countDraftsOf(user.id) >= DRAFTS_PER_ACCOUNT) return refuse(400, DRAFT_MESSAGES.tooMany, [], values);
  const edit = editAttempts(user.id);
  if (!reserve(edit)) return refuse(429, POST_MESSAGES.editQuota, [], values);

  const image = await formImage(user.id, input, access?.draft.imageKey ?? null, values);
  if (!image.ok) {
    release(edit);
    return image;
  }
  const target = "target" in to ? to.target : null;
  const fields = { title: checked.title, content: input.content, sources: input.sources, period: input.period, tags: input.tags, summary: checked.summary };
  const draft = access ? { id: access.draft.id, authorId: user.id } : { authorId: user.id, postId: target?.postId, baseRevision: target?.baseRevision };
  const written = writeDraft(draft, fields, image.image, DRAFTS_PER_ACCOUNT);
  if (written === "full") {
    release(edit);
    return refuse(400, DRAFT_MESSAGES.tooMany, [], values);
  }
  // The pending image was cleaned up (or the draft deleted in another tab) meanwhile.
  if (!written) return access && !getDraft(access.draft.id) ? refusal(404, "") : refuse(400, POST_MESSAGES.pendingImageGone, ["image"], { ...values, pendingImage: "" });
  if (written.replacedImage) await deleteImage(written.replacedImage);
  return { ok: true, id: written.id };
}

/** The draft rules (~/lib/forms draftSchema): the checked title and summary, or the first broken rule. */
function checkDraft(input: DraftInput): { ok: true; title: string; summary: string } | { ok: false; error: string; invalid: PostRefusal["invalid"] } {
  const form = new FormData();
  for (const name of ["title", "content", "sources", "period", "summary"] as const) form.set(name, input[name]);
  for (const tag of input.tags) form.append("tags", tag);
  const checked = checkForm(draftSchema, form);
  if (checked.ok) return { ok: true, title: checked.value.title, summary: checked.value.summary };
  const problem = formProblem(checked.errors, DRAFT_FIELDS, DRAFT_MESSAGES.titleMissing)!;
  return { ok: false, error: problem.message, invalid: problem.invalid };
}

/** The revision a pending edit of `postId` starts from: the one the edit form was opened on (its `baseRevision`), else the current one. */
export function editTarget(postId: string, baseRevision: FormDataEntryValue | null): DraftTarget {
  const current = countRevisions(postId);
  const sent = Number(baseRevision);
  return { postId, baseRevision: Number.isInteger(sent) && sent >= 1 && sent <= current ? sent : current };
}

// ---------------------------------------------------------------- preview

/**
 * The article as readers would see it, from the form as typed: the body
 * sanitised by the same worker as a published one, the sources numbered,
 * the image (a new file is kept as a pending upload, so the form need not
 * send it again). `fixed` is the image shown when the form brings none
 * (the draft's own, or the article's). Nothing else is stored.
 * Bounded by the draft rules and PREVIEWS_PER_HOUR.
 */
export async function previewArticle(
  user: CurrentUser,
  input: DraftInput,
  fixed: { image: DraftImage | null },
): Promise<{ ok: true; preview: ArticlePreview; values: DraftValues } | DraftRefusal> {
  const values = valuesOf(input);
  const checked = checkDraft(input);
  if (!checked.ok) return refuse(400, checked.error, checked.invalid, values);
  const quota = previewAttempts(user.id);
  if (!reserve(quota)) return refuse(429, DRAFT_MESSAGES.previewQuota, [], values);
  const image = await formImage(user.id, input, fixed.image?.key ?? null, values);
  if (!image.ok) return image;
  const content = await storedContent(input.content, "a preview");
  if (!content.ok) {
    release(quota);
    return refuse(content.status, content.error, content.invalid, values);
  }
  const preview = {
    title: checked.title,
    content: content.html,
    sources: sourcesFrom(input.sources),
    period: tidyPeriod(input.period),
    tags: input.tags,
    image: image.image ? { key: image.image.key, width: image.image.width, height: image.image.height } : fixed.image,
  };
  return { ok: true, preview, values };
}

/** A draft's own image, as the preview and the publish use it. */
export function imageOf(draft: Draft): DraftImage | null {
  return draft.imageKey ? { key: draft.imageKey, width: draft.imageWidth!, height: draft.imageHeight! } : null;
}

// ---------------------------------------------------------------- publish and delete

/**
 * Publish a draft with the form's values as they are now: a new article
 * with every rule of the create form (publishPost; the draft's row goes in
 * the article's transaction, its image becomes the article's unless the
 * form brings another); a pending edit as the article's next revision
 * (savePost, with its summary and the revision it started from). Refused,
 * the draft stays as it was saved. Answers the article's id.
 */
export async function publishDraft(access: DraftAccess | undefined, input: DraftInput): Promise<PostResult<{ postId: string }> | DraftRefusal> {
  const forbidden = mayChangeDraft(access);
  if (forbidden || !access) return forbidden ?? refusal(404, "");
  const { draft, user } = access;
  const values = valuesOf(input);
  if (draft.postId) {
    const permission = mayChangePost(user, draft.postId);
    if (!permission.ok) return permission;
    return publishEdit(permission, draft, input, values);
  }
  const removal = draftRemoval(draft);
  const published = await publishPost(user.id, { ...input, pendingImage: newPendingImage(draft, input) }, removal);
  // Refused, the form shows the image it will publish with: a new one kept as a pending upload, else the draft's own.
  if (!published.ok) return { ...published, values: { ...values, ...published.values, pendingImage: published.values?.pendingImage || (draft.imageKey ?? "") } };
  await removal.removeReplaced();
  return { ok: true, postId: published.id };
}

/** A pending edit published: the article's next revision, with its tags and (a new one, or the draft's) image. */
async function publishEdit(permission: ChangePermission, draft: Draft, input: DraftInput, values: DraftValues): Promise<PostResult<{ postId: string }> | DraftRefusal> {
  const form = new FormData();
  for (const name of ["title", "content", "sources", "period", "summary"] as const) form.set(name, input[name]);
  form.set("baseRevision", String(draft.baseRevision ?? ""));
  form.set("withTags", "1");
  for (const tag of input.tags) form.append("tags", tag);
  form.set("pendingImage", newPendingImage(draft, input));
  const removal = draftRemoval(draft);
  const saved = await savePost(permission, form, input.image, removal);
  // Others saved since the draft's base: the answer shows the difference, and the next publish is based on what it showed (as the edit form's is).
  if (!saved.ok && saved.status === 409 && saved.conflict) rebaseDraft(draft.id, saved.conflict.base);
  // Refused, the form shows the image it will publish with: a new one kept as a pending upload, else the draft's own.
  if (!saved.ok) return { ...saved, values: { ...values, pendingImage: saved.pendingImage || (draft.imageKey ?? "") } };
  await removal.removeReplaced();
  return { ok: true, postId: permission.post.id };
}

/** The form's image sent ahead, unless it is the draft's own (sent back by the form): that is no new image. */
function newPendingImage(draft: Draft, input: DraftInput): string {
  return input.pendingImage === draft.imageKey ? "" : input.pendingImage;
}

/**
 * A published draft's row, removed in the article's transaction; its image
 * goes with it unless the article took it (marked loose there, its files
 * removed after the commit by `removeReplaced`).
 */
function draftRemoval(draft: Draft): DraftToPublish & { removeReplaced: () => Promise<void> } {
  let replaced: string | null = null;
  return {
    image: imageOf(draft),
    remove: (usedImage) => {
      const image = deleteDraft(draft.id);
      if (image === undefined) return false;
      if (image && image !== usedImage) markImageLoose((replaced = image));
      return true;
    },
    removeReplaced: async () => {
      if (replaced) await deleteImage(replaced);
    },
  };
}

/** Delete a draft and its image's files (marked loose with the row's removal, as an article's are). */
export async function removeDraft(access: DraftAccess | undefined): Promise<PostResult> {
  const forbidden = mayChangeDraft(access);
  if (forbidden || !access) return forbidden ?? refusal(404, "");
  const image = inTransaction(() => {
    const image = deleteDraft(access.draft.id);
    if (image) markImageLoose(image);
    return image;
  });
  if (image) await deleteImage(image);
  return { ok: true };
}

// ---------------------------------------------------------------- the forms' buttons

/** The word said where a form's redirect leads: the article page's toast, or the draft page's own. */
export type FormNotice = Notice | DraftNotice;

/** What a form with the three buttons gets: where to go (303) and the word to say there, a preview to show with the form (200), or a refusal. */
export type FormAnswer = { ok: true; redirect: string; notice: FormNotice } | { ok: true; preview: ArticlePreview; values: DraftValues } | DraftRefusal | PostRefusal;

function draftSaved(result: PostResult<{ id: string }> | DraftRefusal): FormAnswer {
  return result.ok ? { ok: true, redirect: `/drafts/${result.id}`, notice: "draftSaved" } : result;
}

/** The create form, or a draft's (`access`: a new article's, or a pending edit's), as read from its upload (post-upload.server.ts), by the button pressed. */
export async function answerArticleForm(user: CurrentUser, read: PostFormRead, access?: DraftAccess): Promise<FormAnswer> {
  // Cut off while reading (the image comes last), or sent whole: either way an image came with the form.
  const imageSent = read.input.image !== null || read.refusal !== undefined;
  return pickImageAgain(await answerReadForm(user, read, access), imageSent);
}

/**
 * A form with a new image told "busy" (503: the upload memory or the
 * decoder's queue full) without keeping the image: its text comes back,
 * and it says the image must be picked again (a storage fault says so itself: onForm).
 */
function pickImageAgain(answer: FormAnswer, imageSent: boolean): FormAnswer {
  if (answer.ok || answer.error !== BUSY_MESSAGE || !imageSent || answer.values?.pendingImage) return answer;
  return { ...answer, error: BUSY_FORM_MESSAGE, invalid: ["image"] };
}

async function answerReadForm(user: CurrentUser, read: PostFormRead, access?: DraftAccess): Promise<FormAnswer> {
  const input = { ...read.input, summary: "" };
  if (read.refusal) {
    const { status, error, invalid } = read.refusal;
    return refuse(status, error, invalid, { ...keptValues(user.id, read.input), summary: typedText(String(read.fields.get("summary") ?? "")) });
  }
  if (access && isEditDraftForm(access.draft, read.fields)) return answerEditDraftForm(access, read.fields, read.input.image);
  const intent = formIntent(read.intent);
  // The storage failing under any button: the form again, as typed (an image not yet kept must be picked again).
  const failed = (fault: StorageFault): FormAnswer => {
    const { status, error } = onForm(fault, { image: read.input.image !== null });
    return refuse(status, error, read.input.image ? ["image"] : [], { ...keptValues(user.id, read.input), summary: "" });
  };
  return ifStorageFails(async (): Promise<FormAnswer> => {
    if (intent === "draft") return draftSaved(await saveDraft(user, input, access ? { access } : { target: null }));
    if (intent === "preview") return previewArticle(user, input, { image: access ? imageOf(access.draft) : null });
    const published = access ? await publishDraft(access, input) : await publishPost(user.id, input);
    // A pending edit's draft published saves the article's changes; any other publishes an article.
    if (!published.ok) return published;
    return "postId" in published ? { ok: true, redirect: `/posts/${published.postId}`, notice: access?.draft.postId ? "saved" : "published" } : { ok: true, redirect: `/posts/${published.id}`, notice: "published" };
  }, failed);
}

/**
 * Whether a draft was a pending edit whose article has been deleted since:
 * deleting an article leaves its pending edits as new articles' drafts
 * (post_id set to null), and their base revision tells them from drafts
 * that were new articles from the start.
 */
export function isOrphanedEdit(draft: Draft): boolean {
  return draft.postId === null && draft.baseRevision !== null;
}

/**
 * Whether a draft's form is a pending edit's: the draft of one, or of one
 * whose article was deleted since its page was opened (that page's form
 * says it edits tags; the page of such a draft opened later is the create form's).
 */
export function isEditDraftForm(draft: Draft, form: FormData): boolean {
  return draft.postId !== null || (isOrphanedEdit(draft) && editsTags(form));
}

/** A pending edit's draft page (also the one of an edit whose article was deleted since the page was opened), by the button pressed; `image`: a new image's bytes. */
export async function answerEditDraftForm(access: DraftAccess, form: FormData, image: Uint8Array | null = null): Promise<FormAnswer> {
  const postId = access.draft.postId;
  const post = postId ? getPost(postId) : undefined;
  const input = editInput(form, image, access.draft.tags.length > 0 ? access.draft.tags : (post?.tags ?? []));
  const intent = formIntent(form.get("intent"));
  return ifStorageFails(async (): Promise<FormAnswer> => {
    // Its article deleted while the page was open: whatever the button, the text is kept as the new article's draft it now is.
    if (!post) return keepAsNewArticle(access.user, input, { access });
    if (intent === "draft") return draftSaved(await saveDraft(access.user, input, { access }));
    if (intent === "preview") return previewArticle(access.user, input, { image: imageOf(access.draft) ?? { key: post.image, width: post.imageWidth, height: post.imageHeight } });
    const published = await publishDraft(access, input);
    // Deleted between the check above and the publish.
    if (!published.ok && published.status === 404 && !getPost(post.id)) return keepAsNewArticle(access.user, input, { access });
    return published.ok ? { ok: true, redirect: `/posts/${published.postId}`, notice: "saved" } : published;
  }, keptEdit(input, access.draft.imageKey));
}

/**
 * The article's edit form sent after the article was deleted (by its
 * author in another tab, or an admin): a save, "Uložiť koncept" or
 * "Náhľad" keeps what was typed as a new article's draft of `user`, as
 * deleting an article keeps its pending edits. Also answers a form sent to
 * a hidden article by someone who may not see it, or to an id that never
 * existed, which must look alike.
 */
export async function answerEditFormOfGoneArticle(user: CurrentUser, form: FormData, image: Uint8Array | null): Promise<FormAnswer> {
  const input = editInput(form, image, []);
  return ifStorageFails(() => keepAsNewArticle(user, input, { target: null }), keptEdit(input));
}

/**
 * What was typed into a pending edit whose article is gone, saved as (or
 * into) a new article's draft without the edit's summary; the draft's page
 * then says so. When the draft rules refuse it (no title, the drafts' cap,
 * the limit of edits), the form comes back as typed, saying both.
 */
async function keepAsNewArticle(user: CurrentUser, input: DraftInput, to: { access: DraftAccess } | { target: null }): Promise<FormAnswer> {
  const typed = { ...input, summary: "" };
  const saved = await saveDraft(user, typed, to);
  if (saved.ok) return { ok: true, redirect: `/drafts/${saved.id}`, notice: "articleGone" };
  const values = "values" in saved ? saved.values : valuesOf(typed);
  return { ...saved, error: [DRAFT_MESSAGES.articleGoneNotSaved, saved.error].filter(Boolean).join(" "), values };
}

/**
 * The article's edit form's "Uložiť koncept" and "Náhľad" (`image`: a new
 * image's bytes): a pending edit kept as a draft, with its tags and new
 * image, or previewed; the article stays as readers see it.
 */
export async function answerEditForm({ post, user }: ChangePermission, form: FormData, intent: "draft" | "preview", image: Uint8Array | null): Promise<FormAnswer> {
  const input = editInput(form, image, post.tags);
  return ifStorageFails(async () => {
    if (intent === "draft") return draftSaved(await saveDraft(user, input, { target: editTarget(post.id, form.get("baseRevision")) }));
    // Without a new image, the article's layer shows its own right above the preview.
    return previewArticle(user, input, { image: null });
  }, keptEdit(input));
}

/** An edit form shown again as typed when the storage fails under it: a new image must be picked again; a draft's `own` stays. */
function keptEdit({ title, content, sources, period, summary, tags, image, pendingImage }: DraftInput, own: string | null = null) {
  const kept = own !== null && pendingImage === own ? own : "";
  const imageSent = image !== null || (pendingImage !== "" && !kept);
  return (fault: StorageFault): FormAnswer => {
    const { status, error } = onForm(fault, { image: imageSent });
    return refuse(status, error, imageSent ? ["image"] : [], { title, content, sources, period, summary, tags, pendingImage: kept });
  };
}

/** An edit form's fields as a draft's input: its tags when it brings them (editsTags), else `tags`; a new image's bytes, or one sent ahead. */
function editInput(form: FormData, image: Uint8Array | null, tags: string[]): DraftInput {
  return {
    ...typedFields(form, ["title", "content", "sources", "period", "summary", "pendingImage"]),
    tags: editsTags(form) ? form.getAll("tags").map(String) : tags,
    image,
  };
}
