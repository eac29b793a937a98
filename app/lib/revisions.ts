/** Words and shapes of an article's history, shared by the article page, the history page and the server. */
import type { Source } from "./sources";

/** "1 verzia", "3 verzie", "5 verzií". */
export function revisionCount(n: number): string {
  return `${n} ${n === 1 ? "verzia" : n >= 2 && n <= 4 ? "verzie" : "verzií"}`;
}

/** "1 úprava", "3 úpravy", "5 úprav". */
export function editCount(n: number): string {
  return `${n} ${n === 1 ? "úprava" : n >= 2 && n <= 4 ? "úpravy" : "úprav"}`;
}

// One formatter for every number of the history: toLocaleString builds a new one each call (0.2 ms here, 50 a page).
const NUMBER = new Intl.NumberFormat("sk-SK");

/** A revision's size change as the history shows it: "+120", "−7" (a minus sign, not a hyphen), "0". */
export function sizeChange(characters: number): string {
  if (characters > 0) return `+${NUMBER.format(characters)}`;
  if (characters < 0) return `−${NUMBER.format(-characters)}`;
  return "0";
}

/** "1 234 znakov" */
export const characterCount = (n: number) => `${NUMBER.format(n)} znakov`;

/** Revisions on one page of an article's history. */
export const REVISIONS_PER_PAGE = 50;

/**
 * The history's `page` parameter: absent is the first page; anything but a
 * whole number from 1 to `pages` written plainly is null (the page answers 404).
 */
export function historyPage(raw: string | null, pages: number): number | null {
  if (raw === null) return 1;
  if (!/^[1-9]\d{0,5}$/.test(raw)) return null;
  const page = Number(raw);
  return page <= pages ? page : null;
}

/** One saved state of an article as its history names it. */
export type RevisionInfo = { id: string; number: number; editorName: string; createdAt: number; summary: string; hidden: RevisionHiding };

/** What moderation hid of a revision (from everyone but admins), and whether what was hidden is erased for good. */
export type RevisionHiding = { text: boolean; summary: boolean; editor: boolean; erased: boolean };

/** The parts of a revision moderation may hide: its text (title, text, sources, period, tags, image), its summary, its editor's name. */
export const REVISION_PARTS = ["text", "summary", "editor"] as const;
export type RevisionPart = (typeof REVISION_PARTS)[number];

export const REVISION_PART_LABELS: Record<RevisionPart, string> = {
  text: "text (nadpis, text, zdroje, obdobie)",
  summary: "popis zmeny",
  editor: "meno autora úpravy",
};

/** What a reader sees in place of a hidden part. */
export const HIDDEN_PART_WORDS = {
  text: "Text tejto verzie skryla redakcia.",
  summary: "popis skrytý redakciou",
  editor: "meno skryté redakciou",
  erased: "vymazané natrvalo",
} as const;

/** A revision as someone who may not see hidden parts reads it: the hidden summary and name are not sent at all. */
export function withoutHiddenParts<T extends RevisionInfo>(revision: T): T {
  return { ...revision, editorName: revision.hidden.editor ? "" : revision.editorName, summary: revision.hidden.summary ? "" : revision.summary };
}

/** A revision whole: what readers saw while it was the current one. */
export type RevisionContent = RevisionInfo & {
  title: string;
  content: string;
  sources: Source[];
  tags: string[];
  /** Its image's key and size (each revision keeps its own image). */
  image: string;
  imageWidth: number;
  imageHeight: number;
  period: string;
};

/**
 * A revision's id in an address: the site writes 12 URL-safe characters
 * (18 hex digits for those made by migration 0014); anything else is no revision.
 */
export const REVISION_ID = /^[\w-]{1,32}$/;

/** A run of words of a comparison: in both versions, added in the newer, or removed from the older. */
export type DiffPart = { value: string; added: boolean; removed: boolean };

/** A field compared word by word or, when that costs more than one comparison may, only the two versions' sizes. */
export type FieldDiff = { parts: DiffPart[] } | { tooLarge: { from: number; to: number } };

/** Two revisions compared, the older first: their texts word by word, their tags and image as changed or not. */
export type Comparison = {
  from: RevisionInfo;
  to: RevisionInfo;
  /** The address named them newer first: they are shown the other way round. */
  swapped: boolean;
  title: FieldDiff;
  text: FieldDiff;
  sources: FieldDiff;
  tags: { added: string[]; removed: string[] };
  /** The period of each, as typed (empty when none). */
  period: { from: string; to: string };
  /** The image of each (the same key when it did not change). */
  image: { from: RevisionImage; to: RevisionImage };
};

export type RevisionImage = { key: string; width: number; height: number };

export const REVISION_MESSAGES = {
  diffTooLarge: "Rozdiel je príliš veľký na zobrazenie po slovách",
  swapped: "Adresa uviedla novšiu verziu ako prvú: zmeny ukazujeme od staršej k novšej.",
  alreadyCurrent: "Táto verzia je aktuálna: niet čo obnoviť.",
  // A form without a revision to be based on (opened before the check existed, or forged).
  staleForm: "Tento formulár na úpravu je zastaraný. Vaše zmeny nie sú uložené: pozrite si rozdiel oproti aktuálnemu článku nižšie a uložte znova.",
  erasedText: "Text tejto verzie redakcia natrvalo vymazala: nedá sa obnoviť.",
  staleRestore: "Tento formulár na obnovenie je zastaraný: nič nebolo obnovené. Otvorte verziu znova a potvrďte obnovenie.",
  restoreNotMade: "Nič nebolo obnovené: pozrite si históriu a rozhodnite znova.",
  confirmRestore: "Obnoviť túto verziu? Vznikne nová verzia s jej nadpisom, textom a zdrojmi; história ostane celá.",
  // Saved before today's bounds of the stored text and sources: restoring it would store more than an edit may.
  beyondBounds: "Túto verziu nemožno obnoviť: jej text alebo odkazy v zdrojoch sú po uložení dlhšie, ako dnes pravidlá dovoľujú. Prevezmite z nej, čo potrebujete, do úpravy článku.",
} as const;

/**
 * A save refused because the article changed since its form was opened:
 * who saved last and when, the current article against what was typed, and
 * the revision the answer's form is now based on.
 */
export type EditConflict = {
  /** The article's current revision: the base of the form shown again. */
  base: number;
  last: RevisionInfo;
  changes: Pick<Comparison, "title" | "text" | "sources">;
};

/** Why a save was not written: edits saved since its form was opened (`since` of them, the last by `name` at `date`). */
export function editConflictMessage(since: number, name: string, date: string): string {
  return `${savedSince(since, name, date)} Vaše zmeny nie sú uložené: pozrite si rozdiel nižšie a uložte znova.`;
}

/** Why a restore was not made: edits saved since its confirmation was shown (`since` of them, the last by `name` at `date`). */
export function restoreConflictMessage(since: number, name: string, date: string): string {
  return `${savedSince(since, name, date)} ${REVISION_MESSAGES.restoreNotMade}`;
}

/** "Kým ste písali, článok upravil(a) … (…)." */
function savedSince(since: number, name: string, date: string): string {
  const who = since === 1 ? `článok upravil(a) ${name} (${date})` : `článok dostal ${editCount(since)}, naposledy od ${name} (${date})`;
  return `Kým ste písali, ${who}.`;
}

/** The summary of a restore's revision, dated like the history. */
export const restoredSummary = (date: string) => `Obnovená verzia z ${date}`;
