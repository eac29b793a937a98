import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { Resend } from "resend";
import { showHiddenControls } from "~/lib/rules";
import { env } from "~/config/env.server";

/** `headers`: a subscription's mail carries List-Unsubscribe and List-Unsubscribe-Post (RFC 8058). */
export type Mail = { to: string; subject: string; text: string; html: string; headers?: Record<string, string> };

const resend = env.resendApiKey ? new Resend(env.resendApiKey, env.resendBaseUrl ? { baseUrl: env.resendBaseUrl } : undefined) : null;

/** Where messages go when no RESEND_API_KEY is set: one file per message. */
export const outboxDir = path.join(env.dataDir, "outbox");

/** The mail service answered that it did not take the mail (down, limits, keys): nothing went, so a retry may be a different request. */
export class MailNotTakenError extends Error {
  override name = "MailNotTakenError";
}

/** The mail service refused this mail for what it is (e.g. an address it will not take): trying again will not help. */
export class MailRefusedError extends MailNotTakenError {
  override name = "MailRefusedError";
}

/** Resend's answers that say the mail itself is wrong; anything else (down, limits, keys) may pass later. */
const REFUSED_STATUSES = new Set([400, 422]);

/**
 * Deliver one mail through Resend or, without a key, to the local outbox
 * folder. `id` makes a repeat harmless: Resend is given it as the
 * Idempotency-Key, and the folder's file is named by it. Throws when the
 * mail did not go (MailRefusedError when it never will).
 */
export async function deliverMail(mail: Mail, id: string): Promise<void> {
  if (resend) {
    const { error } = await resend.emails.send({ from: env.mailFrom, ...mail }, { idempotencyKey: id });
    if (error) throw resendError(error);
    return;
  }
  await writeToFolder(mail, id);
}

/**
 * Deliver up to 100 mails in one request to Resend's batch API, or each to
 * the outbox folder. `key` makes a repeat harmless, as deliverMail's `id`
 * does. Resend checks each mail on its own ("permissive"): the answer lists
 * the indexes of those it refused, for good; the others went. Throws when
 * none went.
 */
export async function deliverBatch(mails: (Mail & { id: string })[], key: string): Promise<{ refused: Map<number, string> }> {
  const refused = new Map<number, string>();
  if (resend) {
    const payload = mails.map(({ id: _, ...mail }) => ({ from: env.mailFrom, ...mail }));
    const { data, error } = await resend.batch.send(payload, { idempotencyKey: key, batchValidation: "permissive" });
    if (error) throw resendError(error);
    for (const { index, message } of data?.errors ?? []) refused.set(index, `Resend: ${message}`);
    return { refused };
  }
  for (const { id, ...mail } of mails) await writeToFolder(mail, id);
  return { refused };
}

/** Resend's error as ours: refused for good, not taken (an answer with a status), or unknown (no answer: it may have gone). */
function resendError(error: { name: string; message: string; statusCode?: number | null }): Error {
  const reason = `Resend: ${error.name}: ${error.message}`;
  if (REFUSED_STATUSES.has(error.statusCode ?? 0)) return new MailRefusedError(reason);
  return typeof error.statusCode === "number" ? new MailNotTakenError(reason) : new Error(reason);
}

async function writeToFolder(mail: Mail, id: string): Promise<void> {
  await mkdir(outboxDir, { recursive: true });
  const file = path.join(outboxDir, `${id}.eml`);
  // Header lines and the log line: no control character may start a new header or reach a terminal.
  const to = showHiddenControls(mail.to);
  const headers = Object.entries(mail.headers ?? {}).map(([name, value]) => `${name}: ${showHiddenControls(value)}`);
  const message = [`From: ${env.mailFrom}`, `To: ${to}`, `Subject: ${showHiddenControls(mail.subject)}`, ...headers, "Content-Type: text/plain; charset=utf-8", "", mail.text].join("\n");
  await writeFile(file, message, { mode: 0o600 });
  console.info(`Mail outbox (no RESEND_API_KEY): "${showHiddenControls(mail.subject)}" to ${to} written to ${file}`);
}
