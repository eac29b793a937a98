import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { ErrorPage } from "~/components/layout/ErrorPage";
import { OldRevision } from "~/components/history/OldRevision";
import { Pager } from "~/components/layout/Pager";
import { RevisionComparison } from "~/components/history/RevisionComparison";
import { HiddenNote, REVISION_MODERATION_FORM, RevisionModeration, type EraseToConfirm } from "~/components/history/RevisionModeration";
import { formatDateTime, isoTime } from "~/lib/time/dates";
import { editCount, HIDDEN_PART_WORDS, sizeChange } from "~/lib/revisions";
import { pageTitle } from "~/lib/site";
import { retryAfter } from "~/services/platform/concurrency.server";
import { readForm } from "~/services/platform/forms.server";
import { HIDDEN_PAGE_HEADERS } from "~/services/moderation/hidden-articles.server";
import { mayChangePost, readablePost } from "~/services/articles/posts.server";
import { findRevision, restoreRevision } from "~/services/articles/revisions.server";
import { getCurrentUser } from "~/services/platform/session.server";
import { redirectWithNotice } from "~/services/platform/notice.server";
import { asRefusal, ifStorageFails, onForm } from "~/services/platform/storage-fault.server";
import { decideFromForm, historyOf, isRevisionDecision, notFound, typedModeration } from "./posts_.$postId_.history.server";

/**
 * An article's history, for everyone: its revisions newest first, paged with
 * plain links, with a GET form comparing two (`?from=…&to=…`); one old
 * revision as readers saw it (`?revision=…`, not indexed), from where its
 * author or an admin restores it (a POST, confirmed in a second step).
 * Admins also hide parts of old revisions from everyone else, show them
 * again or erase them (revision-deletion.server). The list's pages, a
 * comparison and an old revision are kept in the page cache
 * (server/page-cache.ts), emptied by any write of an article or a revision;
 * each comparison is worked out only once (revision-diff.server).
 */

const historyHref = (postId: string, query = "") => `/posts/${postId}/history${query}`;

export async function loader({ params, request, context }: LoaderFunctionArgs) {
  const user = await getCurrentUser(request);
  // A hidden article's history is its author's and the admins' only, as the article is.
  const post = readablePost(params.postId ?? "", user) ?? notFound();
  const page = await historyOf(post, user, new URL(request.url).searchParams, context.clientAddress);
  return post.hiddenAt === null ? page : data(page, { headers: HIDDEN_PAGE_HEADERS });
}

/** A thrown answer's headers (the busy answer's Retry-After), or a hidden article's, on the document too: Remix sends a route's headers only through this export. */
export const headers: HeadersFunction = ({ errorHeaders, loaderHeaders }) => errorHeaders ?? loaderHeaders;

const NO_ANSWER = {
  error: null as string | null,
  confirmRestore: false,
  eraseToConfirm: null as EraseToConfirm | null,
  moderationError: null as string | null,
  moderationValues: null as EraseToConfirm | null,
};

/**
 * Restore a revision (its author or an admin; the posts service decides):
 * without `confirm=yes` it answers with the confirmation step. An admin's
 * decision on revisions (hideRevision, showRevision, eraseRevision).
 */
export async function action({ params, request }: ActionFunctionArgs) {
  const user = await getCurrentUser(request);
  const permission = mayChangePost(user, params.postId ?? "");
  if (!permission.ok && permission.status === 404) notFound();
  const form = await readForm(request);
  const intent = form.get("intent");
  // Back to the page the form was on: an old revision's (its address names it), or the list.
  const shownRevision = new URL(request.url).searchParams.get("revision");
  const back = historyHref(params.postId ?? "", shownRevision ? `?revision=${encodeURIComponent(shownRevision)}` : "");
  if (isRevisionDecision(intent)) {
    if (!user?.isAdmin) notFound();
    const decided = await ifStorageFails(() => decideFromForm(user, params.postId ?? "", intent, form), (fault) => asRefusal(onForm(fault)));
    // Refused or busy: the form comes back as it was filled in.
    if (!decided.ok) return data({ ...NO_ANSWER, moderationError: decided.error, moderationValues: typedModeration(form) }, { status: decided.status, headers: retryAfter(decided.status) });
    return decided.confirm ? { ...NO_ANSWER, eraseToConfirm: decided.confirm } : redirectWithNotice(back, "revisionsDecided");
  }
  if (!permission.ok) return data({ ...NO_ANSWER, error: permission.error }, { status: permission.status });
  if (intent !== "restore") return data(NO_ANSWER, { status: 400 });
  const revisionId = String(form.get("revision") ?? "");
  if (form.get("confirm") !== "yes") return findRevision(permission.post.id, revisionId) ? { ...NO_ANSWER, confirmRestore: true } : notFound();
  const result = restoreRevision(permission, revisionId, form);
  if (!result.ok && result.status === 404) notFound();
  if (!result.ok) return data({ ...NO_ANSWER, error: result.error }, { status: result.status, headers: retryAfter(result.status) });
  return redirectWithNotice(historyHref(permission.post.id), "restored");
}

export default function PostHistory() {
  const loaded = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const { post } = loaded;
  const moderation = (revision?: string) => (
    <RevisionModeration
      action={historyHref(post.id, revision ? `?revision=${revision}` : "")}
      revision={revision}
      error={answer?.moderationError ?? null}
      eraseToConfirm={answer?.eraseToConfirm ?? null}
      typed={answer?.moderationValues ?? null}
    />
  );
  if (loaded.mode === "revision") {
    return (
      <OldRevision
        {...loaded}
        confirmRestore={answer?.confirmRestore ?? false}
        error={answer?.error ?? null}
        href={historyHref(post.id, `?revision=${loaded.revision.id}`)}
        historyHref={historyHref(post.id)}
        moderation={loaded.mayModerate && !loaded.current ? moderation(loaded.revision.id) : null}
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
        {loaded.comparison ? (
          <RevisionComparison comparison={loaded.comparison} revisionHref={(id) => historyHref(post.id, `?revision=${id}`)} />
        ) : (
          <p className="revision-notice">Text jednej z porovnávaných verzií skryla redakcia: toto porovnanie nie je k dispozícii.</p>
        )}
      </main>
    );
  }
  const { total, page, pages, revisions, mayModerate } = loaded;
  // Revisions whose text a reader may not see are left out of the comparison; the newest two of the rest are chosen at first.
  const comparable = revisions.filter((revision) => mayModerate || !revision.hidden.text);
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
              {mayModerate && <th scope="col">Vybrať</th>}
              <th scope="col">Od</th>
              <th scope="col">Po</th>
              <th scope="col">Kedy</th>
              <th scope="col">Kto</th>
              <th scope="col">Popis zmeny</th>
              <th scope="col">Znaky</th>
            </tr>
          </thead>
          <tbody>
            {revisions.map((revision) => {
              const textShown = mayModerate || !revision.hidden.text;
              const pick = comparable.indexOf(revision);
              return (
                <tr key={revision.id}>
                  <th scope="row" data-label="Verzia">
                    {textShown ? <Link to={historyHref(post.id, `?revision=${revision.id}`)}>{revision.number}.</Link> : <>{revision.number}.</>}{" "}
                    <HiddenNote hidden={revision.hidden} />
                  </th>
                  {mayModerate && (
                    <td data-label="Vybrať" className="history-pick">
                      {revision.number !== total ? (
                        <input
                          type="checkbox"
                          name="revision"
                          value={revision.id}
                          form={REVISION_MODERATION_FORM}
                          defaultChecked={answer?.moderationValues?.revisions.includes(revision.id)}
                          aria-label={`Vybrať verziu ${revision.number} na moderovanie`}
                        />
                      ) : (
                        "—"
                      )}
                    </td>
                  )}
                  <td data-label="Od" className="history-pick">
                    {textShown ? <input type="radio" name="from" value={revision.id} defaultChecked={pick === 1} aria-label={`Porovnať od verzie ${revision.number}`} /> : "—"}
                  </td>
                  <td data-label="Po" className="history-pick">
                    {textShown ? <input type="radio" name="to" value={revision.id} defaultChecked={pick === 0} aria-label={`Porovnať po verziu ${revision.number}`} /> : "—"}
                  </td>
                  <td data-label="Kedy">
                    <time dateTime={isoTime(revision.createdAt)}>{formatDateTime(revision.createdAt)}</time>
                  </td>
                  <td data-label="Kto">{revision.hidden.editor && !mayModerate ? <i>{HIDDEN_PART_WORDS.editor}</i> : revision.editorName}</td>
                  <td data-label="Popis zmeny">
                    {revision.hidden.summary && !mayModerate ? (
                      <i>{HIDDEN_PART_WORDS.summary}</i>
                    ) : (
                      revision.summary || (revision.number === 1 ? "Uverejnenie" : "bez popisu")
                    )}
                  </td>
                  <td data-label="Znaky" className="history-size">
                    {sizeChange(revision.change)}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
        {comparable.length > 1 && (
          <button type="submit" className="button button-secondary history-compare">
            Porovnať vybrané verzie
          </button>
        )}
      </Form>
      <Pager page={page} pages={pages} hrefOf={(p) => historyHref(post.id, `?page=${p}`)} label="Stránky histórie" />
      {mayModerate && total > 1 && moderation()}
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
