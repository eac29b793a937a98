/** Words of moderation and accounts, shared by the pages and the server. */

export const REPORT_REASONS = {
  spam: "Spam alebo reklama",
  misinformation: "Nepravdivé alebo zavádzajúce informácie",
  offensive: "Urážlivý alebo nenávistný obsah",
  copyright: "Porušenie autorských práv",
  other: "Iný dôvod",
} as const;
export type ReportReason = keyof typeof REPORT_REASONS;
export const REPORT_NOTE_MAX_LENGTH = 500;

export function reasonLabel(reason: string): string {
  return Object.hasOwn(REPORT_REASONS, reason) ? REPORT_REASONS[reason as ReportReason] : reason;
}

/** What an entry of the moderation log says was done. */
export const LOG_ACTIONS = {
  disable: "Zablokovanie účtu",
  enable: "Odblokovanie účtu",
  grant: "Udelenie práv administrátora",
  revoke: "Odobratie práv administrátora",
  removeArticles: "Odstránenie všetkých článkov účtu",
  editArticle: "Úprava cudzieho článku",
  restoreArticle: "Obnovenie staršej verzie cudzieho článku",
  deleteArticle: "Odstránenie cudzieho článku",
  dismissReport: "Zamietnutie hlásenia",
  deleteAccount: "Zrušenie vlastného účtu",
} as const;
export type LogAction = keyof typeof LOG_ACTIONS;

/** Who did it, when it was not an admin on the site. */
export const COMMAND_LINE_ACTOR = "príkazový riadok (npm run admin)";

export const MODERATION_MESSAGES = {
  notYourself: "Vlastný účet nemôžete zablokovať ani mu odobrať práva administrátora.",
  lastAdmin: "Toto je posledný aktívny administrátor: stránka musí mať aspoň jedného.",
  lastAdminDelete: "Ste posledný aktívny administrátor: najprv udeľte práva administrátora inému účtu.",
  noSuchAccount: "Takýto účet neexistuje.",
  noSuchReport: "Toto hlásenie už bolo vybavené.",
  reportReason: "Vyberte dôvod nahlásenia.",
  reportNote: `Poznámka môže mať najviac ${REPORT_NOTE_MAX_LENGTH} znakov.`,
  reportNoteControls: "Poznámka nesmie obsahovať riadiace ani neviditeľné znaky.",
  reportDuplicate: "Tento článok ste už nahlásili. Redakcia sa vaším hlásením zaoberá.",
  reportOwn: "Vlastný článok nemôžete nahlásiť.",
  reportQuota: "Dosiahli ste limit hlásení. Skúste to, prosím, neskôr.",
  currentPassword: "Zadajte svoje súčasné heslo.",
  wrongPassword: "Heslo nie je správne.",
} as const;

/** The action an admin may take on an account, with the question that confirms it and what is said when it is done. */
export const ACCOUNT_ACTIONS = {
  disable: { button: "Zablokovať", confirm: "Zablokovať účet {name}? Odhlási sa všade a nebude sa môcť prihlásiť.", done: "Účet je zablokovaný." },
  enable: { button: "Odblokovať", confirm: "Odblokovať účet {name}? Znova sa bude môcť prihlásiť.", done: "Účet je odblokovaný." },
  grant: { button: "Udeliť práva administrátora", confirm: "Udeliť účtu {name} práva administrátora? Bude môcť upravovať a mazať všetky články a spravovať účty.", done: "Účet má práva administrátora." },
  revoke: { button: "Odobrať práva administrátora", confirm: "Odobrať účtu {name} práva administrátora?", done: "Účet už nemá práva administrátora." },
  removeArticles: {
    button: "Odstrániť všetky články",
    confirm: "Natrvalo odstrániť všetky články účtu {name} ({count}) aj s obrázkami? Nedá sa to vrátiť.",
    done: "Články účtu sú odstránené.",
  },
} as const;
export type AccountAction = keyof typeof ACCOUNT_ACTIONS;

export function isAccountAction(value: unknown): value is AccountAction {
  return typeof value === "string" && Object.hasOwn(ACCOUNT_ACTIONS, value);
}

/** A page number from the address: 1, 2, … (anything else is 1). The caller clamps it to the last page. */
export function parsePage(raw: string | null): number {
  const n = Number.parseInt(raw ?? "", 10);
  return Number.isSafeInteger(n) && n > 1 ? n : 1;
}

/** The rows of page `page` of `total`, clamped to the last page. */
export function pageWindow(page: number, total: number, size: number): { page: number; pages: number; offset: number; limit: number } {
  const pages = Math.max(1, Math.ceil(total / size));
  const clamped = Math.min(page, pages);
  return { page: clamped, pages, offset: (clamped - 1) * size, limit: size };
}

/** "1 článok", "3 články", "5 článkov". */
export function articleCount(n: number): string {
  return `${n} ${n === 1 ? "článok" : n >= 2 && n <= 4 ? "články" : "článkov"}`;
}
