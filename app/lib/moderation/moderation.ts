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

/** Why a reader marks one passage ("Zdroj?" beside a paragraph). */
export const PASSAGE_REASONS = {
  missingSource: "Chýba zdroj",
  inaccurate: "Nepresné",
  otherPassage: "Iné",
} as const;
export type PassageReason = keyof typeof PASSAGE_REASONS;

export function reasonLabel(reason: string): string {
  if (Object.hasOwn(REPORT_REASONS, reason)) return REPORT_REASONS[reason as ReportReason];
  return Object.hasOwn(PASSAGE_REASONS, reason) ? PASSAGE_REASONS[reason as PassageReason] : reason;
}

/** Where a report is: open until an admin decides; closed when its article went away by another way (its author deleted it, or an admin without a decision on the reports: from the article page, "remove all articles"). */
export const REPORT_STATES = {
  open: "Otvorené — redakcia ho ešte posudzuje",
  upheld: "Opodstatnené",
  dismissed: "Zamietnuté",
  closed: "Uzavreté — článok bol medzitým odstránený",
} as const;
export type ReportState = keyof typeof REPORT_STATES;

/**
 * What a moderator may decide, as readers of the public log read it.
 * `upheld` says whether the reports were right; `restricts`, whether the
 * author gets a statement of reasons they may contest.
 */
export const DECISION_ACTIONS = {
  dismiss: { label: "Hlásenie zamietnuté", choice: "Zamietnuť: článok je v poriadku", upheld: false, restricts: false },
  dismissAbusive: { label: "Hlásenie zamietnuté ako zneužité", choice: "Zamietnuť ako zneužité hlásenie", upheld: false, restricts: false },
  requestFix: { label: "Autor vyzvaný na opravu", choice: "Opodstatnené: vyzvať autora na opravu (článok zostane)", upheld: true, restricts: false },
  hide: { label: "Článok skrytý", choice: "Opodstatnené: skryť článok", upheld: true, restricts: true },
  delete: { label: "Článok odstránený", choice: "Opodstatnené: natrvalo odstrániť článok", upheld: true, restricts: true },
  disable: { label: "Článok skrytý a účet autora zablokovaný", choice: "Opodstatnené: skryť článok a zablokovať autora", upheld: true, restricts: true },
  restore: { label: "Skrytý článok znova zverejnený", choice: "Znova zverejniť", upheld: false, restricts: false },
  // Not a choice of the report queue: the account page's (and the command line's) "remove all articles".
  removeArticles: { label: "Všetky články autora odstránené", choice: "Odstrániť všetky články autora", upheld: true, restricts: true },
  // The history's: parts of old revisions hidden from everyone but admins, erased for good, or shown again (no report is upheld by them).
  hideRevision: { label: "Časti staršej verzie článku skryté", choice: "Skryť vybrané časti", upheld: false, restricts: true },
  eraseRevision: { label: "Časti staršej verzie článku natrvalo vymazané", choice: "Natrvalo vymazať vybrané časti", upheld: false, restricts: true },
  showRevision: { label: "Skryté časti staršej verzie článku znova zobrazené", choice: "Znova zobraziť vybrané časti", upheld: false, restricts: false },
} as const;
export type DecisionAction = keyof typeof DECISION_ACTIONS;
/** The decisions that restrict an author's article or account: each is a statement of reasons they may contest. */
export const RESTRICTING_ACTIONS = (Object.keys(DECISION_ACTIONS) as DecisionAction[]).filter((action) => DECISION_ACTIONS[action].restricts);
/** What an admin may choose for a set of open reports. */
export const REPORT_DECISIONS = ["dismiss", "dismissAbusive", "requestFix", "hide", "delete", "disable"] as const satisfies readonly DecisionAction[];
export type ReportDecision = (typeof REPORT_DECISIONS)[number];

export function isReportDecision(value: unknown): value is ReportDecision {
  return typeof value === "string" && (REPORT_DECISIONS as readonly string[]).includes(value);
}

/** A decision's label; a disabling without an article (the account page, the command line) disabled the account alone. */
export function decisionLabel(action: string, onArticle = true): string {
  if (action === "disable" && !onArticle) return "Účet zablokovaný";
  return Object.hasOwn(DECISION_ACTIONS, action) ? DECISION_ACTIONS[action as DecisionAction].label : action;
}

export const DECISION_REASON_MAX_LENGTH = 500;
export const APPEAL_MAX_LENGTH = 2_000;
/** How long an author may contest a decision (about six months). */
export const APPEAL_WINDOW_MS = 183 * 24 * 60 * 60 * 1000;
/** At most this many articles' reports decided by one bulk form. */
export const DECISIONS_PER_FORM = 50;

export const APPEAL_STATES = {
  open: "Námietka čaká na rozhodnutie",
  granted: "Námietke sa vyhovelo",
  rejected: "Námietka bola zamietnutá",
} as const;
export type AppealState = keyof typeof APPEAL_STATES;

/** The ground of a decision, as its statement of reasons names it. */
export function groundLabel(decision: { ground: string; groundDetail: string }): string {
  if (decision.ground === "reports") return `hlásenia čitateľov (${decision.groundDetail})`;
  // A decision on old revisions names them (and what of them) here: "vlastný podnet redakcie; verzie 2, 3 (text)".
  return decision.groundDetail ? `vlastný podnet redakcie; ${decision.groundDetail}` : "vlastný podnet redakcie";
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
  decideReports: "Rozhodnutie o hláseniach",
  hideArticle: "Skrytie článku",
  restoreHidden: "Znova zverejnenie skrytého článku",
  hideRevision: "Skrytie častí staršej verzie",
  eraseRevision: "Natrvalo vymazanie častí staršej verzie",
  showRevision: "Znova zobrazenie častí staršej verzie",
  decideAppeal: "Rozhodnutie o námietke",
  deleteAccount: "Zrušenie vlastného účtu",
  confirmEmail: "Potvrdenie e-mailovej adresy účtu",
  createConflict: "Pridanie aktuálneho konfliktu",
  editConflict: "Úprava aktuálneho konfliktu",
  deleteConflict: "Odstránenie aktuálneho konfliktu",
} as const;
export type LogAction = keyof typeof LOG_ACTIONS;

/** Who did it, when it was not an admin on the site. */
export const COMMAND_LINE_ACTOR = "Príkazový riadok (npm run admin)";

export const MODERATION_MESSAGES = {
  notYourself: "Vlastný účet nemôžete zablokovať ani mu odobrať práva administrátora.",
  lastAdmin: "Toto je posledný aktívny administrátor: stránka musí mať aspoň jedného.",
  lastAdminDelete: "Ste posledný aktívny administrátor: najprv udeľte práva administrátora inému účtu.",
  noSuchAccount: "Takýto účet neexistuje.",
  noArticles: "Účet nemá žiadne články.",
  noSuchReport: "Toto hlásenie už bolo vybavené.",
  reportReason: "Vyberte dôvod nahlásenia.",
  reportNote: `Poznámka môže mať najviac ${REPORT_NOTE_MAX_LENGTH} znakov.`,
  reportNoteControls: "Poznámka nesmie obsahovať riadiace ani neviditeľné znaky.",
  reportDuplicate: "Tento článok ste už nahlásili. Redakcia sa vaším hlásením zaoberá.",
  reportOwn: "Vlastný článok nemôžete nahlásiť.",
  reportQuota: "Dosiahli ste limit hlásení. Skúste to, prosím, neskôr.",
  appealFiled: "Námietku sme prijali. Posúdi ju iný administrátor; o rozhodnutí vám dáme vedieť aj e-mailom, ak máte potvrdenú e-mailovú adresu.",
  reportReceived: "Ďakujeme, hlásenie sme prijali. Čo redakcia rozhodla, uvidíte v Mojich hláseniach a dostanete e-mail.",
  /** An account whose address is not confirmed gets no mail about it (mail-outbox.server.ts). */
  reportReceivedUnconfirmed: "Ďakujeme, hlásenie sme prijali. Čo redakcia rozhodla, uvidíte v Mojich hláseniach. E-mailom vám dáme vedieť, až keď potvrdíte svoju e-mailovú adresu (Môj účet).",
  passageReason: "Vyberte, čo je s odsekom v neporiadku.",
  passageDuplicate: "Tento odsek ste už označili. Redakcia sa vaším hlásením zaoberá.",
  noSuchPassage: "Taký odsek článok nemá. Vráťte sa na článok a kliknite na „Zdroj?“ pri odseku, ktorý chcete označiť.",
  decisionReason: "Napíšte odôvodnenie: prečítajú si ho nahlasovatelia aj autor.",
  decisionReasonLength: `Odôvodnenie môže mať najviac ${DECISION_REASON_MAX_LENGTH} znakov.`,
  decisionReasonControls: "Odôvodnenie nesmie obsahovať riadiace ani neviditeľné znaky.",
  decisionChoice: "Vyberte rozhodnutie.",
  decisionNothingChosen: "Vyberte aspoň jeden nahlásený článok.",
  decisionTooMany: `Naraz môžete rozhodnúť najviac o ${DECISIONS_PER_FORM} článkoch.`,
  alreadyDecided: "O týchto hláseniach už bolo rozhodnuté.",
  appealText: "Napíšte, prečo s rozhodnutím nesúhlasíte.",
  appealLength: `Námietka môže mať najviac ${APPEAL_MAX_LENGTH} znakov.`,
  appealControls: "Námietka nesmie obsahovať riadiace ani neviditeľné znaky.",
  appealNotYours: "Toto rozhodnutie sa netýka vás: nemôžete ho napadnúť.",
  appealTwice: "Proti tomuto rozhodnutiu ste už podali námietku.",
  appealLate: "Lehota na námietku (6 mesiacov) uplynula.",
  appealNotAllowed: "Proti tomuto rozhodnutiu sa nedá podať námietka.",
  appealDecided: "O tejto námietke už bolo rozhodnuté.",
  appealOwnDecision: "O námietke proti vlastnému rozhodnutiu musí rozhodnúť iný administrátor.",
  appealOwnAppeal: "O vlastnej námietke nemôžete rozhodnúť: rozhodne o nej iný administrátor.",
  ownArticle: "O hláseniach vášho vlastného článku rozhodne iný administrátor.",
  noSuchAppeal: "Takáto námietka neexistuje.",
  notHidden: "Tento článok nie je skrytý.",
  ownRestore: "Váš vlastný článok znova zverejní iný administrátor.",
  ownRevisions: "O verziách vášho vlastného článku či vašich úprav rozhodne iný administrátor.",
  noRevisionChosen: "Vyberte aspoň jednu staršiu verziu.",
  currentRevision: "Aktuálnu verziu nemožno skryť: zmeňte ju úpravou článku.",
  noPartChosen: "Vyberte, čo z verzií skryť: text, popis zmeny alebo meno.",
  tooManyRevisions: "Naraz môžete rozhodnúť najviac o 50 verziách.",
  disableAdmin: "Autor jedného z článkov je administrátor: jeho účet zablokujete na stránke účtu.",
  currentPassword: "Zadajte svoje súčasné heslo.",
  wrongPassword: "Heslo nie je správne.",
} as const;

/** The action an admin may take on an account, with the question that confirms it and what the account's page says when it is done (the notice under the action's name: app/lib/notices.ts). */
export const ACCOUNT_ACTIONS = {
  disable: { button: "Zablokovať", confirm: "Zablokovať účet {name}? Používateľ bude odhlásený na všetkých zariadeniach a nebude sa môcť prihlásiť.", done: "Účet je zablokovaný." },
  enable: { button: "Odblokovať", confirm: "Odblokovať účet {name}? Znova sa bude môcť prihlásiť.", done: "Účet je odblokovaný." },
  grant: { button: "Udeliť práva administrátora", confirm: "Udeliť účtu {name} práva administrátora? Bude môcť upravovať a odstraňovať všetky články a spravovať účty.", done: "Účet má práva administrátora." },
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

/** A statement of reasons, as the author reads it (/account/decisions, the sign-in page of a disabled account). */
export type StatementOfReasons = {
  id: number;
  action: string;
  postTitle: string | null;
  reason: string;
  ground: string;
  groundDetail: string;
  createdAt: number;
  /** Until when an appeal may be filed, while it may. */
  appealUntil: number | null;
  appeal: { state: AppealState; text: string; createdAt: number; decidedAt: number | null; reason: string } | null;
};
