import { formatDateTime, isoTime } from "~/lib/time/dates";
import type { EditConflict as Conflict } from "~/lib/revisions";
import { TextChanges } from "./RevisionComparison";

/** A refused stale save's difference: the current article (its last revision named) against what was typed, word by word. */
export function EditConflict({ conflict: { last, changes } }: { conflict: Conflict }) {
  return (
    <section className="edit-conflict" aria-label="Rozdiel oproti aktuálnemu článku">
      <p>
        Aktuálny článok je verzia {last.number} z <time dateTime={isoTime(last.createdAt)}>{formatDateTime(last.createdAt)}</time> ({last.editorName}
        {last.summary && <>: {last.summary}</>}). Nižšie je, čím sa od neho líši váš text: pridané slová sú podčiarknuté, odstránené prečiarknuté.
      </p>
      <TextChanges changes={changes} sides={{ from: "aktuálny článok", to: "váš text" }} />
    </section>
  );
}
