import { Form } from "@remix-run/react";
import { CONFLICT_NAME_MAX_LENGTH, CONFLICT_SUMMARY_MAX_LENGTH, type Conflict, type ConflictField, type ConflictValues } from "~/lib/conflicts";
import { PERIOD_MAX_LENGTH } from "~/lib/time/periods";
import { TAGS } from "~/lib/tags";
import { FormError } from "~/components/forms/Messages";

/** A refused form: which entry (null: the new one), why, the fields to mark and what was typed. */
export type ConflictRefusal = { id: number | null; error: string; invalid: ConflictField[]; values: ConflictValues | null };

/**
 * The admins' forms of "Aktuálne konflikty" (/admin): one per entry, and one
 * for a new entry. Plain forms to /admin/conflicts; the server checks every
 * rule (~/lib/conflicts) and logs each change.
 */
export function ConflictsEditor({ entries, refused }: { entries: Conflict[]; refused: ConflictRefusal | null }) {
  const refusalOf = (id: number | null) => (refused && refused.id === id ? refused : null);
  return (
    <>
      {entries.map((entry) => (
        <ConflictForm key={entry.id} id={entry.id} values={refusalOf(entry.id)?.values ?? { ...entry, position: String(entry.position) }} refused={refusalOf(entry.id)} />
      ))}
      <ConflictForm id={null} values={refusalOf(null)?.values ?? { name: "", summary: "", tags: [], period: "", position: String(entries.length + 1) }} refused={refusalOf(null)} />
    </>
  );
}

function ConflictForm({ id, values, refused }: { id: number | null; values: ConflictValues; refused: ConflictRefusal | null }) {
  const prefix = `conflict-${id ?? "new"}`;
  const errorId = `${prefix}-error`;
  const marked = (field: ConflictField) => (refused?.invalid.includes(field) ? { "aria-invalid": true as const, "aria-describedby": errorId } : {});
  return (
    <Form method="post" action="/admin/conflicts" className="conflict-form" aria-labelledby={`${prefix}-legend`}>
      <h3 id={`${prefix}-legend`}>{id === null ? "Nový konflikt" : values.name || "Konflikt"}</h3>
      <FormError id={errorId} text={refused?.error} />
      <input type="hidden" name="id" value={id ?? "new"} />
      <div className="field">
        <label htmlFor={`${prefix}-name`}>Názov</label>
        <input id={`${prefix}-name`} name="name" maxLength={CONFLICT_NAME_MAX_LENGTH} defaultValue={values.name} required {...marked("name")} />
      </div>
      <div className="field">
        <label htmlFor={`${prefix}-summary`}>Krátke zhrnutie</label>
        <textarea id={`${prefix}-summary`} name="summary" rows={3} maxLength={CONFLICT_SUMMARY_MAX_LENGTH} defaultValue={values.summary} required {...marked("summary")} />
      </div>
      <div className="field">
        <label htmlFor={`${prefix}-tags`}>Tagy historického pozadia (najviac 5)</label>
        <select id={`${prefix}-tags`} name="tags" multiple size={6} defaultValue={values.tags} {...marked("tags")}>
          {TAGS.map((tag) => (
            <option key={tag} value={tag}>
              {tag}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${prefix}-period`}>
          Obdobie historického pozadia <span className="field-optional">(napr. 1914 – 1991 alebo 9. stor.)</span>
        </label>
        <input id={`${prefix}-period`} name="period" maxLength={PERIOD_MAX_LENGTH} defaultValue={values.period} {...marked("period")} />
      </div>
      <div className="field">
        <label htmlFor={`${prefix}-position`}>Poradie na stránke</label>
        <input id={`${prefix}-position`} name="position" type="number" min={-999} max={9999} defaultValue={values.position} />
      </div>
      <div className="button-row">
        <button type="submit" name="intent" value="save" className="button">
          {id === null ? "Pridať konflikt" : "Uložiť"}
        </button>
        {id !== null && (
          <button type="submit" name="intent" value="delete" className="button button-danger">
            Odstrániť
          </button>
        )}
      </div>
    </Form>
  );
}
