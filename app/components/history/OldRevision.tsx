import { Form, Link } from "@remix-run/react";
import { formatDateTime, isoTime } from "~/lib/time/dates";
import type { ReactNode } from "react";
import { HIDDEN_PART_WORDS, REVISION_MESSAGES, type RevisionContent } from "~/lib/revisions";
import { HiddenNote } from "./RevisionModeration";
import { PostTags } from "~/components/articles/PostTags";
import { PostText } from "~/components/articles/PostText";
import { ResponsiveImage } from "~/components/articles/ResponsiveImage";

type Props = {
  post: { id: string; title: string };
  revision: RevisionContent;
  /** Moderation hid its text from this reader: only its date and number are shown. */
  textHidden: boolean;
  /** The article's current revision, which a restore is confirmed on. */
  base: number;
  /** An admin's form to hide or erase its parts. */
  moderation: ReactNode;
  /** Its image with the size it is stored at, or null when its text is hidden from this reader. */
  image: { key: string; width: number; height: number } | null;
  /** It is the article's last revision: nothing to restore. */
  current: boolean;
  mayRestore: boolean;
  /** The restore's confirmation step is asked (without JavaScript, the server's answer to the first press). */
  confirmRestore: boolean;
  error: string | null;
  /** This page's own address (the restore posts here, and Cancel returns here). */
  href: string;
  historyHref: string;
};

/** A revision as readers saw it, marked as old, with the author's or an admin's way to restore it. */
export function OldRevision({ post, revision, textHidden, base, moderation, image, current, mayRestore, confirmRestore, error, href, historyHref }: Props) {
  const restoreFields = (
    <>
      <input type="hidden" name="intent" value="restore" />
      <input type="hidden" name="revision" value={revision.id} />
      <input type="hidden" name="baseRevision" value={base} />
    </>
  );
  return (
    <main id="obsah" className="page revision-page">
      <p className="revision-notice">
        {current ? "Aktuálna verzia" : "Staršia verzia"} z <time dateTime={isoTime(revision.createdAt)}>{formatDateTime(revision.createdAt)}</time> (verzia{" "}
        {revision.number}, {revision.hidden.editor && !revision.editorName ? HIDDEN_PART_WORDS.editor : revision.editorName}
        {revision.summary && <>: {revision.summary}</>}) <HiddenNote hidden={revision.hidden} />. <Link to={`/posts/${post.id}`}>Zobraziť aktuálny článok</Link> ·{" "}
        <Link to={historyHref}>História článku</Link>
      </p>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      {mayRestore &&
        !current &&
        (confirmRestore ? (
          <Form method="post" action={href} className="confirm-delete" aria-labelledby="confirm-restore-text">
            <p id="confirm-restore-text">{REVISION_MESSAGES.confirmRestore}</p>
            {restoreFields}
            <input type="hidden" name="confirm" value="yes" />
            <button type="submit" className="button button-danger">
              Obnoviť
            </button>{" "}
            <Link to={href} className="button button-secondary">
              Cancel
            </Link>
          </Form>
        ) : (
          <Form method="post" action={href} className="revision-restore">
            {restoreFields}
            <button type="submit" className="button button-secondary">
              Obnoviť túto verziu
            </button>
          </Form>
        ))}
      {moderation}
      {textHidden ? (
        <>
          <h1>Verzia {revision.number}</h1>
          <p className="revision-notice">{HIDDEN_PART_WORDS.text}</p>
        </>
      ) : (
        <article className="revision-article">
          {image && <ResponsiveImage className="revision-image" imageKey={image.key} width={image.width} height={image.height} alt="" sizes="(min-width: 800px) 728px, 100vw" />}
          <h1>{revision.title}</h1>
          <PostText content={revision.content} sources={revision.sources} />
          <PostTags tags={revision.tags} />
        </article>
      )}
    </main>
  );
}
