import { Form, Link } from "@remix-run/react";
import { ReasonField } from "./ReportQueue";
import { FormError } from "~/components/forms/Messages";

/** Above a hidden article, for the only ones who still see it: its author (with the way to the statement of reasons) and admins. */
export function HiddenNotice({ own }: { own: boolean }) {
  return (
    <p className="hidden-notice" role="status">
      {own ? (
        <>
          Tento článok je skrytý: vidíte ho len vy a redakcia. <Link to="/account/decisions">Prečo a ako rozhodnutie napadnúť</Link>
        </>
      ) : (
        "Tento článok je skrytý: vidí ho len autor a redakcia."
      )}
    </p>
  );
}

/**
 * The admins' form under an article: hide it on the moderators' own
 * initiative, or show a hidden one again, with the reason the author and the
 * public log read. Folded (no JavaScript needed); open again, with what was
 * typed, when the server refused it.
 */
export function ArticleVisibility({ hidden, refused }: { hidden: boolean; refused: { error: string; reason: string } | null }) {
  const label = hidden ? "Znova zverejniť" : "Skryť článok";
  return (
    <details className="visibility-box" open={refused !== null}>
      <summary>{hidden ? "Znova zverejniť článok (redakcia)" : "Skryť článok (redakcia)"}</summary>
      <Form method="post" className="stack-form" noValidate preventScrollReset>
        <input type="hidden" name="intent" value={hidden ? "restoreHidden" : "hide"} />
        <FormError id="visibility-error" text={refused?.error} />
        {/* The author gets a statement of reasons for hiding only (DECISION_ACTIONS' `restricts`). */}
        <ReasonField
          id="field-reason"
          label={`Odôvodnenie (${hidden ? "" : "prečíta si ho autor a "}zobrazí sa vo verejnom zázname moderovania)`}
          value={refused?.reason ?? ""}
          invalid={refused !== null}
          required
          errorId="visibility-error"
        />
        <button type="submit" className={hidden ? "button" : "button button-danger"}>
          {label}
        </button>
      </Form>
    </details>
  );
}
