import { MaxFileSizeExceededError, MultipartParseError, isMultipartRequest, parseMultipartRequest } from "@remix-run/multipart-parser";
import { BUSY_MESSAGE, CONTENT_MAX_LENGTH, contentMarkupProblem, hasHiddenControls, IMAGE_MAX_BYTES, imageSizeProblem, MESSAGES, POST_MESSAGES, TITLE_MAX_LENGTH, tagsProblem, typedText } from "~/lib/rules";
import { isTag } from "~/lib/tags";
import { getPendingImage, insertPendingImage, takeStalePendingImages, type PendingImage } from "~/models/pending-images.server";
import { insertPost, insertPostFromPending } from "~/models/posts.server";
import { BusyError, createLimiter } from "./concurrency.server";
import { ContentProcessingError, excerptOf, toStoredContent } from "./content.server";
import { readImageHeader } from "./image-header.server";
import { deleteImage, storeImage, UndecodableImageError, type StoredImage } from "./images.server";
import { newPostAttempts, release, reserve, uploadAttempts } from "./throttle.server";

/** Bodies larger than this are not read at all (the connection is closed after the answer). */
const MAX_READ_BYTES = 32 * 1024 * 1024;
const PENDING_LIFETIME = 24 * 60 * 60 * 1000;

export type PostField = "title" | "content" | "image" | "tags";

export type PostFormInput = {
  title: string;
  content: string;
  tags: string[];
  /** A newly uploaded file, as sent. */
  image: Uint8Array | null;
  /** An image uploaded earlier (a refused form, or sent ahead by JavaScript). */
  pendingImage: string;
};

export type PostFormRefusal = {
  status: number;
  error: string;
  invalid: PostField[];
  /** What the form shows again; the image as its pending key, so it need not be picked again. */
  values: { title: string; content: string; tags: string[]; pendingImage: string };
};

function emptyInput(): PostFormInput {
  return { title: "", content: "", tags: [], image: null, pendingImage: "" };
}

/** What a form shows again when none of it was read. */
export function emptyValues(): PostFormRefusal["values"] {
  return { title: "", content: "", tags: [], pendingImage: "" };
}

/**
 * Read the multipart form while it streams in. The image may be at most
 * IMAGE_MAX_BYTES - 1 bytes ("under 2 MB"); reading stops as soon as it is
 * bigger, so a huge upload is never held in memory or written to disk.
 */
export async function readPostForm(request: Request): Promise<{ input: PostFormInput; refusal?: { status: number; error: string } }> {
  const input = emptyInput();
  if (Number(request.headers.get("content-length") ?? 0) > MAX_READ_BYTES) {
    return { input, refusal: { status: 413, error: MESSAGES.imageSize } };
  }
  if (!isMultipartRequest(request)) return { input, refusal: { status: 400, error: MESSAGES.createFieldsMissing } };
  try {
    const parts = parseMultipartRequest(request, {
      maxFileSize: IMAGE_MAX_BYTES - 1,
      maxHeaderSize: 8 * 1024,
      maxParts: 64,
      maxTotalSize: IMAGE_MAX_BYTES + 512 * 1024,
    });
    for await (const part of parts) {
      if (part.name === "title") input.title = part.text;
      else if (part.name === "content") input.content = typedText(part.text);
      else if (part.name === "tags") input.tags.push(part.text);
      else if (part.name === "pendingImage") input.pendingImage = part.text;
      else if (part.name === "image" && part.size > 0) input.image = part.bytes;
    }
  } catch (error) {
    if (error instanceof MaxFileSizeExceededError) return { input, refusal: { status: 413, error: MESSAGES.imageSize } };
    if (error instanceof MultipartParseError) return { input, refusal: { status: 413, error: POST_MESSAGES.tooLarge } };
    // A body cut off half-way: nothing usable arrived.
    if (error instanceof TypeError || (error as Error)?.name === "AbortError") {
      return { input, refusal: { status: 400, error: MESSAGES.createFieldsMissing } };
    }
    throw error;
  }
  return { input };
}

/** Why an image was not accepted, and the status to answer: 429 over the quota, 503 when only a moment's wait is needed. */
export type ImageRefusal = { error: string; status: 400 | 429 | 503 };

/**
 * Check an uploaded image's bytes and store it re-encoded for `userId`.
 * Returns the stored image, or the message to show: wrong type, too large
 * to decode (judged by the header, before decoding), over the author's
 * upload quota, a busy server, or a failure of the store.
 */
export async function acceptImage(userId: string, bytes: Uint8Array): Promise<StoredImage | ImageRefusal> {
  const header = readImageHeader(bytes);
  if (!header) return { error: MESSAGES.imageType, status: 400 };
  const sizeProblem = imageSizeProblem(header);
  if (sizeProblem) return { error: sizeProblem, status: 400 };
  // Counted once it reaches the decoder, whatever comes of it.
  const upload = uploadAttempts(userId);
  if (!reserve(upload)) return { error: POST_MESSAGES.uploadQuota, status: 429 };
  try {
    return await storeImage(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  } catch (error) {
    // Bytes that start like an image but do not decode are not an image either.
    if (error instanceof UndecodableImageError) return { error: MESSAGES.imageType, status: 400 };
    if (error instanceof BusyError) {
      release(upload);
      return { error: BUSY_MESSAGE, status: 503 };
    }
    console.error("Could not store an uploaded image", error);
    return { error: MESSAGES.uploadFailed, status: 400 };
  }
}

const uploadBodies = createLimiter("upload", { running: 12, waiting: 64 });
const uploadsOfAccount = new Map<string, number>();
const UPLOADS_AT_ONCE_PER_ACCOUNT = 2;

/**
 * Read and handle an upload (a body of up to 2 MB, held until its image is
 * stored) while only a few are in memory at once, at most two per account;
 * the rest wait unread (holding no memory, though the server's two-minute
 * limit on a request keeps running). Throws BusyError when too many wait
 * (answer 503).
 */
export async function withUploadSlot<T>(userId: string, job: () => Promise<T>): Promise<T> {
  const mine = uploadsOfAccount.get(userId) ?? 0;
  if (mine >= UPLOADS_AT_ONCE_PER_ACCOUNT) throw new BusyError("uploads of one account");
  uploadsOfAccount.set(userId, mine + 1);
  try {
    return await uploadBodies.run(job);
  } finally {
    const left = uploadsOfAccount.get(userId)! - 1;
    if (left > 0) uploadsOfAccount.set(userId, left);
    else uploadsOfAccount.delete(userId);
  }
}

/** Keep an accepted image for this user's next attempt at the form. */
export function keepPending(image: StoredImage, userId: string): string {
  insertPendingImage({ key: image.key, userId, width: image.width, height: image.height, createdAt: Date.now() });
  return image.key;
}

/** Remove pending images nobody used within a day (their files too). */
export async function removeStalePendingImages(now = Date.now()): Promise<void> {
  for (const key of takeStalePendingImages(now - PENDING_LIFETIME)) await deleteImage(key);
}

/** What a refused form shows again when reading it stopped early (the image kept only if it is this user's). */
export function keptValues(userId: string, input: PostFormInput): PostFormRefusal["values"] {
  const pending = input.pendingImage ? getPendingImage(input.pendingImage, userId) : undefined;
  return { title: input.title, content: input.content, tags: input.tags, pendingImage: pending?.key ?? "" };
}

/** The text rules of the create form: the first broken one's message and every field to mark. */
function checkText(input: PostFormInput, hasImage: boolean): { error: string; invalid: PostField[]; status: number } | null {
  const missing: PostField[] = [];
  if (!input.title.trim()) missing.push("title");
  if (!input.content.trim()) missing.push("content");
  if (!hasImage) missing.push("image");
  if (input.tags.length === 0) missing.push("tags");
  if (missing.length > 0) return { error: MESSAGES.createFieldsMissing, invalid: missing, status: 400 };
  if (input.title.trim().length > TITLE_MAX_LENGTH) return { error: POST_MESSAGES.titleTooLong, invalid: ["title"], status: 400 };
  if (hasHiddenControls(input.title.trim())) return { error: POST_MESSAGES.titleControls, invalid: ["title"], status: 400 };
  if (input.content.length > CONTENT_MAX_LENGTH) return { error: POST_MESSAGES.contentTooLong, invalid: ["content"], status: 400 };
  const markup = contentMarkupProblem(input.content);
  if (markup) return { error: markup, invalid: ["content"], status: 400 };
  const tagError = tagsProblem(input.tags, isTag);
  if (tagError) return { error: tagError, invalid: ["tags"], status: 400 };
  return null;
}

/**
 * Publish a post from the create form for `userId`: every rule checked here,
 * whatever the browser sent. Returns the new post's id, or what to show again.
 * The post row, its tags and its image exist together or not at all; the
 * cheap checks come first, so a refused form costs little.
 */
export async function publishPost(userId: string, input: PostFormInput): Promise<{ id: string } | PostFormRefusal> {
  const values = { title: input.title, content: input.content, tags: input.tags, pendingImage: "" };
  const refuse = (status: number, error: string, invalid: PostField[]): PostFormRefusal => ({ status, error, invalid, values });

  const pending = !input.image && input.pendingImage ? getPendingImage(input.pendingImage, userId) : undefined;
  if (pending) values.pendingImage = pending.key;
  const textProblem = checkText(input, Boolean(input.image || pending));
  if (textProblem) {
    // The form goes back to the author: keep a good image so it need not be sent again.
    if (input.image) {
      const accepted = await acceptImage(userId, input.image);
      if ("error" in accepted) return refuse(accepted.status, accepted.error, ["image"]);
      values.pendingImage = keepPending(accepted, userId);
    }
    return refuse(textProblem.status, textProblem.error, textProblem.invalid);
  }

  const quota = newPostAttempts(userId);
  if (!reserve(quota)) return refuse(429, POST_MESSAGES.postQuota, []);
  let published: { id: string } | PostFormRefusal | undefined;
  try {
    published = await publishChecked(userId, input, pending, refuse);
    return published;
  } finally {
    // Only a published article counts.
    if (!published || !("id" in published)) release(quota);
  }
}

/** The rest of publishPost, once the form is complete and the author within the quota. */
async function publishChecked(
  userId: string,
  input: PostFormInput,
  pending: PendingImage | undefined,
  refuse: (status: number, error: string, invalid: PostField[]) => PostFormRefusal,
): Promise<{ id: string } | PostFormRefusal> {
  let content: string;
  try {
    content = await toStoredContent(input.content);
  } catch (error) {
    if (error instanceof BusyError) return refuse(503, BUSY_MESSAGE, []);
    if (!(error instanceof ContentProcessingError)) throw error;
    console.error("Could not sanitise a new article", error.cause);
    return refuse(400, POST_MESSAGES.contentFailed, ["content"]);
  }
  let image: StoredImage;
  if (pending) image = { key: pending.key, width: pending.width, height: pending.height };
  else if (input.image) {
    const accepted = await acceptImage(userId, input.image);
    if ("error" in accepted) return refuse(accepted.status, accepted.error, ["image"]);
    image = accepted;
  } else return refuse(400, MESSAGES.createFieldsMissing, ["image"]);

  const post = { title: input.title.trim(), content, excerpt: excerptOf(content), image, authorId: userId, tags: input.tags };
  try {
    return { id: pending ? insertPostFromPending(post) : insertPost(post) };
  } catch (error) {
    console.error("Could not create a post", error);
    if (!pending) await deleteImage(image.key);
    return refuse(500, MESSAGES.createFailed, []);
  }
}
