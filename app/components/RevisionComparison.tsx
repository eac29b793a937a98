import { Link } from "@remix-run/react";
import { formatDateTime, isoTime } from "~/lib/dates";
import { REVISION_MESSAGES, type Comparison, type DiffPart, type FieldDiff, type RevisionInfo } from "~/lib/revisions";

/**
 * Two revisions compared: title, text and sources word by word, then tags
 * and image. Insertions are <ins>, deletions <del>, each also underlined or
 * struck through (not only coloured) and named in words that screen readers
 * read and text browsers print ("[pridané: …]").
 */
export function RevisionComparison({ comparison, revisionHref }: { comparison: Comparison; revisionHref: (id: string) => string }) {
  const { from, to, tags } = comparison;
  return (
    <>
      {comparison.swapped && <p className="revision-notice">{REVISION_MESSAGES.swapped}</p>}
      <dl className="comparison-sides">
        <dt>Od (staršia)</dt>
        <dd>
          <RevisionLabel revision={from} href={revisionHref(from.id)} />
        </dd>
        <dt>Po (novšia)</dt>
        <dd>
          <RevisionLabel revision={to} href={revisionHref(to.id)} />
        </dd>
      </dl>
      <FieldSection heading="Nadpis" diff={comparison.title} from={from} to={to} />
      <FieldSection heading="Text" diff={comparison.text} from={from} to={to} />
      <FieldSection heading="Zdroje" diff={comparison.sources} from={from} to={to} />
      <section aria-labelledby="diff-tags">
        <h2 id="diff-tags">Tagy</h2>
        {tags.added.length === 0 && tags.removed.length === 0 ? (
          <p>Bez zmeny.</p>
        ) : (
          <ul>
            {tags.added.length > 0 && <li>Pridané: {tags.added.join(", ")}</li>}
            {tags.removed.length > 0 && <li>Odstránené: {tags.removed.join(", ")}</li>}
          </ul>
        )}
      </section>
      <section aria-labelledby="diff-image">
        <h2 id="diff-image">Obrázok</h2>
        <p>{comparison.imageChanged ? "Zmenený." : "Bez zmeny."}</p>
      </section>
    </>
  );
}

function RevisionLabel({ revision, href }: { revision: RevisionInfo; href: string }) {
  return (
    <>
      <Link to={href}>verzia {revision.number}</Link> z <time dateTime={isoTime(revision.createdAt)}>{formatDateTime(revision.createdAt)}</time>,{" "}
      {revision.editorName}
      {revision.summary && <>: {revision.summary}</>}
    </>
  );
}

const characters = (n: number) => `${n.toLocaleString("sk-SK")} znakov`;

function FieldSection({ heading, diff, from, to }: { heading: string; diff: FieldDiff; from: RevisionInfo; to: RevisionInfo }) {
  const id = `diff-${heading.toLowerCase()}`;
  return (
    <section aria-labelledby={id}>
      <h2 id={id}>{heading}</h2>
      {"tooLarge" in diff ? (
        <p className="revision-notice">
          {REVISION_MESSAGES.diffTooLarge}: verzia {from.number} má {characters(diff.tooLarge.from)}, verzia {to.number} má {characters(diff.tooLarge.to)}.
        </p>
      ) : diff.parts.some((part) => part.added || part.removed) ? (
        <DiffText parts={diff.parts} />
      ) : (
        <p>Bez zmeny.</p>
      )}
    </section>
  );
}

function DiffText({ parts }: { parts: DiffPart[] }) {
  return (
    <p className="diff-text">
      {parts.map((part, i) =>
        part.added ? (
          <ins key={i}>
            <span className="visually-hidden">[pridané: </span>
            {part.value}
            <span className="visually-hidden">]</span>
          </ins>
        ) : part.removed ? (
          <del key={i}>
            <span className="visually-hidden">[odstránené: </span>
            {part.value}
            <span className="visually-hidden">]</span>
          </del>
        ) : (
          part.value
        ),
      )}
    </p>
  );
}
