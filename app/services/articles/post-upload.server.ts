import {
  MaxFileSizeExceededError,
  MaxHeaderSizeExceededError,
  MaxPartsExceededError,
  MaxTotalSizeExceededError,
  MultipartParseError,
  MultipartParser,
  getMultipartBoundary,
  isMultipartRequest,
  type MultipartPart,
} from "@remix-run/multipart-parser";
import { BODY_MESSAGES, BUSY_MESSAGE, FAULT_MESSAGES, IMAGE_MAX_BYTES, MESSAGES, POST_MESSAGES, typedText } from "~/lib/rules";
import type { PostField, PostFormInput } from "./posts.server";
import { lowOnSpace } from "~/services/platform/free-space.server";

/**
 * Memory the upload bodies of one account, and of everyone together, may
 * hold (about two whole uploads, and about seven: with twelve, the server's
 * peak swung between 220 and 266 MB, by how the bodies met the decoding of
 * the costliest image; with seven it stays near 225). A body holds what has
 * arrived of it, from its first byte until its request is answered (the
 * image waits in memory for the decoder). A body that arrives slowly holds
 * little, so slow uploads never keep anyone else waiting; the server cuts
 * one that stalls (server/request-body.ts).
 */
const ACCOUNT_UPLOAD_BYTES = 5 * 1024 * 1024;
const ALL_UPLOAD_BYTES = 16 * 1024 * 1024;

const heldByAccount = new Map<string, number>();
let heldByAll = 0;

/** What one upload holds of those budgets. */
class UploadMemory {
  private held = 0;

  constructor(private readonly userId: string) {}

  /** Hold `bytes` more; false when the account, or all uploads together, already hold as much as they may. */
  take(bytes: number): boolean {
    const account = heldByAccount.get(this.userId) ?? 0;
    if (account + bytes > ACCOUNT_UPLOAD_BYTES || heldByAll + bytes > ALL_UPLOAD_BYTES) return false;
    heldByAccount.set(this.userId, account + bytes);
    heldByAll += bytes;
    this.held += bytes;
    return true;
  }

  release(): void {
    const left = heldByAccount.get(this.userId)! - this.held;
    if (left > 0) heldByAccount.set(this.userId, left);
    else heldByAccount.delete(this.userId);
    heldByAll -= this.held;
    this.held = 0;
  }
}

/**
 * An article form as read: every field, or those that arrived before reading
 * stopped, and why it stopped; `intent` is the button pressed (the form's
 * last field), `fields` every text field as sent (the edit form's own are read from there).
 */
export type PostFormRead = { input: PostFormInput; intent: string; fields: FormData; refusal?: { status: number; error: string; invalid: PostField[] } };

const PARSER_LIMITS = {
  maxFileSize: IMAGE_MAX_BYTES - 1,
  maxHeaderSize: 8 * 1024,
  maxParts: 64,
  maxTotalSize: IMAGE_MAX_BYTES + 512 * 1024,
};

/**
 * Read an upload's multipart form as it streams in and hand it to `handle`,
 * holding its bytes in the account's and everyone's upload memory until
 * `handle` is done. The image may be at most IMAGE_MAX_BYTES - 1 bytes
 * ("under 2 MB"). Reading stops at the first broken rule; the fields read
 * by then (the image comes last in the form) go back to the author. The
 * rest of such a body is never read: the server closes the connection
 * after the answer.
 */
export async function withUploadedForm<T>(userId: string, request: Request, handle: (form: PostFormRead) => Promise<T>): Promise<T> {
  const memory = new UploadMemory(userId);
  try {
    return await handle(await readPostForm(request, memory));
  } finally {
    memory.release();
  }
}

/** Whether a request sends a multipart form (a draft's page takes both kinds). */
export function isMultipartUpload(request: Request): boolean {
  return isMultipartRequest(request);
}

async function readPostForm(request: Request, memory: UploadMemory): Promise<PostFormRead> {
  const read: PostFormRead = { input: { title: "", content: "", sources: "", period: "", tags: [], image: null, pendingImage: "" }, intent: "", fields: new FormData() };
  const refuse = (status: number, error: string, invalid: PostField[] = []) => ({ ...read, refusal: { status, error, invalid } });
  const boundary = getMultipartBoundary(request.headers.get("content-type") ?? "");
  if (!isMultipartRequest(request) || !boundary || !request.body) return refuse(400, BODY_MESSAGES.unreadable);

  const parser = new MultipartParser(boundary, PARSER_LIMITS);
  const reader = request.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!memory.take(value.byteLength)) return refuse(503, BUSY_MESSAGE);
      for (const part of parser.write(value)) keepField(read, part);
    }
    parser.finish();
  } catch (error) {
    if (error instanceof MaxFileSizeExceededError) return refuse(413, MESSAGES.imageSize, ["image"]);
    // Over the parts' total size, their number or a part's header size: nothing a browser sends.
    if (error instanceof MaxTotalSizeExceededError || error instanceof MaxPartsExceededError || error instanceof MaxHeaderSizeExceededError) {
      return refuse(413, POST_MESSAGES.tooLarge);
    }
    // Not multipart at all, cut off half-way, or a text field that is not UTF-8 (TypeError from its decoder).
    if (error instanceof MultipartParseError || error instanceof TypeError || (error as Error)?.name === "AbortError") {
      return refuse(400, BODY_MESSAGES.unreadable);
    }
    throw error;
  } finally {
    reader.releaseLock();
  }
  // Refused before anything is written, rather than failing half-way: the fields go back, the image must be picked again.
  if (read.input.image && lowOnSpace()) return refuse(507, FAULT_MESSAGES.diskFull, ["image"]);
  return read;
}

function keepField(read: PostFormRead, part: MultipartPart): void {
  const { input } = read;
  if (part.name && part.name !== "image") read.fields.append(part.name, part.text);
  if (part.name === "intent") read.intent = part.text;
  else if (part.name === "title") input.title = part.text;
  else if (part.name === "content") input.content = typedText(part.text);
  else if (part.name === "sources") input.sources = typedText(part.text);
  else if (part.name === "period") input.period = typedText(part.text);
  else if (part.name === "tags") input.tags.push(part.text);
  else if (part.name === "pendingImage") input.pendingImage = part.text;
  else if (part.name === "image" && part.size > 0) input.image = part.bytes;
}
