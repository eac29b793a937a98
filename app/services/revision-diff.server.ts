import { diffWords } from "diff";
import type { FieldDiff } from "~/lib/revisions";

/**
 * Word diffs of two versions of an article's texts (jsdiff's diffWords: a
 * word or a punctuation mark is a token). The cost of a diff grows with the
 * text's length times the number of changes, and it runs on the request's
 * event loop, so each comparison is capped twice: at MAX_EDIT_LENGTH changed
 * tokens per field, and at DIFF_BUDGET_MS for all its fields together. Over
 * either cap a field is answered with only its two sizes (the page then says
 * so plainly) instead of a diff.
 */

/**
 * The most tokens added plus removed one field's diff may find (a rewritten
 * paragraph of 200 words is about 400). Two unrelated 30,000-character texts
 * reach it after about 50 ms here; at 1,000 it took 150 ms, unbounded 1 s.
 */
export const MAX_EDIT_LENGTH = 500;

/** The most one comparison (title, text and sources) may take on a slow or busy machine; what is left after it is "too large". */
export const DIFF_BUDGET_MS = 250;

/** One field's word diff, or its two sizes when it would take past `deadline` or over MAX_EDIT_LENGTH. */
export function diffField(from: string, to: string, deadline: number): FieldDiff {
  const timeout = deadline - Date.now();
  const changes = timeout > 0 ? diffWords(from, to, { maxEditLength: MAX_EDIT_LENGTH, timeout }) : undefined;
  if (!changes) return { tooLarge: { from: from.length, to: to.length } };
  return { parts: changes.map(({ value, added, removed }) => ({ value, added, removed })) };
}

/** What a version of an article says, as plain text (newlines kept). */
export type VersionTexts = { title: string; text: string; sources: string };

/** Two versions' title, text and sources compared word by word, within one DIFF_BUDGET_MS for all three. */
export function diffVersions(from: VersionTexts, to: VersionTexts, budgetMs = DIFF_BUDGET_MS): Record<keyof VersionTexts, FieldDiff> {
  const deadline = Date.now() + budgetMs;
  return {
    title: diffField(from.title, to.title, deadline),
    text: diffField(from.text, to.text, deadline),
    sources: diffField(from.sources, to.sources, deadline),
  };
}
