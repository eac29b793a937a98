/** Drafts and previews: their bounds and messages, shared by the browser and the server (docs/limits-and-security.md, "Limits"). */
import type { Source } from "./sources";

/** Drafts one account may keep at once: the account page lists them all. */
export const DRAFTS_PER_ACCOUNT = 50;
/** Previews one account may ask for in an hour: each sanitises the body (CPU, in the worker pool). */
export const PREVIEWS_PER_HOUR = 120;

/** A draft's address: random ids as the model makes them. */
export const DRAFT_ID = /^[\w-]{1,32}$/;

/** What the form's buttons ask for (the `intent` field). */
export type FormIntent = "publish" | "draft" | "preview";

export function formIntent(value: unknown): FormIntent {
  return value === "draft" || value === "preview" ? value : "publish";
}

export const DRAFT_MESSAGES = {
  titleMissing: "Koncept potrebuje aspoň nadpis.",
  tooMany: `Máte už ${DRAFTS_PER_ACCOUNT} konceptov, viac sa uložiť nedá. Uverejnite alebo zmažte niektorý zo starších (nájdete ich na stránke Môj účet).`,
  previewQuota: `Dosiahli ste limit náhľadov: najviac ${PREVIEWS_PER_HOUR} za hodinu. Skúste to, prosím, neskôr.`,
  notAuthor: "Koncept môže uložiť, uverejniť alebo zmazať iba jeho autor.",
  confirmDelete: "Naozaj chcete zmazať tento koncept? Vráťte sa späť, ak nie.",
  /** A pending edit whose article was deleted meanwhile, and what was typed could not be kept (the draft's refusal follows). */
  articleGoneNotSaved: "Článok, ktorý ste upravovali, bol medzitým odstránený. Váš text je vo formulári nižšie, ale nepodarilo sa ho uložiť:",
} as const;

/** What a draft page says after a change went through (in its status line: app/lib/notices.ts). */
export const DRAFT_NOTICES = {
  draftSaved: "Koncept je uložený. Čitatelia ho nevidia.",
  // A pending edit whose article was deleted meanwhile: what was typed is now a new article's draft.
  articleGone: "Článok, ktorý ste upravovali, bol medzitým odstránený. Váš text sme uložili ako koncept nového článku: ak ho chcete uverejniť, doplňte tagy a obrázok.",
} as const;

export type DraftNotice = keyof typeof DRAFT_NOTICES;

/** The preview region's label. */
export const PREVIEW_LABEL = "Náhľad — článok ešte nie je uverejnený";

/** A sanitised article as the preview shows it. */
export type ArticlePreview = {
  title: string;
  /** Stored content: sanitised HTML, newlines as <br/>. */
  content: string;
  sources: Source[];
  /** As it will be shown (~/lib/time/periods tidyPeriod). */
  period: string;
  tags: string[];
  image: { key: string; width: number; height: number } | null;
};

/** How the account page names a draft's kind. */
export function draftKind(postTitle: string | null): string {
  return postTitle === null ? "nový článok" : `úprava článku „${postTitle}“`;
}
