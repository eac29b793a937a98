import { parsePeriod, periodKeys, tidyPeriod } from "~/lib/time/periods";
import { hasHiddenControls, MAX_TAGS, typedFields } from "./rules";
import { isTag } from "./tags";

/**
 * "Aktuálne konflikty": what an entry is and the rules of its form, read by
 * the server (~/services/articles/conflicts.server) and shown by the admins' form.
 */

export const CONFLICT_NAME_MAX_LENGTH = 80;
export const CONFLICT_SUMMARY_MAX_LENGTH = 600;
/** Entries the page keeps at most. */
export const CONFLICTS_MAX = 20;
/** Background articles shown for each entry. */
export const CONFLICT_ARTICLES = 12;

export const CONFLICT_MESSAGES = {
  nameMissing: "Zadajte názov konfliktu.",
  nameTooLong: `Názov môže mať najviac ${CONFLICT_NAME_MAX_LENGTH} znakov.`,
  nameControls: "Názov obsahuje riadiace alebo neviditeľné znaky.",
  summaryMissing: "Napíšte krátke zhrnutie konfliktu.",
  summaryTooLong: `Zhrnutie môže mať najviac ${CONFLICT_SUMMARY_MAX_LENGTH} znakov.`,
  summaryControls: "Zhrnutie obsahuje riadiace alebo neviditeľné znaky.",
  tags: `Vyberte najviac ${MAX_TAGS} tagov zo zoznamu.`,
  noBackground: "Uveďte tagy alebo obdobie (alebo oboje): podľa nich sa nájde historické pozadie.",
  tooMany: `Konfliktov môže byť najviac ${CONFLICTS_MAX}.`,
  missing: "Tento konflikt už neexistuje.",
} as const;

export type ConflictField = "name" | "summary" | "tags" | "period" | "position";

/** An entry as the form sends it (every field as typed). */
export type ConflictValues = { name: string; summary: string; tags: string[]; period: string; position: string };

/** A checked entry, ready to store. */
export type ConflictInput = {
  name: string;
  summary: string;
  tags: string[];
  period: string;
  periodFirst: number | null;
  periodLast: number | null;
  position: number;
};

export type Conflict = ConflictInput & { id: number };

export function conflictValues(form: FormData): ConflictValues {
  return { ...typedFields(form, ["name", "summary", "period", "position"]), tags: form.getAll("tags").map(String) };
}

/** The form's rules: the checked entry, or the first broken rule and its field. */
export function checkConflict(values: ConflictValues): { ok: true; value: ConflictInput } | { ok: false; error: string; invalid: ConflictField[] } {
  const refuse = (error: string, ...invalid: ConflictField[]) => ({ ok: false as const, error, invalid });
  const name = values.name.trim();
  if (name === "") return refuse(CONFLICT_MESSAGES.nameMissing, "name");
  if (name.length > CONFLICT_NAME_MAX_LENGTH) return refuse(CONFLICT_MESSAGES.nameTooLong, "name");
  if (hasHiddenControls(name)) return refuse(CONFLICT_MESSAGES.nameControls, "name");
  const summary = values.summary.trim();
  if (summary === "") return refuse(CONFLICT_MESSAGES.summaryMissing, "summary");
  if (summary.length > CONFLICT_SUMMARY_MAX_LENGTH) return refuse(CONFLICT_MESSAGES.summaryTooLong, "summary");
  if (hasHiddenControls(summary.replace(/\n/g, " "))) return refuse(CONFLICT_MESSAGES.summaryControls, "summary");
  const tags = [...new Set(values.tags)];
  if (tags.length > MAX_TAGS || !tags.every(isTag)) return refuse(CONFLICT_MESSAGES.tags, "tags");
  const read = parsePeriod(values.period);
  if (read && !read.ok) return refuse(read.error, "period");
  if (tags.length === 0 && !read) return refuse(CONFLICT_MESSAGES.noBackground, "tags", "period");
  const keys = read ? periodKeys(read.period) : null;
  const position = /^-?\d{1,4}$/.test(values.position.trim()) ? Number(values.position.trim()) : 0;
  return {
    ok: true,
    value: { name, summary, tags, period: read ? tidyPeriod(values.period) : "", periodFirst: keys?.first ?? null, periodLast: keys?.last ?? null, position },
  };
}
