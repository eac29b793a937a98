import { Form } from "@remix-run/react";
import type { ReactNode } from "react";
import { formatDate, formatDateTime, isoTime } from "~/lib/time/dates";
import { APPEAL_MAX_LENGTH, APPEAL_STATES, decisionLabel, groundLabel, type StatementOfReasons } from "~/lib/moderation/moderation";
import { FormError } from "~/components/forms/Messages";


/**
 * A statement of reasons: what was decided about the author's article or
 * account, why, on what ground, and how to contest it — with the appeal form
 * while one may be filed (`hidden`: what else the form carries, e.g. the
 * sign-in page's token), or the appeal and its outcome.
 */
export function Statement({
  statement,
  hidden,
  error,
  text,
  headingLevel = 2,
}: {
  statement: StatementOfReasons;
  hidden?: Record<string, string>;
  error?: string | null;
  text?: string;
  headingLevel?: 2 | 3;
}) {
  const Heading = `h${headingLevel}` as const;
  const errorId = `appeal-error-${statement.id}`;
  return (
    <article className="statement" id={`rozhodnutie-${statement.id}`} aria-labelledby={`rozhodnutie-${statement.id}-nazov`}>
      <Heading id={`rozhodnutie-${statement.id}-nazov`}>
        {decisionLabel(statement.action, statement.postTitle !== null)}
        {statement.postTitle && <>: „{statement.postTitle}“</>}
      </Heading>
      <dl className="facts">
        <Fact term="Kedy">
          <time dateTime={isoTime(statement.createdAt)}>{formatDateTime(statement.createdAt)}</time>
        </Fact>
        <Fact term="Dôvod">{statement.reason}</Fact>
        <Fact term="Podnet">{groundLabel(statement)}</Fact>
        {statement.action === "delete" && <Fact term="Poznámka">Odstránený článok sa nedá vrátiť ani po uznanej námietke; môžete ho uverejniť znova.</Fact>}
      </dl>
      {statement.appeal ? (
        <div className="statement-appeal">
          {/* A refused appeal of a decision already contested (a second one) is said here, above the first. */}
          <FormError id={errorId} text={error} />
          <p>
            <strong>{APPEAL_STATES[statement.appeal.state]}</strong> (námietka z{" "}
            <time dateTime={isoTime(statement.appeal.createdAt)}>{formatDateTime(statement.appeal.createdAt)}</time>)
          </p>
          <blockquote className="report-note">{statement.appeal.text}</blockquote>
          {statement.appeal.decidedAt && <p>Odôvodnenie: {statement.appeal.reason}</p>}
        </div>
      ) : statement.appealUntil ? (
        <Form method="post" className="stack-form" noValidate>
          <input type="hidden" name="intent" value="appeal" />
          <input type="hidden" name="decision" value={statement.id} />
          {Object.entries(hidden ?? {}).map(([name, value]) => (
            <input key={name} type="hidden" name={name} value={value} />
          ))}
          <FormError id={errorId} text={error} />
          <div className="field">
            <label htmlFor={`appeal-${statement.id}`}>Námietka: prečo s rozhodnutím nesúhlasíte (do {formatDate(statement.appealUntil)}, raz)</label>
            <textarea
              id={`appeal-${statement.id}`}
              name="text"
              rows={5}
              className="short-text"
              maxLength={APPEAL_MAX_LENGTH}
              defaultValue={text ?? ""}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? errorId : undefined}
            />
          </div>
          <button type="submit" className="button">
            Podať námietku
          </button>
        </Form>
      ) : (
        <>
          <FormError id={errorId} text={error} />
          <p className="muted">Lehota na námietku uplynula.</p>
        </>
      )}
    </article>
  );
}

function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <>
      <dt>{term}</dt>
      <dd>{children}</dd>
    </>
  );
}
