import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/** The subjects of the site's mails about an account, to tell them from the rest of an address's mail. */
export const SUBJECTS = { reset: /^Obnovenie hesla/, confirmation: /^Potvrdenie e-mailovej adresy/, notConfirmation: /^(?!Potvrdenie e-mailovej adresy)/ } as const;

/** The messages a server without RESEND_API_KEY wrote to `email` (its outbox beside the database), oldest first; only those whose subject matches, if given. */
export function mailsTo(databasePath: string, email: string, subject?: RegExp): string[] {
  const outbox = path.join(path.dirname(databasePath), "outbox");
  if (!existsSync(outbox)) return [];
  // The file names begin with the time they were written.
  return readdirSync(outbox)
    .sort()
    .map((name) => readFileSync(path.join(outbox, name), "utf8"))
    .filter((message) => message.includes(`To: ${email}\n`) && (!subject || subject.test(message.match(/^Subject: (.*)$/m)?.[1] ?? "")));
}

/** The reset link of a message (path and query), if it has one. */
export function resetLinkIn(message: string): string | null {
  const token = message.match(/reset-password\?token=([\w-]{43})/)?.[1];
  return token ? `/reset-password?token=${token}` : null;
}

/** The confirmation link of a message (path and query), if it has one. */
export function confirmationLinkIn(message: string): string | null {
  const token = message.match(/confirm-email\?token=([\w-]{43})/)?.[1];
  return token ? `/confirm-email?token=${token}` : null;
}

/** Wait until `email` has `count` messages (reset mails are sent a moment after the answer), then a little more to see that no more come. */
export async function settledMailsTo(databasePath: string, email: string, count: number, subject?: RegExp): Promise<string[]> {
  for (let i = 0; i < 100 && mailsTo(databasePath, email, subject).length < count; i++) await new Promise((r) => setTimeout(r, 50));
  await new Promise((r) => setTimeout(r, 600));
  return mailsTo(databasePath, email, subject);
}
