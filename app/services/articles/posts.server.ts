import { tellNewArticle } from "./new-articles.server";
import { checkForm, EDIT_POST_FIELDS, editPostWithTagsSchema, editsTags, formProblem, NEW_POST_FIELDS, newPostSchema } from "~/lib/forms";
import { withoutControlCharacters } from "~/lib/text/text-controls";
import { BUSY_MESSAGE, canModify, CONTENT_STORED_MAX_BYTES, HISTORY_MAX_IMAGES, MESSAGES, POST_MESSAGES, utf8Length } from "~/lib/rules";
import { countHistoryImages } from "~/models/revisions.server";
import { markImageLoose } from "~/models/loose-images.server";
import { getPendingImage, insertPendingImage, takePendingImage, takeStalePendingImages, type PendingImage } from "~/models/pending-images.server";
import { inTransaction } from "~/db/connection.server";
import { deletePost, deletePostsOf, getPost, insertPost, insertPostFromPending, updatePost } from "~/models/posts.server";
import { BusyError } from "~/services/platform/concurrency.server";
import { excerptOf } from "~/lib/text/content-text";
import type { EditConflict } from "~/lib/revisions";
import { sourcesFrom, type Source } from "~/lib/sources";
import { ContentBoundsError, ContentProcessingError, toStoredContent } from "./content.server";
import { editConflict, isStale, readBaseRevision } from "./edit-conflict.server";
import { imageCostProblem } from "~/services/images/image-cost.server";
import { readImageHeader } from "~/services/images/image-header.server";
import { deleteImage, storeImage, type StoredImage } from "~/services/images/images.server";
import { DecodeTimeoutError, UndecodableImageError } from "~/services/images/image-encoding.server";
import { logModeration, type Actor } from "~/services/platform/moderation-log.server";
import { storageFault } from "~/services/platform/storage-fault.server";
import type { CurrentUser } from "~/lib/types";
import { editAttempts, newPostAttempts, release, reserve, uploadAttempts } from "~/services/platform/throttle.server";

/**
 * Every rule about an article: who may create, edit and delete it, the
 * checks of each field (the shared schemas of ~/lib/forms, then what only
 * the server can judge: the image's bytes, the quotas, the sanitiser), and
 * what happens to its image files. Each operation answers with a
 * PostResult; routes only turn requests into calls and results into responses.
 */

const PENDING_LIFETIME = 24 * 60 * 60 * 1000;

export type PostField = "title" | "period" | "content" | "image" | "tags" | "sources" | "summary";

/** What the create form shows again; the image as its pending key, so it need not be picked again. */
export type PostValues = { title: string; content: string; sources: string; period: string; tags: string[]; pendingImage: string };

/** Refused: the status to answer, the message to show, the fields to mark (and, for the create form, what it shows again; for a stale edit, what changed since). */
export type PostRefusal = {
  ok: false;
  status: number;
  error: string;
  invalid: PostField[];
  values?: PostValues;
  conflict?: EditConflict;
  /** An edit's new image, kept for the next attempt. */
  pendingImage?: string;
};
export type PostResult<T extends object = object> = ({ ok: true } & T) | PostRefusal;

export function refusal(status: number, error: string, invalid: PostField[] = [], values?: PostValues): PostRefusal {
  return { ok: false, status, error, invalid, ...(values && { values }) };
}

/** The create form as sent (see post-upload.server.ts). */
export type PostFormInput = {
  title: string;
  content: string;
  /** One per line, as typed (~/lib/sources). */
  sources: string;
  /** The period the article treats, as typed (~/lib/time/periods); may be empty. */
  period: string;
  tags: string[];
  /** A newly uploaded file, as sent. */
  image: Uint8Array | null;
  /** An image uploaded earlier (a refused form, or sent ahead by JavaScript). */
  pendingImage: string;
};

// ---------------------------------------------------------------- images

/**
 * Check an uploaded image's bytes and store it re-encoded for `userId`.
 * Refused: wrong type, too large to decode (judged by the header, before
 * decoding), over the author's upload quota (429), a busy server (503), or
 * a failure of the store.
 */
export async function acceptImage(userId: string, bytes: Uint8Array): Promise<PostResult<{ image: StoredImage }>> {
  const header = readImageHeader(bytes);
  if (!header) return refusal(400, MESSAGES.imageType, ["image"]);
  const costProblem = imageCostProblem(header);
  if (costProblem) return refusal(400, costProblem, ["image"]);
  // Counted once it reaches the decoder, whatever comes of it.
  const upload = uploadAttempts(userId);
  if (!reserve(upload)) return refusal(429, POST_MESSAGES.uploadQuota, ["image"]);
  try {
    return { ok: true, image: await storeImage(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)) };
  } catch (error) {
    // Bytes that start like an image but do not decode are not an image either.
    if (error instanceof DecodeTimeoutError) return refusal(400, POST_MESSAGES.imageTooCostly, ["image"]);
    if (error instanceof UndecodableImageError) return refusal(400, MESSAGES.imageType, ["image"]);
    if (error instanceof BusyError) {
      release(upload);
      return refusal(503, BUSY_MESSAGE, ["image"]);
    }
    // The store failing (full, unwritable, out of reach) is not the author's doing: answered by the caller (storage-fault.server.ts).
    if (storageFault(error)) {
      release(upload);
      throw error;
    }
    console.error("Could not store an uploaded image", error);
    return refusal(400, MESSAGES.uploadFailed, ["image"]);
  }
}

/** Keep an accepted image for this user's next attempt at the form. */
export function keepPending(image: StoredImage, userId: string): string {
  insertPendingImage({ key: image.key, userId, width: image.width, height: image.height, createdAt: Date.now() });
  return image.key;
}

/** Remove pending images nobody used within a day (their files too). */
export async function removeStalePendingImages(now = Date.now()): Promise<void> {
  const keys = inTransaction(() => markedLoose(takeStalePendingImages(now - PENDING_LIFETIME)));
  for (const key of keys) await deleteImage(key);
}

/** What a refused form shows again when reading it stopped early (the image kept only if it is this user's). */
export function keptValues(userId: string, input: PostFormInput): PostValues {
  const pending = input.pendingImage ? getPendingImage(input.pendingImage, userId) : undefined;
  return { title: input.title, content: input.content, sources: input.sources, period: input.period, tags: input.tags, pendingImage: pending?.key ?? "" };
}

// ---------------------------------------------------------------- create

/** The create form's rules that need no server (the shared schema): the first broken one, or the checked title. */
function checkNewPost(input: PostFormInput, image: "new" | "pending" | null): { title: string } | { error: string; invalid: PostField[] } {
  const form = new FormData();
  form.set("title", input.title);
  form.set("content", input.content);
  form.set("sources", input.sources);
  form.set("period", input.period);
  for (const tag of input.tags) form.append("tags", tag);
  if (image) form.set("image", image);
  const checked = checkForm(newPostSchema, form);
  if (checked.ok) return { title: checked.value.title };
  const problem = formProblem(checked.errors, NEW_POST_FIELDS, MESSAGES.createFieldsMissing)!;
  return { error: problem.message, invalid: problem.invalid };
}

/**
 * A draft being published (~/services/articles/drafts.server): its image, used when
 * the form brings no other, and the removal of its row, in the new article's
 * (or the new revision's) transaction (told the image the article has now;
 * false when the draft is gone).
 */
export type DraftToPublish = { image: StoredImage | null; remove: (usedImage: string) => boolean };

/**
 * Publish a post from the create form (or a draft) for `userId`: every rule
 * checked here, whatever the browser sent. The post row, its tags and its
 * image exist together or not at all; the cheap checks come first, so a
 * refused form costs little.
 */
export async function publishPost(userId: string, input: PostFormInput, draft?: DraftToPublish): Promise<PostResult<{ id: string }>> {
  const values = { title: input.title, content: input.content, sources: input.sources, period: input.period, tags: input.tags, pendingImage: "" };
  const refuse = (status: number, error: string, invalid: PostField[] = []) => refusal(status, error, invalid, values);

  const pending = !input.image && input.pendingImage ? getPendingImage(input.pendingImage, userId) : undefined;
  if (pending) values.pendingImage = pending.key;
  // An image sent ahead that is no longer there (cleaned up after a day): the other fields are checked first, then this is said.
  const pendingGone = !input.image && input.pendingImage !== "" && !pending;
  const checked = checkNewPost(input, input.image ? "new" : pending || pendingGone || draft?.image ? "pending" : null);
  if ("error" in checked) {
    // The form goes back to the author: keep a good image so it need not be sent again.
    if (input.image) {
      const accepted = await acceptImage(userId, input.image);
      if (!accepted.ok) return { ...accepted, values };
      values.pendingImage = keepPending(accepted.image, userId);
    }
    return refuse(400, checked.error, checked.invalid);
  }
  if (pendingGone) return refuse(400, POST_MESSAGES.pendingImageGone, ["image"]);

  const quota = newPostAttempts(userId);
  if (!reserve(quota)) return refuse(429, POST_MESSAGES.postQuota);
  let published: PostResult<{ id: string }> | undefined;
  try {
    published = await publishChecked(userId, { ...input, title: checked.title }, pending, values, draft);
    return published;
  } finally {
    // Only a published article counts.
    if (!published?.ok) release(quota);
  }
}

/** The rest of publishPost, once the form is complete and the author within the quota. */
async function publishChecked(
  userId: string,
  input: PostFormInput,
  pending: PendingImage | undefined,
  values: PostValues,
  draft: DraftToPublish | undefined,
): Promise<PostResult<{ id: string }>> {
  const refuse = (status: number, error: string, invalid: PostField[] = []) => refusal(status, error, invalid, values);
  const content = await storedContent(input.content, "a new article");
  if (!content.ok) return refuse(content.status, content.error, content.invalid);
  let image: StoredImage;
  if (pending) image = { key: pending.key, width: pending.width, height: pending.height };
  else if (input.image) {
    const accepted = await acceptImage(userId, input.image);
    if (!accepted.ok) return refuse(accepted.status, accepted.error, accepted.invalid);
    image = accepted.image;
  } else if (draft?.image) image = draft.image;
  else return refuse(400, MESSAGES.createFieldsMissing, ["image"]);

  const sources = sourcesFrom(input.sources);
  const post = { title: input.title, content: content.html, contentSource: content.source, sources, period: input.period, excerpt: excerptOf(content.html), image, authorId: userId, tags: input.tags };
  try {
    const id = inTransaction(() => {
      const id = pending ? insertPostFromPending(post) : insertPost(post);
      if (id && draft && !draft.remove(image.key)) throw new DraftGoneError();
      if (id) tellNewArticle(id);
      return id;
    });
    // The clean-up of day-old pending images took this one while the text was being sanitised.
    if (!id) return refusal(400, POST_MESSAGES.pendingImageGone, ["image"], { ...values, pendingImage: "" });
    return { ok: true, id };
  } catch (error) {
    // Only an image accepted just now is this attempt's to remove.
    if (input.image && !pending) await deleteImage(image.key);
    if (error instanceof DraftGoneError) return refusal(404, "");
    console.error("Could not create a post", error);
    return refuse(500, MESSAGES.createFailed);
  }
}

/** The draft being published was deleted meanwhile (in another tab): nothing is published. */
class DraftGoneError extends Error {}

/**
 * An article body as it is stored: sanitised (in a worker) and within
 * CONTENT_STORED_MAX_BYTES, with its source (the text as typed, without
 * control characters), or why not.
 */
export async function storedContent(typed: string, what: string): Promise<PostResult<{ html: string; source: string }>> {
  try {
    const source = withoutControlCharacters(typed);
    const html = await toStoredContent(source);
    if (utf8Length(html) > CONTENT_STORED_MAX_BYTES) return refusal(400, POST_MESSAGES.contentStoredTooLong, ["content"]);
    return { ok: true, html, source };
  } catch (error) {
    if (error instanceof BusyError) return refusal(503, BUSY_MESSAGE);
    if (error instanceof ContentBoundsError) return refusal(400, error.message, ["content"]);
    if (!(error instanceof ContentProcessingError)) throw error;
    console.error(`Could not sanitise ${what}`, error.cause);
    return refusal(400, POST_MESSAGES.contentFailed, ["content"]);
  }
}

// ---------------------------------------------------------------- edit and delete

type Post = NonNullable<ReturnType<typeof getPost>>;

/** Leave to change an article; only mayChangePost hands it out. */
export type ChangePermission = { ok: true; post: Post; user: CurrentUser };

/**
 * Who may read an article: anyone, unless it is hidden (posts.hidden_at, a
 * moderators' decision): then only its author and admins. Anyone else gets
 * undefined, exactly as for an id that does not exist. The one rule for the
 * article's page, its history and its changes; lists, search, feeds and the
 * sitemap skip hidden rows in their queries.
 */
export function readablePost(postId: string, user: CurrentUser | null): Post | undefined {
  const post = getPost(postId);
  return post && (post.hiddenAt === null || canModify(user, post)) ? post : undefined;
}

/** Only an article's author or an admin may change it (404 when there is no such article, or it is hidden from this user). */
export function mayChangePost(user: CurrentUser | null, postId: string): ChangePermission | PostRefusal {
  const post = readablePost(postId, user);
  if (!post) return refusal(404, "");
  if (!user || !canModify(user, post)) return refusal(403, POST_MESSAGES.forbidden);
  return { ok: true, post, user };
}

/**
 * Save an edited article (the form's fields, whatever the browser checked:
 * title, text, sources, period, tags when it brings them, and a new image:
 * `upload`, or one sent ahead as `pendingImage`) as its next revision, with
 * the editor's summary. The old image stays: the history still shows it.
 * A pending edit's `draft` gives its image when the form brings none, and
 * goes in the revision's transaction.
 */
export async function savePost(permission: ChangePermission, form: FormData, upload: Uint8Array | null = null, draft?: DraftToPublish): Promise<PostResult> {
  const draftImage = draft?.image && draft.image.key !== permission.post.image ? draft.image : null;
  // Refused before it is decoded: what one article stores is bounded.
  if ((upload || form.get("pendingImage") || draftImage) && countHistoryImages(permission.post.id) >= HISTORY_MAX_IMAGES) {
    return refusal(400, POST_MESSAGES.historyImages, ["image"]);
  }
  // A new image is checked and kept first: whatever else is refused, the author need not pick it again.
  const sent = await newImage(permission.user.id, upload, String(form.get("pendingImage") ?? ""));
  if (sent && !sent.ok) return sent;
  const image: ImageChange | null = sent ?? (draftImage && { ...draftImage, pending: false });
  const refuse = (refused: PostRefusal): PostRefusal => (sent ? { ...refused, pendingImage: sent.key } : refused);
  const checked = checkForm(editPostWithTagsSchema, editsTags(form) ? form : withTags(form, permission.post.tags));
  if (!checked.ok) {
    const problem = formProblem(checked.errors, EDIT_POST_FIELDS, POST_MESSAGES.emptyEdit)!;
    return refuse(refusal(400, problem.message, problem.invalid));
  }
  // Counted first: a save refused as stale costs a comparison, so it is an attempt too.
  const quota = editAttempts(permission.user.id);
  if (!reserve(quota)) return refuse(refusal(429, POST_MESSAGES.editQuota));
  // Based on an older revision (edit-conflict.server.ts): checked before the sanitiser, and again as it is written.
  const base = readBaseRevision(form);
  if (base === null || isStale(permission.post.id, base)) return refuse(await staleEdit(permission, base, form));
  const content = await storedContent(checked.value.content, "an edited article");
  if (!content.ok) {
    // Refused (or busy): nothing was written, so nothing counts, as for a new article and a preview.
    release(quota);
    return refuse(content);
  }
  const { title, sources, period, summary } = checked.value;
  const change = { title, content: content.html, contentSource: content.source, sources: sourcesFrom(sources), period, tags: checked.value.tags, image };
  const written = writeRevision(permission, change, { summary, logAs: "editArticle", base, draft });
  if (written === true) return { ok: true };
  // Nothing was written, so nothing counts: the image sent ahead or the draft is gone, or someone saved while the text was being sanitised.
  release(quota);
  if (written === "imageGone") return refusal(400, POST_MESSAGES.pendingImageGone, ["image"]);
  if (written === "draftGone") return refusal(404, "");
  return refuse(await staleEdit(permission, base, form));
}

/** An edit's new image: an upload checked and kept as pending, or one this user sent ahead; null when the form brings none. */
async function newImage(userId: string, upload: Uint8Array | null, pendingKey: string): Promise<PostResult<PendingImageChange> | null> {
  if (upload) {
    const accepted = await acceptImage(userId, upload);
    if (!accepted.ok) return accepted;
    return { ok: true, ...accepted.image, key: keepPending(accepted.image, userId), pending: true };
  }
  if (!pendingKey) return null;
  const pending = getPendingImage(pendingKey, userId);
  if (!pending) return refusal(400, POST_MESSAGES.pendingImageGone, ["image"]);
  return { ok: true, key: pending.key, width: pending.width, height: pending.height, pending: true };
}

/** An article's image as a change: one of its revisions' (restored), or a pending upload, taken out of pending_images as it is written. */
type ImageChange = { key: string; width: number; height: number; pending: boolean };
type PendingImageChange = ImageChange & { pending: true };

/** A form that brings no tags (an edit form without them), with the article's own. */
function withTags(form: FormData, tags: string[]): FormData {
  const complete = new FormData();
  for (const [name, value] of form) complete.append(name, value);
  for (const tag of tags) complete.append("tags", tag);
  return complete;
}

/** The refusal of a stale save, with its difference; "busy" (the text kept all the same) when too many comparisons wait. */
async function staleEdit({ post, user }: ChangePermission, base: number | null, form: FormData): Promise<PostRefusal> {
  try {
    const stale = await editConflict(post.id, base, form, `user ${user.id}`);
    return stale ? { ...refusal(stale.status, stale.error), conflict: stale.conflict } : refusal(404, "");
  } catch (error) {
    if (error instanceof BusyError) return refusal(503, BUSY_MESSAGE);
    throw error;
  }
}

/**
 * Write an article's new title, stored content (with its source), sources, period and (when given) tags and image as its next
 * revision (the search index and the page cache's stamp follow, in the posts
 * model); an admin's change of someone else's article goes into the
 * moderation log in the same transaction, as does the removal of the
 * pending edit's `draft` it comes from. The caller has checked the values
 * and counted the edit. An edit names the revision it is `base`d on: when
 * that is no longer the current one, nothing is written (false); nor when
 * its pending image is gone ("imageGone"), nor its draft ("draftGone").
 */
export function writeRevision(
  { post, user }: ChangePermission,
  { image, ...change }: { title: string; content: string; contentSource: string | null; sources: Source[]; period: string; tags?: string[]; image?: ImageChange | null },
  edit: { summary: string; logAs: "editArticle" | "restoreArticle"; detail?: string; base?: number; draft?: DraftToPublish },
): boolean | "imageGone" | "draftGone" {
  try {
    return inTransaction(() => {
      if (edit.base !== undefined && isStale(post.id, edit.base)) return false;
      if (image?.pending && !takePendingImage(image.key)) return "imageGone";
      const newImage = image && image.key !== post.image ? { key: image.key, width: image.width, height: image.height } : undefined;
      updatePost(post.id, { ...change, image: newImage, excerpt: excerptOf(change.content) }, { editorId: user.id, summary: edit.summary });
      if (user.id !== post.authorId) logModeration(user, edit.logAs, { post, user: author(post), detail: edit.detail });
      if (edit.draft && !edit.draft.remove(newImage?.key ?? post.image)) throw new DraftGoneError();
      return true;
    });
  } catch (error) {
    if (error instanceof DraftGoneError) return "draftGone";
    throw error;
  }
}

/**
 * Image keys whose references are being removed, marked loose in the same
 * transaction: files a crash leaves before they are deleted are the next
 * start's to remove (removeLooseImages).
 */
function markedLoose<T extends string | undefined>(keys: T[]): T[] {
  for (const key of keys) if (key) markImageLoose(key);
  return keys;
}

/** Delete an article, its tags and its image files. */
export async function removePost({ post, user }: ChangePermission): Promise<PostResult> {
  await deletePostAs(user, post, "", () => true);
  return { ok: true };
}

/**
 * Delete an article by `actor`: the row goes in one transaction with
 * `alongside` (a moderation decision's rows; false: delete nothing after
 * all), the image files after it (its history's too). Someone else's
 * article deleted is in the moderation log.
 */
export async function deletePostAs(actor: Actor, post: Post, detail: string, alongside: () => boolean): Promise<void> {
  const images = inTransaction(() => {
    if (!alongside()) return [];
    if (actor === "command line" || actor.id !== post.authorId) logModeration(actor, "deleteArticle", { post, user: author(post), detail });
    return markedLoose(deletePost(post.id));
  });
  for (const image of images) await deleteImage(image);
}

function author(post: Post) {
  return { id: post.authorId, displayName: post.authorName };
}

/**
 * Delete every article of an account. The rows go first, in one transaction
 * with `before` (run while they are still there) and `alongside` (told how
 * many; it may delete the account and name more
 * image files to remove, e.g. its pending uploads); then the image files, one
 * article at a time. A crash in between leaves files no row refers to,
 * marked loose with the rows' removal: the next start removes them, as after a single delete.
 */
export async function removePostsOf(userId: string, alongside: (removed: number) => string[] | void, before?: () => void): Promise<number> {
  const { posts, moreImages } = inTransaction(() => {
    before?.();
    const posts = markedLoose(deletePostsOf(userId));
    return { posts, moreImages: markedLoose(alongside(posts.length) ?? []) };
  });
  for (const key of [...posts, ...moreImages]) await deleteImage(key);
  return posts.length;
}
