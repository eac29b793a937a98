import { Form, Link } from "@remix-run/react";
import { DECISION_REASON_MAX_LENGTH } from "~/lib/moderation/moderation";
import { HIDDEN_PART_WORDS, REVISION_PART_LABELS, REVISION_PARTS, revisionCount, type RevisionHiding, type RevisionPart } from "~/lib/revisions";
import { FormError } from "~/components/forms/Messages";

/** What an admin asked to erase, sent back for the second step (without JavaScript too): erasing cannot be undone. */
export type EraseToConfirm = { revisions: string[]; parts: RevisionPart[]; reason: string };

export const REVISION_MODERATION_FORM = "revision-moderation";

/**
 * The admins' form to hide parts of old revisions from everyone else, show
 * them again, or erase them for good; each a decision with a reason. The
 * revisions are the history's checkboxes (form="revision-moderation"), or
 * the one revision of an old revision's page (`revision`).
 */
export function RevisionModeration({
  action,
  revision,
  error,
  eraseToConfirm,
  typed,
}: {
  action: string;
  revision?: string;
  error: string | null;
  eraseToConfirm: EraseToConfirm | null;
  /** What was chosen and written before a refusal, given back. */
  typed: EraseToConfirm | null;
}) {
  if (eraseToConfirm) {
    return (
      <Form method="post" action={action} className="confirm-delete" aria-labelledby="confirm-erase-text">
        <p id="confirm-erase-text">
          Natrvalo vymazať vybrané časti ({revisionCount(eraseToConfirm.revisions.length)})? Vymazané sa už nedá
          vrátiť, ani po uznanej námietke.
        </p>
        {eraseToConfirm.revisions.map((id) => (
          <input key={id} type="hidden" name="revision" value={id} />
        ))}
        {eraseToConfirm.parts.map((part) => (
          <input key={part} type="hidden" name="part" value={part} />
        ))}
        <input type="hidden" name="reason" value={eraseToConfirm.reason} />
        <input type="hidden" name="confirm" value="yes" />
        <button type="submit" name="intent" value="eraseRevision" className="button button-danger">
          Natrvalo vymazať
        </button>{" "}
        <Link to={action} className="button button-secondary">
          Cancel
        </Link>
      </Form>
    );
  }
  return (
    <Form method="post" action={action} id={REVISION_MODERATION_FORM} className="revision-moderation">
      <fieldset>
        <legend>Moderovanie {revision ? "tejto verzie" : "vybraných verzií"}</legend>
        {revision && <input type="hidden" name="revision" value={revision} />}
        <FormError id="revision-moderation-error" text={error} />
        <fieldset className="revision-parts">
          <legend>Čo skryť pred všetkými okrem administrátorov</legend>
          {REVISION_PARTS.map((part) => (
            <label key={part} className="checkbox">
              <input type="checkbox" name="part" value={part} defaultChecked={typed ? typed.parts.includes(part) : part === "text"} /> {REVISION_PART_LABELS[part]}
            </label>
          ))}
        </fieldset>
        <div className="field">
          <label htmlFor="revision-reason">Odôvodnenie (uvidí ho autor úpravy aj verejný záznam; neopakujte v ňom skrývané údaje)</label>
          <textarea
            id="revision-reason"
            name="reason"
            rows={2}
            maxLength={DECISION_REASON_MAX_LENGTH}
            required
            defaultValue={typed?.reason}
            aria-describedby={error ? "revision-moderation-error" : undefined}
          />
        </div>
        <div className="form-actions">
          <button type="submit" name="intent" value="hideRevision" className="button">
            Skryť
          </button>
          <button type="submit" name="intent" value="showRevision" className="button button-secondary">
            Znova zobraziť
          </button>
          <button type="submit" name="intent" value="eraseRevision" className="button button-danger">
            Natrvalo vymazať…
          </button>
        </div>
      </fieldset>
    </Form>
  );
}

/** What is hidden of a revision, as a short note beside it ("text skrytý redakciou; vymazané natrvalo"). */
export function HiddenNote({ hidden }: { hidden: RevisionHiding }) {
  const words = [hidden.text && "text skrytý redakciou", hidden.summary && HIDDEN_PART_WORDS.summary, hidden.editor && HIDDEN_PART_WORDS.editor, hidden.erased && HIDDEN_PART_WORDS.erased].filter(
    Boolean,
  );
  return words.length > 0 ? <span className="revision-hidden">({words.join("; ")})</span> : null;
}
