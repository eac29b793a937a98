import { MaxFileSizeExceededError, MultipartParseError, isMultipartRequest, parseMultipartRequest } from "@remix-run/multipart-parser";
import { IMAGE_MAX_BYTES, MESSAGES, POST_MESSAGES, typedText } from "~/lib/rules";
import { BusyError, createLimiter } from "./concurrency.server";
import type { PostFormInput } from "./posts.server";

/** Bodies larger than this are not read at all (the connection is closed after the answer). */
const MAX_READ_BYTES = 32 * 1024 * 1024;

function emptyInput(): PostFormInput {
  return { title: "", content: "", sources: "", tags: [], image: null, pendingImage: "" };
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
      else if (part.name === "sources") input.sources = typedText(part.text);
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

