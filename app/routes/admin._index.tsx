import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction, SerializeFrom } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { AdminNav, AccountStatus, MailStatus } from "~/components/moderation/Admin";
import { ConflictsEditor } from "~/components/moderation/ConflictsEditor";
import { AppealQueue, ReportQueue } from "~/components/moderation/ReportQueue";
import { FormError, Notice } from "~/components/forms/Messages";
import { Pager } from "~/components/layout/Pager";
import { useBroughtNotice } from "~/components/layout/BroughtNotice";
import { formatDate, formatDateTime, isoTime } from "~/lib/time/dates";
import { pageWindow, parsePage } from "~/lib/moderation/moderation";
import { ADMIN_NOTICES, type AdminNotice } from "~/lib/notices";
import { showHiddenControls, UNKNOWN_ACTION_MESSAGE } from "~/lib/rules";
import { pageTitle } from "~/lib/site";
import { showNonAscii } from "~/lib/text/text-controls";
import { listOpenAppeals } from "~/models/appeals.server";
import { countAccounts, findAccounts } from "~/models/users.server";
import { readForm } from "~/services/platform/forms.server";
import { asRefusal, ifStorageFails } from "~/services/platform/storage-fault.server";
import { mailOutboxStatus } from "~/services/platform/mail-outbox.server";
import { confirmedSubscriptions } from "~/services/subscriptions/subscriptions-admin.server";
import { decideAppeal } from "~/services/moderation/appeals.server";
import { conflictsForAdmin } from "~/services/articles/conflicts.server";
import { retryAfter } from "~/services/platform/concurrency.server";
import { decideReports, reportQueue } from "~/services/moderation/moderation-decisions.server";
import { siteReads } from "~/services/articles/reads.server";
import { READ_WINDOWS, readCount } from "~/lib/reads";
import { requireAdmin } from "~/services/platform/session.server";
import { redirectWithNotice } from "~/services/platform/notice.server";

const ACCOUNTS_PER_PAGE = 25;
const REPORTS_SHOWN = 100;
const APPEALS_SHOWN = 50;
/** The most read articles shown (of the last 30 days, or with ?reads=7 of the last 7). */
const MOST_READ_SHOWN = 10;
/** Longest search the page takes: a name or an e-mail is shorter. */
const QUERY_MAX_LENGTH = 100;

export async function loader({ request }: LoaderFunctionArgs) {
  const admin = await requireAdmin(request);
  const params = new URL(request.url).searchParams;
  const query = (params.get("q") ?? "").trim().slice(0, QUERY_MAX_LENGTH);
  const total = countAccounts(query);
  const window = pageWindow(parsePage(params.get("page")), total, ACCOUNTS_PER_PAGE);
  const readsBy = params.get("reads") === String(READ_WINDOWS.week) ? "week" : "month";
  return {
    query,
    accounts: { rows: findAccounts(query, window), total, page: window.page, pages: window.pages },
    reports: reportQueue(admin, REPORTS_SHOWN),
    appeals: listOpenAppeals(APPEALS_SHOWN),
    mail: { ...mailOutboxStatus(), subscriptions: confirmedSubscriptions() },
    conflicts: conflictsForAdmin(),
    reads: { by: readsBy, ...siteReads(readsBy, MOST_READ_SHOWN) },
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireAdmin(request);
  const form = await readForm(request);
  const intent = form.get("intent");
  const values = { post: form.getAll("post").map(String), decision: String(form.get("decision") ?? ""), reason: String(form.get("reason") ?? "") };
  const appealId = Number(form.get("appeal"));
  const result = await ifStorageFails(async () => {
    if (intent === "decide") return await decideReports(admin, form);
    if (intent === "decideAppeal") return decideAppeal(admin, appealId, form.get("outcome"), form);
    return { ok: false as const, status: 400, error: UNKNOWN_ACTION_MESSAGE };
  }, asRefusal);
  if (!result.ok) {
    const invalid = "invalid" in result && Array.isArray(result.invalid) ? (result.invalid as string[]) : [];
    const appeal = intent === "decideAppeal" ? { appeal: appealId, reason: values.reason, error: result.error } : null;
    return data({ error: result.error, invalid, values, appeal }, { status: result.status, headers: retryAfter(result.status) });
  }
  // Back to the page as it was (the accounts' search and page, the reads' period).
  return redirectWithNotice<AdminNotice>(`/admin${new URL(request.url).search}`, intent === "decide" ? "decided" : "appeal");
}

export default function Admin() {
  const { query, accounts, reports, appeals, mail, conflicts, reads } = useLoaderData<typeof loader>();
  const notice = useBroughtNotice(ADMIN_NOTICES);
  const result = useActionData<typeof action>();
  const location = useLocation();
  const hrefOf = (page: number) => `/admin?${new URLSearchParams({ ...(query && { q: query }), page: String(page) })}`;

  return (
    <main id="obsah" className="page admin-page">
      <h1>Administrácia</h1>
      <AdminNav />
      <Notice text={notice} />
      {/* An appeal's refusal is said at its own form, while it is on the page. */}
      <FormError text={result?.appeal && appeals.rows.some((row) => row.appeal.id === result.appeal!.appeal) ? null : result?.error} />
      <section aria-labelledby="hlasenia">
        <h2 id="hlasenia">Hlásenia ({reports.total})</h2>
        {/* Keyed by the visit: after a decision the form starts afresh, with JavaScript too (a refusal shows what was typed). */}
        <ReportQueue
          key={location.key}
          articles={reports.articles}
          total={reports.total}
          values={result?.appeal === null && result.values ? result.values : { post: [], decision: "", reason: "" }}
          invalid={result?.appeal === null ? result.invalid : []}
        />
      </section>

      <section aria-labelledby="namietky">
        <h2 id="namietky">Námietky autorov ({appeals.total})</h2>
        <AppealQueue key={location.key} appeals={appeals.rows} values={result?.appeal ?? null} />
      </section>

      <MostRead reads={reads} search={location.search} />

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
            {accounts.total === 0 ? `Pre „${query}“ sa nenašiel žiadny účet.` : `Výsledky pre „${query}“: ${accounts.total}.`} <Link to="/admin">Zrušiť hľadanie</Link>
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
                <th scope="col">Posledná aktivita</th>
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
                  <td data-label="Posledná aktivita">{account.lastSeenAt ? <time dateTime={isoTime(account.lastSeenAt)}>{formatDateTime(account.lastSeenAt)}</time> : "nikdy"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <Pager page={accounts.page} pages={accounts.pages} hrefOf={hrefOf} label="Stránky účtov" />
      </section>

      <section aria-labelledby="konflikty">
        <h2 id="konflikty">Aktuálne konflikty ({conflicts.length})</h2>
        <ConflictsEditor entries={conflicts} refused={null} />
      </section>

      <MailStatus {...mail} />
    </main>
  );
}

/** The site's reads in the last 7 and 30 days, and its most read articles of one of them (?reads=7 or the 30 days), as a table. */
function MostRead({ reads, search }: { reads: SerializeFrom<typeof loader>["reads"]; search: string }) {
  const { week, month } = READ_WINDOWS;
  // The other period's address keeps the rest of the page's (the accounts' search and page).
  const hrefBy = (days: number) => {
    const params = new URLSearchParams(search);
    if (days === month) params.delete("reads");
    else params.set("reads", String(days));
    const query = params.toString();
    return `/admin${query ? `?${query}` : ""}#citanost`;
  };
  const days = reads.by === "week" ? week : month;
  return (
    <section aria-labelledby="citanost">
      <h2 id="citanost">Čítanosť</h2>
      <p>
        Za posledných {week} dní {readCount(reads.total.week)}, za {month} dní {readCount(reads.total.month)}. Počíta sa každé otvorenie článku (nie počet
        ľudí), okrem robotov, autora článku a administrátorov.
      </p>
      {reads.mostRead.length === 0 ? (
        <p>Za posledných {days} dní nikto nečítal žiadny článok.</p>
      ) : (
        <>
          <p>
            Najčítanejšie za posledných {days} dní ·{" "}
            <Link to={hrefBy(days === week ? month : week)} preventScrollReset>
              zoradiť podľa {days === week ? month : week} dní
            </Link>
          </p>
          <table className="log-table most-read-table">
            <thead>
              <tr>
                <th scope="col">Článok</th>
                <th scope="col">Autor</th>
                <th scope="col">Za {week} dní</th>
                <th scope="col">Za {month} dní</th>
              </tr>
            </thead>
            <tbody>
              {reads.mostRead.map((post) => (
                <tr key={post.id}>
                  <th scope="row" data-label="Článok">
                    <Link to={`/posts/${post.id}`}>{post.title}</Link>
                    {post.hidden && <span className="muted"> (skrytý)</span>}
                  </th>
                  <td data-label="Autor">{showHiddenControls(post.author)}</td>
                  <td data-label={`Za ${week} dní`}>{post.week}</td>
                  <td data-label={`Za ${month} dní`}>{post.month}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </section>
  );
}

export const meta: MetaFunction = () => [{ title: pageTitle("Administrácia") }, { name: "robots", content: "noindex" }];
