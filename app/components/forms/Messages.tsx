import { Link } from "@remix-run/react";
import { readsSentence, type ArticleReads } from "~/lib/reads";
import { formatDate, isoTime } from "~/lib/time/dates";

/** What a page says after a change went through. */
export function Notice({ text }: { text: string | null | undefined }) {
  if (!text) return null;
  return (
    <p className="notice" role="status">
      {text}
    </p>
  );
}

/** Why a form was refused; focusable, so that focus can be moved to it (useFocusFirstError), and named by the fields it marks. */
export function FormError({ id, text }: { id?: string; text: string | null | undefined }) {
  if (!text) return null;
  return (
    <p className="form-error" id={id} role="alert" tabIndex={-1}>
      {text}
    </p>
  );
}

/** Articles as a list of titles and dates, newest first (the account pages), hidden ones marked, optionally with edit links and their reads. */
export function ArticleList({
  articles,
  editable = false,
  reads,
}: {
  articles: { id: string; title: string; createdAt: number; updatedAt: number; hiddenAt: number | null }[];
  editable?: boolean;
  /** Each article's reads in the last 7 and 30 days (its author's own list). */
  reads?: Record<string, ArticleReads>;
}) {
  return (
    <ul className="plain-list article-list">
      {articles.map((post) => (
        <li key={post.id}>
          <Link to={`/posts/${post.id}`} className="article-list-title">
            {post.title}
          </Link>
          <span className="muted">
            <time dateTime={isoTime(post.createdAt)}>{formatDate(post.createdAt)}</time>
            {post.updatedAt > post.createdAt + 1000 && <> · upravené {formatDate(post.updatedAt)}</>}
            {post.hiddenAt !== null && (
              <>
                {" · "}
                <strong className="article-hidden">skrytý</strong>
              </>
            )}
            {/* A line of its own: beside the title on a wide screen, the date line stays short. */}
            {reads?.[post.id] && (
              <>
                <br />
                <span className="article-reads">{readsSentence(reads[post.id])}</span>
              </>
            )}
          </span>
          {editable && (
            <Link to={`/posts/${post.id}?edit`} className="article-list-edit" aria-label={`Upraviť: ${post.title}`}>
              Upraviť
            </Link>
          )}
        </li>
      ))}
    </ul>
  );
}
