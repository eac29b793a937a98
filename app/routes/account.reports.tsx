import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { AccountSubpage } from "~/components/layout/AccountSubpage";
import { Link, useLoaderData } from "@remix-run/react";
import { Pager } from "~/components/layout/Pager";
import { formatDateTime, isoTime } from "~/lib/time/dates";
import { decisionLabel, pageWindow, parsePage, reasonLabel, REPORT_STATES, type ReportState } from "~/lib/moderation/moderation";
import { pageTitle } from "~/lib/site";
import { countReportsBy } from "~/models/reports.server";
import { requireUser } from "~/services/platform/session.server";
import { reportsOf } from "~/services/moderation/statements.server";

const REPORTS_PER_PAGE = 20;

/** "Moje hlásenia": each report the reader sent, where it is, and what was decided and why. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const total = countReportsBy(user.id);
  const window = pageWindow(parsePage(new URL(request.url).searchParams.get("page")), total, REPORTS_PER_PAGE);
  return { reports: reportsOf(user.id, window), total, page: window.page, pages: window.pages };
}

export default function MyReports() {
  const { reports, total, page, pages } = useLoaderData<typeof loader>();
  return (
    <AccountSubpage title="Moje hlásenia">
      {total === 0 ? (
        <p>Zatiaľ ste nenahlásili žiadny článok. Nahlásiť ho môžete odkazom „Nahlásiť“ pod článkom; kto ho nahlásil, autor nevidí.</p>
      ) : (
        <>
          <p>Kto článok nahlásil, autor nevidí. Spolu {total}, od najnovšieho.</p>
          <ul className="plain-list report-list">
            {reports.map((report) => (
              <li key={report.id}>
                <p>{report.visible && report.postId ? <Link to={`/posts/${report.postId}`}>{report.postTitle}</Link> : report.postTitle}</p>
                <p className="muted">
                  {reasonLabel(report.reason)}
                  {report.paragraph !== null && ` · odsek ${report.paragraph}`} · <time dateTime={isoTime(report.createdAt)}>{formatDateTime(report.createdAt)}</time>
                </p>
                {report.passage && <blockquote className="report-note">{report.passage}</blockquote>}
                <p>
                  <strong>{REPORT_STATES[report.state as ReportState] ?? report.state}</strong>
                  {report.decision && (
                    <>
                      {" "}
                      — {decisionLabel(report.decision.action)}, <time dateTime={isoTime(report.decision.createdAt)}>{formatDateTime(report.decision.createdAt)}</time>
                    </>
                  )}
                </p>
                {report.decision && <p>Odôvodnenie: {report.decision.reason}</p>}
                {report.decision?.reversed && <p>Autor sa ohradil a iný administrátor mu vyhovel: toto rozhodnutie už neplatí.</p>}
                {report.decision?.shownAgain && !report.decision.reversed && <p>Redakcia článok neskôr znova zverejnila: toto rozhodnutie už neplatí.</p>}
              </li>
            ))}
          </ul>
          <Pager page={page} pages={pages} hrefOf={(n) => `/account/reports?page=${n}`} label="Stránky mojich hlásení" />
        </>
      )}
    </AccountSubpage>
  );
}

export const meta: MetaFunction = () => [{ title: pageTitle("Moje hlásenia") }, { name: "robots", content: "noindex" }];
