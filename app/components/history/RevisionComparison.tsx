import { Link } from "@remix-run/react";
import { formatDateTime, isoTime } from "~/lib/time/dates";
import { imageUrl } from "~/lib/images";
import { characterCount, HIDDEN_PART_WORDS, REVISION_MESSAGES, type Comparison, type DiffPart, type FieldDiff, type RevisionImage, type RevisionInfo } from "~/lib/revisions";

/**
 * Two revisions compared: title, text and sources word by word, then tags,
 * period and image (both shown when it changed). Insertions are <ins>,
 * deletions <del>, each also framed or
 * struck through (not only coloured) and named in words that screen readers
 * read and text browsers print ("[pridané: …]").
 */
export function RevisionComparison({ comparison, revisionHref }: { comparison: Comparison; revisionHref: (id: string) => string }) {
  const { from, to, tags, period, image } = comparison;
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
      <TextChanges changes={comparison} sides={{ from: `verzia ${from.number}`, to: `verzia ${to.number}` }} />
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
      <section aria-labelledby="diff-period">
        <h2 id="diff-period">Obdobie</h2>
        <p>{period.from === period.to ? "Bez zmeny." : <>{periodWords(period.from)} → {periodWords(period.to)}</>}</p>
      </section>
      <section aria-labelledby="diff-image">
        <h2 id="diff-image">Obrázok</h2>
        {image.from.key === image.to.key ? (
          <p>Bez zmeny.</p>
        ) : (
          <>
            <p>Zmenený.</p>
            <div className="diff-images">
              <RevisionThumb image={image.from} label={`Obrázok verzie ${from.number}`} />
              <RevisionThumb image={image.to} label={`Obrázok verzie ${to.number}`} />
            </div>
          </>
        )}
      </section>
    </>
  );
}

/** A period as the comparison names it: as typed, or "bez obdobia". */
const periodWords = (period: string) => (period ? `„${period}“` : "bez obdobia");

/** A revision's image, small, with which one it is under it. */
function RevisionThumb({ image, label }: { image: RevisionImage; label: string }) {
  return (
    <figure>
      <img src={imageUrl(image.key, 400, "webp")} alt={label} width={200} height={Math.round((200 * image.height) / Math.max(image.width, 1))} loading="lazy" />
      <figcaption>{label}</figcaption>
    </figure>
  );
}

function RevisionLabel({ revision, href }: { revision: RevisionInfo; href: string }) {
  return (
    <>
      <Link to={href}>verzia {revision.number}</Link> z <time dateTime={isoTime(revision.createdAt)}>{formatDateTime(revision.createdAt)}</time>,{" "}
      {revision.hidden.editor && !revision.editorName ? HIDDEN_PART_WORDS.editor : revision.editorName}
      {revision.summary && <>: {revision.summary}</>}
    </>
  );
}

/** Title, text and sources word by word; `sides` names the two versions where a field is too large to compare ("verzia 3", "váš text"). */
export function TextChanges({ changes, sides }: { changes: Pick<Comparison, "title" | "text" | "sources">; sides: { from: string; to: string } }) {
  return (
    <>
      <FieldSection heading="Nadpis" diff={changes.title} sides={sides} />
      <FieldSection heading="Text" diff={changes.text} sides={sides} />
      <FieldSection heading="Zdroje" diff={changes.sources} sides={sides} />
    </>
  );
}

function FieldSection({ heading, diff, sides }: { heading: string; diff: FieldDiff; sides: { from: string; to: string } }) {
  const id = `diff-${heading.toLowerCase()}`;
  return (
    <section aria-labelledby={id}>
      <h2 id={id}>{heading}</h2>
      {"tooLarge" in diff ? (
        <p className="revision-notice">
          {REVISION_MESSAGES.diffTooLarge}: {sides.from} má {characterCount(diff.tooLarge.from)}, {sides.to} má {characterCount(diff.tooLarge.to)}.
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
