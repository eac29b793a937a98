import { inTransaction } from "~/db/connection.server";
import { ACCOUNT_MESSAGES } from "~/lib/rules";
import { consumeConfirmationToken, findUsableConfirmationToken, insertConfirmationToken, useConfirmationTokensOf } from "~/models/confirmation-tokens.server";
import { setEmailConfirmed } from "~/models/users.server";
import { hashLinkToken, linkMail, newLinkToken } from "./link-tokens.server";
import { queueMail } from "~/services/platform/mail-outbox.server";
import { logModeration, type Actor } from "~/services/platform/moderation-log.server";
import { confirmationMailAttempts, release, reserve } from "~/services/platform/throttle.server";

/**
 * An account's e-mail address is confirmed when its owner follows the link
 * mailed to it at registration (or asked for again on /account): valid a
 * day, once, only its hash stored. The link opens a page whose button
 * confirms (a POST), so a mail scanner that fetches the link confirms
 * nothing. Until then the site mails the address nothing but these links
 * and reset links (queueMail, mail-outbox.server.ts); accounts made before
 * confirmation existed start unconfirmed too (docs/decisions/).
 */

const HOUR = 60 * 60 * 1000;
const CONFIRMATION_LIFETIME_MS = 24 * HOUR;

function confirmationMail(link: string) {
  return linkMail("Potvrdenie e-mailovej adresy – Dejiny", {
    before: [
      "s touto adresou si niekto (dúfame, že vy) založil účet na stránke Dejiny.",
      "Ak je adresa vaša, potvrďte ju: otvorte tento odkaz a stlačte tlačidlo „Potvrdiť adresu“ (odkaz platí 24 hodín a dá sa použiť iba raz):",
    ],
    link,
    linkText: "Potvrdiť e-mailovú adresu",
    after: ["Kým adresu nepotvrdíte, posielame na ňu iba takéto odkazy a odkazy na obnovenie hesla. Ak ste si účet nezakladali, e-mail môžete ignorovať: nič iné vám nepošleme."],
  });
}

/**
 * Queue a confirmation link for the account, in the caller's transaction
 * (its token and its mail are written together, or neither). False when
 * the outbox has no room for it: the owner can ask again on /account.
 */
export function queueConfirmationLink(user: { id: string; email: string }, now = Date.now()): boolean {
  const { tokenHash, link } = newLinkToken("/confirm-email");
  const expiresAt = now + CONFIRMATION_LIFETIME_MS;
  return inTransaction(() => {
    // A link that would reach the mailbox with less than an hour left is not sent.
    if (!queueMail({ to: user.email, ...confirmationMail(link) }, { kind: "account", sendBefore: expiresAt - HOUR, now })) return false;
    insertConfirmationToken({ tokenHash, userId: user.id, createdAt: now, expiresAt });
    return true;
  });
}

export type ConfirmationResult = { ok: true } | { ok: false; status: number; error: string };

/** The owner asks for the link again (/account): bounded per account and per client address (LIMITS). */
export function resendConfirmationLink(user: { id: string; email: string; emailConfirmedAt: number | null }, clientAddress: string): ConfirmationResult {
  if (user.emailConfirmedAt !== null) return { ok: true };
  const attempts = confirmationMailAttempts(user.id, clientAddress);
  if (!reserve(attempts)) return { ok: false, status: 429, error: ACCOUNT_MESSAGES.confirmationQuota };
  if (queueConfirmationLink(user)) return { ok: true };
  release(attempts);
  return { ok: false, status: 503, error: ACCOUNT_MESSAGES.confirmationNotQueued };
}

export function isConfirmationTokenUsable(token: string): boolean {
  return Boolean(token) && findUsableConfirmationToken(hashLinkToken(token), Date.now()) !== undefined;
}

/** Confirm the address a link was mailed to: once, before it expires (every other link of the account is used up with it). Whether it worked. */
export function confirmEmail(token: string): boolean {
  if (!token) return false;
  const now = Date.now();
  return consumeConfirmationToken(hashLinkToken(token), now, (userId) => setEmailConfirmed(userId, now)) !== null;
}

/**
 * An admin confirms the address (`npm run admin -- confirm`, for a site
 * without a mail service, or an owner who proved it otherwise), logged
 * like every admin action. False when it was confirmed already.
 */
export function confirmEmailAs(actor: Actor, user: { id: string; displayName: string; emailConfirmedAt: number | null }): boolean {
  if (user.emailConfirmedAt !== null) return false;
  const now = Date.now();
  inTransaction(() => {
    setEmailConfirmed(user.id, now);
    useConfirmationTokensOf(user.id, now);
    logModeration(actor, "confirmEmail", { user });
  });
  return true;
}
