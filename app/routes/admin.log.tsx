import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { AdminNav } from "~/components/moderation/Admin";
import { Pager } from "~/components/layout/Pager";
import { formatDateTime, isoTime } from "~/lib/time/dates";
import { LOG_ACTIONS, pageWindow, parsePage, type LogAction } from "~/lib/moderation/moderation";
import { pageTitle } from "~/lib/site";
import { countLogEntries, listLogEntries } from "~/models/moderation-log.server";
import { requireAdmin } from "~/services/platform/session.server";

const ENTRIES_PER_PAGE = 50;

/** The moderation log, newest first. It has no actions: entries cannot be changed or deleted. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const total = countLogEntries();
  const window = pageWindow(parsePage(new URL(request.url).searchParams.get("page")), total, ENTRIES_PER_PAGE);
  return { entries: listLogEntries(window), total, page: window.page, pages: window.pages };
}

function actionLabel(action: string): string {
  return Object.hasOwn(LOG_ACTIONS, action) ? LOG_ACTIONS[action as LogAction] : action;
}

export default function ModerationLog() {
  const { entries, total, page, pages } = useLoaderData<typeof loader>();
  return (
    <main id="obsah" className="page admin-page">
      <h1>Záznam moderovania</h1>
      <AdminNav />
      <p>Všetky zásahy administrátorov na stránke aj z príkazového riadka ({total}), od najnovších. Záznamy sa nedajú zmeniť ani odstrániť.</p>
      {entries.length === 0 ? (
        <p>Zatiaľ žiadne záznamy.</p>
      ) : (
        <table className="log-table">
          <thead>
            <tr>
              <th scope="col">Kedy</th>
              <th scope="col">Kto</th>
              <th scope="col">Čo</th>
              <th scope="col">Týka sa</th>
              <th scope="col">Podrobnosti</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((entry) => (
              <tr key={entry.id}>
                <td data-label="Kedy">
                  <time dateTime={isoTime(entry.createdAt)}>{formatDateTime(entry.createdAt)}</time>
                </td>
                <td data-label="Kto">{entry.actorName}</td>
                <th scope="row" data-label="Čo">
                  {actionLabel(entry.action)}
                </th>
                <td data-label="Týka sa">
                  {entry.targetUserName && <span>{entry.targetUserName}</span>}
                  {entry.targetUserName && entry.targetPostTitle && <br />}
                  {entry.targetPostTitle && (entry.targetPostId ? <Link to={`/posts/${entry.targetPostId}`}>„{entry.targetPostTitle}“</Link> : <span>„{entry.targetPostTitle}“</span>)}
                </td>
                <td data-label="Podrobnosti">{entry.detail}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Pager page={page} pages={pages} hrefOf={(p) => `/admin/log?page=${p}`} label="Stránky záznamu" />
    </main>
  );
}

export const meta: MetaFunction = () => [{ title: pageTitle("Záznam moderovania") }, { name: "robots", content: "noindex" }];
