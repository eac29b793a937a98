import { consumeResetToken, findUsableResetToken, insertResetToken } from "~/models/reset-tokens.server";
import { getUserByEmail, getUserById, setPasswordHash } from "~/models/users.server";
import { hashPassword } from "./auth.server";
import { inTransaction } from "~/db/connection.server";
import { hashLinkToken, linkMail, newLinkToken } from "./link-tokens.server";
import { queueMail } from "~/services/platform/mail-outbox.server";
import { endAllSessionsOf } from "~/services/platform/session.server";
import { clearSignInLimits, LIMITS } from "~/services/platform/throttle.server";
import { forgetDevicesOf } from "./trusted-devices.server";

/**
 * A link lives as long as the window of an account's mail budget: while the
 * budget is used up (a stranger asked for the owner's reset again and
 * again), the link sent last in that window still works, so the owner
 * always has one in the mailbox (docs/limits-and-security.md, "Nobody locks an owner out"). The mails say 30 minutes.
 */
const TOKEN_LIFETIME = LIMITS.resetMailsPerAccount.windowMs;

/** The reset message: the site's words and the link only (it may go to an address nobody has confirmed: link-tokens.server.ts). */
function resetMail(link: string) {
  return linkMail("Obnovenie hesla – Dejiny", {
    before: [
      "niekto (dúfame, že vy) požiadal o obnovenie hesla k vášmu účtu na stránke Dejiny.",
      "Nové heslo si nastavíte na tejto adrese (platí 30 minút a dá sa použiť iba raz):",
    ],
    link,
    linkText: "Nastaviť nové heslo",
    after: ["Ak ste o obnovenie nežiadali, tento e-mail môžete ignorovať: vaše heslo sa nezmení."],
  });
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
  const { tokenHash, link } = newLinkToken("/reset-password");
  const expiresAt = Date.now() + TOKEN_LIFETIME;
  inTransaction(() => {
    if (queueMail({ to: user.email, ...resetMail(link) }, { kind: "account", sendBefore: expiresAt - LAST_USEFUL_MS })) {
      insertResetToken({ tokenHash, userId: user.id, expiresAt });
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
  return Boolean(token) && findUsableResetToken(hashLinkToken(token), Date.now()) !== undefined;
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
  const tokenHash = hashLinkToken(token);
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
