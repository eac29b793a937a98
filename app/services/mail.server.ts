import { randomBytes } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { Resend } from "resend";
import { showHiddenControls } from "~/lib/rules";
import { env } from "~/config/env.server";

export type Mail = { to: string; subject: string; text: string; html: string };

const resend = env.resendApiKey ? new Resend(env.resendApiKey, env.resendBaseUrl ? { baseUrl: env.resendBaseUrl } : undefined) : null;

/** Where messages go when no RESEND_API_KEY is set: one file per message. */
export const outboxDir = path.join(env.dataDir, "outbox");

/**
 * Send an e-mail through Resend, or without a key write it to the local outbox.
 * Never throws: a failure is logged, and the caller answers the user the same way.
 */
export async function sendMail(mail: Mail): Promise<boolean> {
  try {
    if (resend) {
      const { error } = await resend.emails.send({ from: env.mailFrom, ...mail });
      if (error) throw new Error(`Resend: ${error.name}: ${error.message}`);
      return true;
    }
    await mkdir(outboxDir, { recursive: true });
    const file = path.join(outboxDir, `${new Date().toISOString().replace(/[:.]/g, "-")}-${randomBytes(4).toString("hex")}.eml`);
    // Header lines and the log line: no control character may start a new header or reach a terminal.
    const to = showHiddenControls(mail.to);
    const message = [`From: ${env.mailFrom}`, `To: ${to}`, `Subject: ${showHiddenControls(mail.subject)}`, "Content-Type: text/plain; charset=utf-8", "", mail.text].join("\n");
    await writeFile(file, message, { mode: 0o600 });
    console.info(`Mail outbox (no RESEND_API_KEY): "${showHiddenControls(mail.subject)}" to ${to} written to ${file}`);
    return true;
  } catch (error) {
    console.error("Could not send e-mail", error);
    return false;
  }
}
