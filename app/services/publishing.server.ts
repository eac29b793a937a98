import { MaxFileSizeExceededError, MultipartParseError, isMultipartRequest, parseMultipartRequest } from "@remix-run/multipart-parser";
import { CONTENT_MAX_LENGTH, IMAGE_MAX_BYTES, MESSAGES, POST_MESSAGES, TITLE_MAX_LENGTH, tagsProblem } from "~/lib/rules";
import { isTag } from "~/lib/tags";
import { getPendingImage, insertPendingImage, takeStalePendingImages } from "~/models/pending-images.server";
import { insertPost, insertPostFromPending } from "~/models/posts.server";
import { excerptOf, toStoredContent } from "./content.server";
import { deleteImage, storeImage, UndecodableImageError, type StoredImage } from "./images.server";

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
      else if (part.name === "content") input.content = part.text;
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

/** JPEG or PNG, judged by the file's first bytes, never by its name or declared type. */
export function sniffImageType(bytes: Uint8Array): "jpeg" | "png" | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return "jpeg";
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (bytes.length >= png.length && png.every((b, i) => bytes[i] === b)) return "png";
  return null;
}

/**
 * Check an uploaded image's bytes and store it re-encoded. Returns the
 * stored image, or the spec's message: wrong type, or a failure of the store.
 */
export async function acceptImage(bytes: Uint8Array): Promise<StoredImage | { error: string }> {
  if (!sniffImageType(bytes)) return { error: MESSAGES.imageType };
  try {
    return await storeImage(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  } catch (error) {
    // Bytes that start like an image but do not decode are not an image either.
    if (error instanceof UndecodableImageError) return { error: MESSAGES.imageType };
    console.error("Could not store an uploaded image", error);
    return { error: MESSAGES.uploadFailed };
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
  if (input.content.length > CONTENT_MAX_LENGTH) return { error: POST_MESSAGES.contentTooLong, invalid: ["content"], status: 400 };
  const tagError = tagsProblem(input.tags, isTag);
  if (tagError) return { error: tagError, invalid: ["tags"], status: 400 };
  return null;
}

/**
 * Publish a post from the create form for `userId`: every rule checked here,
 * whatever the browser sent. Returns the new post's id, or what to show again.
 * The post row, its tags and its image exist together or not at all.
 */
export async function publishPost(userId: string, input: PostFormInput): Promise<{ id: string } | PostFormRefusal> {
  const values = { title: input.title, content: input.content, tags: input.tags, pendingImage: "" };
  const refuse = (status: number, error: string, invalid: PostField[]): PostFormRefusal => ({ status, error, invalid, values });

  const pending = !input.image && input.pendingImage ? getPendingImage(input.pendingImage, userId) : undefined;
  if (pending) values.pendingImage = pending.key;
  const textProblem = checkText(input, Boolean(input.image || pending));

  let image: StoredImage | undefined = pending && { key: pending.key, width: pending.width, height: pending.height };
  if (input.image) {
    const accepted = await acceptImage(input.image);
    if ("error" in accepted) return refuse(400, accepted.error, ["image"]);
    image = accepted;
    // The form goes back to the author: keep the image so it need not be sent again.
    if (textProblem) values.pendingImage = keepPending(accepted, userId);
  }
  if (textProblem) return refuse(textProblem.status, textProblem.error, textProblem.invalid);
  if (!image) return refuse(400, MESSAGES.createFieldsMissing, ["image"]);

  const content = await toStoredContent(input.content);
  const post = { title: input.title.trim(), content, excerpt: excerptOf(content), image, authorId: userId, tags: input.tags };
  try {
    return { id: pending ? insertPostFromPending(post) : insertPost(post) };
  } catch (error) {
    console.error("Could not create a post", error);
    if (!pending) await deleteImage(image.key);
    return refuse(500, MESSAGES.createFailed, []);
  }
}
