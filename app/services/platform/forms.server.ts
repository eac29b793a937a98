import { data } from "@remix-run/node";
import { BODY_MESSAGES } from "~/lib/rules";

/** The largest urlencoded form any page sends (an edited article is the biggest). */
export const MAX_FORM_BYTES = 256 * 1024;

/**
 * Read a small form (sign-in, reset, edit) without trusting the request: a body
 * over MAX_FORM_BYTES, without a length, or that is not a form answers 413/411/400
 * and nothing is read into memory. Reads a clone, so the request can still be
 * read once more (remix-auth reads it again).
 */
export async function readForm(request: Request): Promise<FormData> {
  const length = request.headers.get("content-length");
  if (length === null) throw data({ error: "Formulár sa nepodarilo prijať. Skúste ho, prosím, odoslať znova." }, { status: 411 });
  if (Number(length) > MAX_FORM_BYTES) throw data({ error: "Formulár je príliš veľký. Skráťte, prosím, text." }, { status: 413 });
  try {
    return await request.clone().formData();
  } catch {
    throw data({ error: BODY_MESSAGES.unreadable }, { status: 400 });
  }
}

/**
 * A request's raw body (a machine's request: a signed webhook), or null when
 * it is longer than `maxBytes`: a body declaring more is not read at all,
 * one sent without a length is read only up to the limit. Reading stops
 * there without cancelling the stream (that would drop the connection before
 * the answer); the server throws the rest away (server/request-body.ts).
 */
export async function readBodyUpTo(request: Request, maxBytes: number): Promise<Buffer | null> {
  const declared = request.headers.get("content-length");
  if (declared !== null && !(Number(declared) <= maxBytes)) return null;
  if (!request.body) return Buffer.alloc(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return Buffer.concat(chunks);
    size += value.byteLength;
    if (size > maxBytes) {
      reader.releaseLock();
      return null;
    }
    chunks.push(value);
  }
}
