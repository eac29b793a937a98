import { createHash, randomBytes } from "node:crypto";
import { consumeResetToken, findUsableResetToken, insertResetToken } from "~/models/reset-tokens.server";
import { getUserByEmail, setPasswordHash } from "~/models/users.server";
import { hashPassword } from "./auth.server";
import { env } from "./env.server";
import { sendMail } from "./mail.server";
import { endAllSessionsOf } from "./session.server";

const TOKEN_LIFETIME = 30 * 60 * 1000;

function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

function resetMail(displayName: string, link: string) {
  const text = [
    `Dobrý deň, ${displayName},`,
    "",
    "niekto (dúfame, že vy) požiadal o obnovenie hesla k vášmu účtu na stránke Dejiny.",
    "Nové heslo si nastavíte na tejto adrese (platí 30 minút a dá sa použiť iba raz):",
    "",
    link,
    "",
    "Ak ste o obnovenie nežiadali, tento e-mail môžete ignorovať: vaše heslo sa nezmení.",
    "",
    "Redakcia Dejiny",
  ].join("\n");
  const escape = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
  const html = `<p>Dobrý deň, ${escape(displayName)},</p>
<p>niekto (dúfame, že vy) požiadal o obnovenie hesla k vášmu účtu na stránke Dejiny.</p>
<p><a href="${escape(link)}">Nastaviť nové heslo</a> (odkaz platí 30 minút a dá sa použiť iba raz).</p>
<p>Ak ste o obnovenie nežiadali, tento e-mail môžete ignorovať: vaše heslo sa nezmení.</p>
<p>Redakcia Dejiny</p>`;
  return { subject: "Obnovenie hesla – Dejiny", text, html };
}

/**
 * Send a reset link if an account has this e-mail. The caller answers the same
 * whatever happens here, so nobody learns which e-mails have accounts.
 */
export async function requestPasswordReset(email: string): Promise<void> {
  const user = getUserByEmail(email);
  if (!user?.passwordHash || user.disabledAt) return;
  const token = randomBytes(32).toString("base64url");
  insertResetToken({ tokenHash: hashToken(token), userId: user.id, expiresAt: Date.now() + TOKEN_LIFETIME });
  // Built from PUBLIC_URL, never from the request's Host header.
  const link = `${env.publicUrl}/reset-password?token=${token}`;
  await sendMail({ to: user.email, ...resetMail(user.displayName, link) });
}

export function isResetTokenUsable(token: string): boolean {
  return Boolean(token) && findUsableResetToken(hashToken(token), Date.now()) !== undefined;
}

/** Set a new password with a token: once, before it expires; ends every session of the user. */
export async function resetPassword(token: string, password: string): Promise<boolean> {
  // Hashing costs ~100 ms of CPU: not for a token that cannot work anyway.
  if (!isResetTokenUsable(token)) return false;
  const passwordHash = await hashPassword(password);
  const userId = consumeResetToken(hashToken(token), Date.now(), (id) => {
    setPasswordHash(id, passwordHash);
    endAllSessionsOf(id);
  });
  return userId !== null;
}
