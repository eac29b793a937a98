import { createHash, randomBytes } from "node:crypto";
import { consumeResetToken, findUsableResetToken, insertResetToken } from "~/models/reset-tokens.server";
import { showHiddenControls } from "~/lib/rules";
import { getUserByEmail, getUserById, setPasswordHash } from "~/models/users.server";
import { hashPassword } from "./auth.server";
import { env } from "~/config/env.server";
import { inTransaction } from "~/db/connection.server";
import { queueMail } from "./mail-outbox.server";
import { endAllSessionsOf } from "./session.server";
import { clearSignInLimits, LIMITS } from "./throttle.server";
import { forgetDevicesOf } from "./trusted-devices.server";

/**
 * A link lives as long as the window of an account's mail budget: while the
 * budget is used up (a stranger asked for the owner's reset again and
 * again), the link sent last in that window still works, so the owner
 * always has one in the mailbox (README: "Limits"). The mails say 30 minutes.
 */
const TOKEN_LIFETIME = LIMITS.resetMailsPerAccount.windowMs;

function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** The reset message; the name as stored may predate the rule against control characters, so they are written out. */
function resetMail(storedName: string, link: string) {
  const displayName = showHiddenControls(storedName);
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

/** A link goes out only while the owner has time to use it: a mail still waiting this close to the link's end is given up. */
const LAST_USEFUL_MS = 5 * 60 * 1000;

/**
 * Queue a reset link if an account has this e-mail: its token and its mail
 * are written together (the outbox delivers it). The caller answers the same
 * whatever happens here, so nobody learns which e-mails have accounts.
 */
function queueResetLink(email: string): void {
  const user = getUserByEmail(email);
  if (!user?.passwordHash || user.disabledAt) return;
  const token = randomBytes(32).toString("base64url");
  const expiresAt = Date.now() + TOKEN_LIFETIME;
  // Built from PUBLIC_URL, never from the request's Host header.
  const link = `${env.publicUrl}/reset-password?token=${token}`;
  inTransaction(() => {
    if (queueMail({ to: user.email, ...resetMail(user.displayName, link) }, { sendBefore: expiresAt - LAST_USEFUL_MS })) {
      insertResetToken({ tokenHash: hashToken(token), userId: user.id, expiresAt });
    }
  });
}

const QUEUE_MAX = 1_000;
const QUEUE_TICK_MS = 200;
const queue: string[] = [];
let draining: NodeJS.Timeout | undefined;

/**
 * Reset requests are answered at once and handled a moment later, on a timer
 * of their own: looking the account up and writing its token and mail would
 * otherwise make the answer for an existing account slower than for an
 * unknown one. The queue is bounded (requests are throttled anyway).
 */
export function queuePasswordReset(email: string): void {
  if (queue.length >= QUEUE_MAX) return void console.error("Password reset queue full; a request was dropped");
  queue.push(email);
  draining ??= setTimeout(drain, QUEUE_TICK_MS);
}

function drain(): void {
  for (let email = queue.shift(); email !== undefined; email = queue.shift()) {
    try {
      queueResetLink(email);
    } catch (error) {
      console.error("Password reset request failed", error);
    }
  }
  draining = undefined;
}

export function isResetTokenUsable(token: string): boolean {
  return Boolean(token) && findUsableResetToken(hashToken(token), Date.now()) !== undefined;
}

/** Tokens whose new password is being hashed: the same token sent many times at once is hashed once. */
const resetting = new Set<string>();

/**
 * Set a new password with a token: once, before it expires; ends every
 * session of the user, forgets its trusted devices and lifts the account's
 * sign-in limits (its owner has just proved who they are). The user's id,
 * or null when the token does not work.
 */
export async function resetPassword(token: string, password: string): Promise<string | null> {
  const tokenHash = hashToken(token);
  // Hashing costs ~130 ms of CPU: not for a token that cannot work anyway.
  if (!token || resetting.has(tokenHash) || !findUsableResetToken(tokenHash, Date.now())) return null;
  resetting.add(tokenHash);
  try {
    const passwordHash = await hashPassword(password);
    const userId = consumeResetToken(tokenHash, Date.now(), (id) => {
      setPasswordHash(id, passwordHash);
      endAllSessionsOf(id);
      forgetDevicesOf(id);
    });
    const user = userId === null ? undefined : getUserById(userId);
    if (user) clearSignInLimits(user.email);
    return userId;
  } finally {
    resetting.delete(tokenHash);
  }
}
