import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { AdminNav, AccountStatus, MailStatus } from "~/components/Admin";
import { ConfirmAction } from "~/components/ConfirmAction";
import { FormError, Notice } from "~/components/Messages";
import { Pager } from "~/components/Pager";
import { formatDate, formatDateTime, isoTime } from "~/lib/dates";
import { pageWindow, parsePage, reasonLabel } from "~/lib/moderation";
import { showHiddenControls } from "~/lib/rules";
import { pageTitle } from "~/lib/site";
import { showNonAscii } from "~/lib/text-controls";
import { listOpenReports } from "~/models/reports.server";
import { countAccounts, findAccounts } from "~/models/users.server";
import { readForm } from "~/services/forms.server";
import { asRefusal, ifStorageFails } from "~/services/storage-fault.server";
import { mailOutboxStatus } from "~/services/mail-outbox.server";
import { deleteReportedPost, dismissReport } from "~/services/moderation.server";
import { requireAdmin } from "~/services/session.server";

const ACCOUNTS_PER_PAGE = 25;
const REPORTS_SHOWN = 50;
/** Longest search the page takes: a name or an e-mail is shorter. */
const QUERY_MAX_LENGTH = 100;

const REPORT_ACTIONS = {
  dismissReport: { button: "Zamietnuť", confirm: "Zamietnuť hlásenie k článku „{title}“? Článok zostane.", done: "Hlásenie je zamietnuté." },
  deleteReportedPost: { button: "Odstrániť článok", confirm: "Natrvalo odstrániť článok „{title}“ aj s obrázkom?", done: "Článok je odstránený." },
} as const;
type ReportAction = keyof typeof REPORT_ACTIONS;

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const params = new URL(request.url).searchParams;
  const query = (params.get("q") ?? "").trim().slice(0, QUERY_MAX_LENGTH);
  const total = countAccounts(query);
  const window = pageWindow(parsePage(params.get("page")), total, ACCOUNTS_PER_PAGE);
  const done = params.get("done");
  return {
    query,
    accounts: { rows: findAccounts(query, window), total, page: window.page, pages: window.pages },
    reports: listOpenReports(REPORTS_SHOWN),
    mail: mailOutboxStatus(),
    notice: done && Object.hasOwn(REPORT_ACTIONS, done) ? REPORT_ACTIONS[done as ReportAction].done : null,
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireAdmin(request);
  const form = await readForm(request);
  const intent = String(form.get("intent"));
  const reportId = Number(form.get("report"));
  if (!Object.hasOwn(REPORT_ACTIONS, intent) || !Number.isSafeInteger(reportId)) return data({ error: "Neznáma akcia.", confirm: null }, { status: 400 });
  // Without confirm=yes, the page asks first (the step that works without JavaScript).
  if (form.get("confirm") !== "yes") return { error: null, confirm: { intent: intent as ReportAction, report: reportId } };
  const result = await ifStorageFails(
    () => (intent === "dismissReport" ? dismissReport(admin, reportId) : deleteReportedPost(admin, reportId)),
    asRefusal,
  );
  if (!result.ok) return data({ error: result.error, confirm: null }, { status: result.status });
  const back = new URL(request.url);
  back.searchParams.set("done", intent);
  return redirect(`/admin${back.search}`, 303);
}

export default function Admin() {
  const { query, accounts, reports, notice, mail } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const confirming = result?.confirm && reports.rows.find((r) => r.id === result.confirm!.report);
  const hrefOf = (page: number) => `/admin?${new URLSearchParams({ ...(query && { q: query }), page: String(page) })}`;

  return (
    <main id="obsah" className="page admin-page">
      <h1>Administrácia</h1>
      <AdminNav />
      <Notice text={notice} />
      <FormError text={result?.error} />
      {confirming && (
        <ConfirmAction
          question={REPORT_ACTIONS[result.confirm!.intent].confirm.replace("{title}", confirming.postTitle)}
          fields={{ intent: result.confirm!.intent, report: String(confirming.id) }}
          confirmLabel={REPORT_ACTIONS[result.confirm!.intent].button}
          cancelHref={hrefOf(accounts.page)}
        />
      )}

      <section aria-labelledby="hlasenia">
        <h2 id="hlasenia">Nahlásené články ({reports.total})</h2>
        {reports.total === 0 ? (
          <p>Žiadne otvorené hlásenia.</p>
        ) : (
          <>
            {reports.total > reports.rows.length && (
              <p>
                Zobrazených {reports.rows.length} najnovších z {reports.total}.
              </p>
            )}
            <ul className="plain-list report-list">
              {reports.rows.map((report) => (
                <li key={report.id}>
                  <p>
                    <Link to={`/posts/${report.postId}`}>{report.postTitle}</Link>
                  </p>
                  <p className="muted">
                    {reasonLabel(report.reason)} · nahlásil(a) {report.reporterName},{" "}
                    <time dateTime={isoTime(report.createdAt)}>{formatDateTime(report.createdAt)}</time>
                  </p>
                  {report.note && <p className="report-note">{report.note}</p>}
                  <div className="button-row">
                    {(Object.keys(REPORT_ACTIONS) as ReportAction[]).map((intent) => (
                      <Form method="post" key={intent}>
                        <input type="hidden" name="intent" value={intent} />
                        <input type="hidden" name="report" value={report.id} />
                        <button
                          type="submit"
                          className={`button button-small ${intent === "deleteReportedPost" ? "button-danger" : "button-secondary"}`}
                          aria-label={`${REPORT_ACTIONS[intent].button}: ${report.postTitle}`}
                        >
                          {REPORT_ACTIONS[intent].button}
                        </button>
                      </Form>
                    ))}
                  </div>
                </li>
              ))}
            </ul>
          </>
        )}
      </section>

      <section aria-labelledby="ucty">
        <h2 id="ucty">Účty ({accounts.total})</h2>
        <Form method="get" className="search-form" role="search">
          <label htmlFor="account-search">Hľadať meno alebo e-mail</label>
          <div className="search-row">
            <input id="account-search" type="search" name="q" defaultValue={query} maxLength={QUERY_MAX_LENGTH} />
            <button type="submit" className="button">
              Hľadať
            </button>
          </div>
        </Form>
        {query && (
          <p>
            {accounts.total === 0 ? "Nič sa nenašlo" : `Nájdené: ${accounts.total}`} pre „{query}“. <Link to="/admin">Zrušiť hľadanie</Link>
          </p>
        )}
        {accounts.rows.length > 0 && (
          <table className="account-table">
            <thead>
              <tr>
                <th scope="col">Meno</th>
                <th scope="col">E-mail</th>
                <th scope="col">Rola</th>
                <th scope="col">Stav</th>
                <th scope="col">Články</th>
                <th scope="col">Registrácia</th>
                <th scope="col">Naposledy</th>
              </tr>
            </thead>
            <tbody>
              {accounts.rows.map((account) => (
                <tr key={account.id}>
                  <th scope="row" data-label="Meno">
                    <Link to={`/admin/users/${account.id}`}>{showHiddenControls(account.displayName)}</Link>
                    {account.lookalikes > 0 && <span className="muted"> (podobá sa na meno iného účtu)</span>}
                  </th>
                  <td data-label="E-mail" className="account-email">
                    {showNonAscii(account.email)}
                  </td>
                  <td data-label="Rola">{account.isAdmin ? "administrátor" : "používateľ"}</td>
                  <td data-label="Stav">
                    <AccountStatus account={account} />
                  </td>
                  <td data-label="Články">{account.articles}</td>
                  <td data-label="Registrácia">
                    <time dateTime={isoTime(account.createdAt)}>{formatDate(account.createdAt)}</time>
                  </td>
                  <td data-label="Naposledy">{account.lastSeenAt ? <time dateTime={isoTime(account.lastSeenAt)}>{formatDateTime(account.lastSeenAt)}</time> : "—"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <Pager page={accounts.page} pages={accounts.pages} hrefOf={hrefOf} label="Stránky účtov" />
      </section>

      <MailStatus {...mail} />
    </main>
  );
}

export const meta: MetaFunction = () => [{ title: pageTitle("Administrácia") }, { name: "robots", content: "noindex" }];
