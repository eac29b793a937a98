import { createHash, randomBytes } from "node:crypto";
import { env } from "~/config/env.server";

/**
 * The secrets of the links the site mails to an account (a password reset,
 * an address's confirmation): 256 random bits, URL-safe; the database keeps
 * only their SHA-256, so a copy of it opens no account.
 */

export function hashLinkToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** A new token, its hash, and the link that carries it to `path`: built from PUBLIC_URL, never from the request's Host header. */
export function newLinkToken(path: string): { token: string; tokenHash: string; link: string } {
  const token = randomBytes(32).toString("base64url");
  return { token, tokenHash: hashLinkToken(token), link: `${env.publicUrl}${path}?token=${token}` };
}

const escape = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/**
 * A mail of the site's own words and one link (nothing another person
 * wrote, not even the account's name: whoever registered chose it, and
 * these mails also go to addresses nobody has confirmed). `before` and
 * `after` are paragraphs; `linkText` names the link in the HTML part.
 */
export function linkMail(subject: string, { before, link, linkText, after }: { before: string[]; link: string; linkText: string; after: string[] }) {
  const text = ["Dobrý deň,", "", ...before.flatMap((p) => [p, ""]), link, "", ...after.flatMap((p) => [p, ""]), "Redakcia Dejín"].join("\n");
  const html = [
    "<p>Dobrý deň,</p>",
    ...before.map((p) => `<p>${escape(p)}</p>`),
    `<p><a href="${escape(link)}">${escape(linkText)}</a></p>`,
    ...after.map((p) => `<p>${escape(p)}</p>`),
    "<p>Redakcia Dejín</p>",
  ].join("\n");
  return { subject, text, html };
}
