import { CONFLICT_ARTICLES, CONFLICT_MESSAGES, CONFLICTS_MAX, checkConflict, conflictValues, type ConflictField, type ConflictValues } from "~/lib/conflicts";
import { CENTURY_LIMIT, centuryKeys } from "~/lib/time/periods";
import { inTransaction } from "~/db/connection.server";
import { backgroundArticles, conflictName, countConflicts, deleteConflict, insertConflict, listConflicts, updateConflict } from "~/models/conflicts.server";
import { logModeration, type Actor } from "~/services/platform/moderation-log.server";

/**
 * "Aktuálne konflikty": the entries admins keep (the forms on /admin, each
 * change in the moderation log in the same transaction) and the page
 * readers see, each entry with its historical background in historical order.
 */

const ALL_TIME = { first: centuryKeys(-CENTURY_LIMIT)[0], last: centuryKeys(CENTURY_LIMIT)[1] };

/** The entries with their background articles, for /conflicts. */
export function conflictsPage() {
  return listConflicts().map((conflict) => ({
    ...conflict,
    articles: backgroundArticles(
      conflict.periodFirst !== null && conflict.periodLast !== null ? { first: conflict.periodFirst, last: conflict.periodLast } : ALL_TIME,
      conflict.tags,
      CONFLICT_ARTICLES,
    ),
  }));
}

/** The entries as the admins' forms show them. */
export function conflictsForAdmin() {
  return listConflicts();
}

export type ConflictResult = { ok: true } | { ok: false; status: number; error: string; invalid: ConflictField[]; values: ConflictValues | null; id: number | null };

/** Add an entry (`id` null) or change one, by an admin, with the form's values; logged. */
export function saveConflict(admin: Actor, id: number | null, form: FormData): ConflictResult {
  const values = conflictValues(form);
  const checked = checkConflict(values);
  if (!checked.ok) return { ok: false, status: 400, error: checked.error, invalid: checked.invalid, values, id };
  return inTransaction((): ConflictResult => {
    if (id === null) {
      if (countConflicts() >= CONFLICTS_MAX) return { ok: false, status: 400, error: CONFLICT_MESSAGES.tooMany, invalid: [], values, id };
      insertConflict(checked.value);
      logModeration(admin, "createConflict", { detail: checked.value.name });
      return { ok: true };
    }
    const before = conflictName(id);
    if (before === undefined || !updateConflict(id, checked.value)) return { ok: false, status: 404, error: CONFLICT_MESSAGES.missing, invalid: [], values: null, id };
    logModeration(admin, "editConflict", { detail: before === checked.value.name ? before : `${before} → ${checked.value.name}` });
    return { ok: true };
  });
}

/** Remove an entry, by an admin; logged. */
export function removeConflict(admin: Actor, id: number): ConflictResult {
  return inTransaction((): ConflictResult => {
    const name = deleteConflict(id);
    if (name === undefined) return { ok: false, status: 404, error: CONFLICT_MESSAGES.missing, invalid: [], values: null, id };
    logModeration(admin, "deleteConflict", { detail: name });
    return { ok: true };
  });
}

/** The demo's entries, written as checked (the demo content is nobody's action: not in the moderation log). */
export function seedConflicts(entries: ConflictValues[]): void {
  inTransaction(() => {
    for (const values of entries) {
      const checked = checkConflict(values);
      if (!checked.ok) throw new Error(`Demo conflict "${values.name}": ${checked.error}`);
      insertConflict(checked.value);
    }
  });
}
