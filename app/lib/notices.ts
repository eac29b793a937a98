import { MODERATION_MESSAGES } from "~/lib/moderation/moderation";
import { ACCOUNT_MESSAGES } from "~/lib/rules";

/**
 * The word after an action (docs/articles.md, "After each action"): shown
 * once, on the page the action's redirect leads to, then gone. NOTICES are
 * said by the toast over any page (ActionNotice); a page's own words, said
 * in its status line, are its own map's, under keys of their own: the
 * account, sign-in, decisions and admin pages' below, the draft page's
 * DRAFT_NOTICES (drafts.ts), an account's admin page's ACCOUNT_ACTIONS
 * (moderation.ts).
 * Fixed texts under a key, so nothing typed can put words on a page.
 */
export const NOTICES = {
  published: "Článok je uverejnený.",
  saved: "Zmeny sú uložené.",
  deleted: "Článok je odstránený.",
  restored: "Verzia je obnovená ako nová úprava článku.",
  hidden: "Článok je skrytý pred čitateľmi.",
  shown: "Článok je znova zverejnený.",
  revisionsDecided: "Rozhodnutie o verziách je uložené.",
} as const;

export type Notice = keyof typeof NOTICES;

/** What a notice's key looks like: the cookie carries nothing else (notice.server.ts). */
export const NOTICE_KEY = /^[A-Za-z]{1,32}$/;

/** What /account says after a change went through. */
export const ACCOUNT_NOTICES = {
  rename: "Meno je zmenené.",
  password: "Heslo je zmenené. Ostatné zariadenia sú odhlásené.",
  endSession: "Zariadenie je odhlásené.",
  draftDeleted: "Koncept je zmazaný.",
  confirmationSent: "Odkaz na potvrdenie e-mailovej adresy sme poslali. Platí 24 hodín. Ak e-mail nevidíte, pozrite sa aj do priečinka so spamom.",
} as const;

export type AccountNotice = keyof typeof ACCOUNT_NOTICES;

/** What the sign-in page says when another page's form sends the reader there (signed out, or to sign in again). */
export const SIGNIN_NOTICES = {
  resetSent: ACCOUNT_MESSAGES.resetSent,
  passwordChanged: ACCOUNT_MESSAGES.passwordChanged,
  signedOutEverywhere: "Odhlásili sme vás na všetkých zariadeniach.",
  accountDeleted: "Váš účet je zrušený. Ďakujeme, že ste s\u00a0nami písali históriu.",
} as const;

export type SignInNotice = keyof typeof SIGNIN_NOTICES;

/** What "Rozhodnutia o mojom obsahu" (/account/decisions) says after an appeal is filed. */
export const DECISIONS_NOTICES = {
  appealed: MODERATION_MESSAGES.appealFiled,
} as const;

export type DecisionsNotice = keyof typeof DECISIONS_NOTICES;

/** What /admin says after a decision, or the conflicts saved (admin.conflicts.tsx). */
export const ADMIN_NOTICES = {
  decided: "Rozhodnutie je zapísané; nahlasovatelia a autor ho uvidia vo svojom účte a dostanú e-mail, ak majú potvrdenú adresu.",
  appeal: "Rozhodnutie o námietke je zapísané; autor ho uvidí vo svojom účte a dostane e-mail, ak má potvrdenú adresu.",
  conflict: "Aktuálne konflikty sú uložené.",
  digest: "Týždenný prehľad sa pripravuje: dostanú ho odberatelia, ktorým od posledného prehľadu pribudol článok z ich tém.",
} as const;

export type AdminNotice = keyof typeof ADMIN_NOTICES;
