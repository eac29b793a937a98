import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { ErrorPage } from "~/components/ErrorPage";
import { OldRevision } from "~/components/OldRevision";
import { Pager } from "~/components/Pager";
import { RevisionComparison } from "~/components/RevisionComparison";
import { formatDateTime, isoTime } from "~/lib/dates";
import { editCount, historyPage, REVISIONS_PER_PAGE, sizeChange } from "~/lib/revisions";
import { canModify } from "~/lib/rules";
import { pageTitle } from "~/lib/site";
import { countRevisions, listRevisions } from "~/models/revisions.server";
import { BusyError, retryAfter } from "~/services/concurrency.server";
import { readForm } from "~/services/forms.server";
import { HIDDEN_PAGE_HEADERS } from "~/services/hidden-articles.server";
import { mayChangePost, readablePost } from "~/services/posts.server";
import { compareRevisions, findRevision, restoreRevision } from "~/services/revisions.server";
import { getCurrentUser, type CurrentUser } from "~/services/session.server";

/**
 * An article's history, for everyone: its revisions newest first, paged with
 * plain links, with a GET form comparing two (`?from=…&to=…`); one old
 * revision as readers saw it (`?revision=…`, not indexed), from where its
 * author or an admin restores it (a POST, confirmed in a second step). The
 * list's pages are kept in the page cache (server/page-cache.ts), emptied by
 * any write of an article, so of its revisions too; a comparison and an old
 * revision are rendered each time.
 */

const historyHref = (postId: string, query = "") => `/posts/${postId}/history${query}`;

function notFound(): never {
  throw data(null, { status: 404 });
}

/** Too many comparisons waiting for the diff worker: 503, come back in a moment. */
function busy(error: unknown): never {
  if (error instanceof BusyError) throw data(null, { status: 503, headers: retryAfter(503) });
  throw error;
}

export async function loader({ params, request }: LoaderFunctionArgs) {
  const user = await getCurrentUser(request);
  // A hidden article's history is its author's and the admins' only, as the article is.
  const post = readablePost(params.postId ?? "", user) ?? notFound();
  const page = await historyOf(post, user, new URL(request.url).searchParams);
  return post.hiddenAt === null ? page : data(page, { headers: HIDDEN_PAGE_HEADERS });
}

/** The list, a comparison or an old revision, as the address asks. */
async function historyOf(post: NonNullable<ReturnType<typeof readablePost>>, user: CurrentUser | null, query: URLSearchParams) {
  const article = { id: post.id, title: post.title, hidden: post.hiddenAt !== null };
  if (query.has("revision")) {
    const revision = findRevision(post.id, query.get("revision")) ?? notFound();
    return {
      mode: "revision" as const,
      post: article,
      revision,
      // Only the article's own image has its size kept (images do not change on edits today).
      image: revision.image === post.image ? { key: post.image, width: post.imageWidth, height: post.imageHeight } : null,
      current: revision.number === countRevisions(post.id),
      mayRestore: canModify(user, post),
    };
  }
  if (query.has("from") || query.has("to")) {
    const comparison = await compareRevisions(post.id, query.get("from"), query.get("to")).catch(busy);
    return { mode: "compare" as const, post: article, comparison: comparison ?? notFound() };
  }
  const total = countRevisions(post.id);
  const pages = Math.max(1, Math.ceil(total / REVISIONS_PER_PAGE));
  const page = historyPage(query.get("page"), pages) ?? notFound();
  const revisions = listRevisions(post.id, { offset: (page - 1) * REVISIONS_PER_PAGE, limit: REVISIONS_PER_PAGE });
  return { mode: "list" as const, post: article, total, page, pages, revisions };
}

/** A thrown answer's headers (the busy answer's Retry-After), or a hidden article's, on the document too: Remix sends a route's headers only through this export. */
export const headers: HeadersFunction = ({ errorHeaders, loaderHeaders }) => errorHeaders ?? loaderHeaders;

const NO_ANSWER = { error: null as string | null, confirmRestore: false };

/** Restore a revision (its author or an admin; the posts service decides). Without `confirm=yes` it answers with the confirmation step. */
export async function action({ params, request }: ActionFunctionArgs) {
  const permission = mayChangePost(await getCurrentUser(request), params.postId ?? "");
  if (!permission.ok && permission.status === 404) notFound();
  if (!permission.ok) return data({ ...NO_ANSWER, error: permission.error }, { status: permission.status });
  const form = await readForm(request);
  if (form.get("intent") !== "restore") return data(NO_ANSWER, { status: 400 });
  const revisionId = String(form.get("revision") ?? "");
  if (form.get("confirm") !== "yes") return findRevision(permission.post.id, revisionId) ? { ...NO_ANSWER, confirmRestore: true } : notFound();
  const result = restoreRevision(permission, revisionId);
  if (!result.ok && result.status === 404) notFound();
  if (!result.ok) return data({ ...NO_ANSWER, error: result.error }, { status: result.status, headers: retryAfter(result.status) });
  return redirect(historyHref(permission.post.id), 303);
}

export default function PostHistory() {
  const loaded = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const { post } = loaded;
  if (loaded.mode === "revision") {
    return (
      <OldRevision
        {...loaded}
        confirmRestore={answer?.confirmRestore ?? false}
        error={answer?.error ?? null}
        href={historyHref(post.id, `?revision=${loaded.revision.id}`)}
        historyHref={historyHref(post.id)}
      />
    );
  }
  if (loaded.mode === "compare") {
    return (
      <main id="obsah" className="page history-page">
        <h1>Porovnanie verzií</h1>
        <p>
          <Link to={`/posts/${post.id}`}>„{post.title}“</Link> · <Link to={historyHref(post.id)}>História článku</Link>
        </p>
        <RevisionComparison comparison={loaded.comparison} revisionHref={(id) => historyHref(post.id, `?revision=${id}`)} />
      </main>
    );
  }
  const { total, page, pages, revisions } = loaded;
  return (
    <main id="obsah" className="page history-page">
      <h1>História článku</h1>
      <p>
        <Link to={`/posts/${post.id}`}>„{post.title}“</Link>: {total <= 1 ? "zatiaľ bez úprav" : `${editCount(total - 1)} od uverejnenia`}, najnovšie
        prvé.
      </p>
      {/* A plain GET form, as Wikipedia's: two columns of radio buttons choose what to compare, the newest two at first. */}
      <Form method="get" action={historyHref(post.id)}>
        <table className="log-table history-table">
          <thead>
            <tr>
              <th scope="col">Verzia</th>
              <th scope="col">Od</th>
              <th scope="col">Po</th>
              <th scope="col">Kedy</th>
              <th scope="col">Kto</th>
              <th scope="col">Popis zmeny</th>
              <th scope="col">Znaky</th>
            </tr>
          </thead>
          <tbody>
            {revisions.map((revision, i) => (
              <tr key={revision.id}>
                <th scope="row" data-label="Verzia">
                  <Link to={historyHref(post.id, `?revision=${revision.id}`)}>
                    {revision.number}.
                  </Link>
                </th>
                <td data-label="Od" className="history-pick">
                  <input type="radio" name="from" value={revision.id} defaultChecked={i === 1} aria-label={`Porovnať od verzie ${revision.number}`} />
                </td>
                <td data-label="Po" className="history-pick">
                  <input type="radio" name="to" value={revision.id} defaultChecked={i === 0} aria-label={`Porovnať po verziu ${revision.number}`} />
                </td>
                <td data-label="Kedy">
                  <time dateTime={isoTime(revision.createdAt)}>{formatDateTime(revision.createdAt)}</time>
                </td>
                <td data-label="Kto">{revision.editorName}</td>
                <td data-label="Popis zmeny">{revision.summary || (revision.number === 1 ? "Uverejnenie" : "bez popisu")}</td>
                <td data-label="Znaky" className="history-size">
                  {sizeChange(revision.change)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {total > 1 && (
          <button type="submit" className="button button-secondary history-compare">
            Porovnať vybrané verzie
          </button>
        )}
      </Form>
      <Pager page={page} pages={pages} hrefOf={(p) => historyHref(post.id, `?page=${p}`)} label="Stránky histórie" />
    </main>
  );
}

// Its own boundary, so that a busy answer's Retry-After reaches the document (see `headers`).
export { ErrorPage as ErrorBoundary };

export const meta: MetaFunction<typeof loader> = ({ data }) => {
  if (!data) return [];
  const what = { list: "História", compare: "Porovnanie verzií", revision: "Staršia verzia" }[data.mode];
  // An old text and a comparison are not the article: search engines should find the article itself.
  return [{ title: pageTitle(`${what}: ${data.post.title}`) }, ...(data.mode === "list" && !data.post.hidden ? [] : [{ name: "robots", content: "noindex" }])];
};
