import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { Pager } from "~/components/Pager";
import { formatDateTime, isoTime } from "~/lib/dates";
import { editCount, historyPage, REVISIONS_PER_PAGE, sizeChange } from "~/lib/revisions";
import { pageTitle } from "~/lib/site";
import { getPost } from "~/models/posts.server";
import { countRevisions, listRevisions } from "~/models/revisions.server";

/**
 * An article's history, for everyone: its revisions newest first, paged with
 * plain links. Not in the page cache (server/page-cache.ts): it is read far
 * less than the article, and a page is one index range of at most 51 rows.
 */
export async function loader({ params, request }: LoaderFunctionArgs) {
  const post = getPost(params.postId ?? "");
  if (!post) throw data(null, { status: 404 });
  const total = countRevisions(post.id);
  const pages = Math.max(1, Math.ceil(total / REVISIONS_PER_PAGE));
  const page = historyPage(new URL(request.url).searchParams.get("page"), pages);
  if (page === null) throw data(null, { status: 404 });
  const revisions = listRevisions(post.id, { offset: (page - 1) * REVISIONS_PER_PAGE, limit: REVISIONS_PER_PAGE });
  return { post: { id: post.id, title: post.title }, total, page, pages, revisions };
}

export default function PostHistory() {
  const { post, total, page, pages, revisions } = useLoaderData<typeof loader>();
  return (
    <main id="obsah" className="page history-page">
      <h1>História článku</h1>
      <p>
        <Link to={`/posts/${post.id}`}>„{post.title}“</Link>: {total <= 1 ? "zatiaľ bez úprav" : `${editCount(total - 1)} od uverejnenia`}, najnovšie
        prvé.
      </p>
      <table className="log-table history-table">
        <thead>
          <tr>
            <th scope="col">Verzia</th>
            <th scope="col">Kedy</th>
            <th scope="col">Kto</th>
            <th scope="col">Popis zmeny</th>
            <th scope="col">Znaky</th>
          </tr>
        </thead>
        <tbody>
          {revisions.map((revision) => (
            <tr key={revision.id}>
              <th scope="row" data-label="Verzia">
                {revision.number}.
              </th>
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
      <Pager page={page} pages={pages} hrefOf={(p) => `/posts/${post.id}/history?page=${p}`} label="Stránky histórie" />
    </main>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: pageTitle(data ? `História: ${data.post.title}` : "Článok sa nenašiel") }];
