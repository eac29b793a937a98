import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { AccountStatus, AdminNav } from "~/components/moderation/Admin";
import { ConfirmAction } from "~/components/forms/ConfirmAction";
import { ReasonField } from "~/components/moderation/ReportQueue";
import { ArticleList, FormError, Notice } from "~/components/forms/Messages";
import { useBroughtNotice } from "~/components/layout/BroughtNotice";
import { formatDate, formatDateTime, isoTime } from "~/lib/time/dates";
import { ACCOUNT_ACTIONS, articleCount, isAccountAction, type AccountAction } from "~/lib/moderation/moderation";
import { UNKNOWN_ACTION_MESSAGE } from "~/lib/rules";
import { pageTitle } from "~/lib/site";
import { listPostsOf } from "~/models/posts.server";
import { countAbusiveReportsBy, countReportsBy } from "~/models/reports.server";
import { getAccount } from "~/models/users.server";
import { retryAfter } from "~/services/platform/concurrency.server";
import { readForm } from "~/services/platform/forms.server";
import { asRefusal, ifStorageFails } from "~/services/platform/storage-fault.server";
import { moderateAccount } from "~/services/moderation/moderation.server";
import { requireAdmin } from "~/services/platform/session.server";
import { redirectWithNotice } from "~/services/platform/notice.server";

const ARTICLES_SHOWN = 10;

export async function loader({ request, params }: LoaderFunctionArgs) {
  const admin = await requireAdmin(request);
  const account = getAccount(params.userId ?? "");
  if (!account) throw data(null, { status: 404 });
  return {
    account,
    self: account.id === admin.id,
    articles: listPostsOf(account.id, { offset: 0, limit: ARTICLES_SHOWN }),
    reports: { sent: countReportsBy(account.id), abusive: countAbusiveReportsBy(account.id) },
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const admin = await requireAdmin(request);
  const form = await readForm(request);
  const intent = form.get("intent");
  if (!isAccountAction(intent)) return data({ error: UNKNOWN_ACTION_MESSAGE, confirm: null, reason: "" }, { status: 400 });
  // Without confirm=yes, the page asks first (the step that works without JavaScript).
  const reason = String(form.get("reason") ?? "");
  if (form.get("confirm") !== "yes") return { error: null, confirm: intent, reason };
  const result = await ifStorageFails(() => moderateAccount(admin, params.userId ?? "", intent, { reason }), asRefusal);
  // A decision refused for its reason, or told to wait (the storage, the mail outbox), asks again with what was typed.
  if (!result.ok) {
    const askAgain = takesReason(intent) && [400, 503, 507].includes(result.status);
    return data({ error: result.error, confirm: askAgain ? intent : null, reason }, { status: result.status, headers: retryAfter(result.status) });
  }
  return redirectWithNotice<AccountAction>(`/admin/users/${params.userId}`, intent);
}

/** Disabling and removing the articles are decisions its owner is told the reason of. */
function takesReason(action: AccountAction): boolean {
  return action === "disable" || action === "removeArticles";
}

/** The actions that make sense for the account as it is now. */
function actionsFor(account: { isAdmin: boolean; disabledAt: number | null; articles: number }, self: boolean): AccountAction[] {
  const actions: AccountAction[] = [];
  // Nobody disables or demotes themselves (the server refuses it too).
  if (!self) actions.push(account.disabledAt ? "enable" : "disable");
  if (!account.isAdmin) actions.push("grant");
  else if (!self) actions.push("revoke");
  if (account.articles > 0) actions.push("removeArticles");
  return actions;
}

export default function AdminAccount() {
  const { account, self, articles, reports } = useLoaderData<typeof loader>();
  const notice = useBroughtNotice(ACCOUNT_ACTIONS)?.done;
  const result = useActionData<typeof action>();
  const question = (action: AccountAction) => ACCOUNT_ACTIONS[action].confirm.replace("{name}", account.displayName).replace("{count}", articleCount(account.articles));
  return (
    <main id="obsah" className="page admin-page">
      <h1>Účet {account.displayName}</h1>
      <AdminNav />
      <p>
        <Link to="/admin">← Späť na zoznam účtov</Link>
      </p>
      <Notice text={notice} />
      <FormError text={result?.error} />
      {result?.confirm && (
        <ConfirmAction
          question={question(result.confirm)}
          fields={{ intent: result.confirm }}
          confirmLabel={ACCOUNT_ACTIONS[result.confirm].button}
          cancelHref={`/admin/users/${account.id}`}
        >
          {takesReason(result.confirm) && (
            <ReasonField id={`${result.confirm}-reason`} label="Dôvod (dostane ho majiteľ účtu a môže sa proti nemu ohradiť; zverejní sa aj vo verejnom zázname moderovania, preto bez mien)" value={result.reason} invalid={Boolean(result.error)} />
          )}
        </ConfirmAction>
      )}
      <dl className="facts">
        <dt>E-mail</dt>
        <dd>
          {account.email} · {account.emailConfirmedAt !== null ? "potvrdený" : "nepotvrdený (dostáva len odkazy na potvrdenie a na obnovenie hesla)"}
        </dd>
        <dt>Rola</dt>
        <dd>{account.isAdmin ? "administrátor" : "používateľ"}</dd>
        <dt>Stav</dt>
        <dd>
          <AccountStatus account={account} />
        </dd>
        <dt>Články</dt>
        <dd>{account.articles}</dd>
        <dt>Hlásenia</dt>
        <dd>
          {reports.sent}
          {reports.abusive > 0 && `, z toho zamietnuté ako zneužité: ${reports.abusive}`}
        </dd>
        <dt>Registrácia</dt>
        <dd>
          <time dateTime={isoTime(account.createdAt)}>{formatDate(account.createdAt)}</time>
        </dd>
        <dt>Posledná aktivita</dt>
        <dd>{account.lastSeenAt ? <time dateTime={isoTime(account.lastSeenAt)}>{formatDateTime(account.lastSeenAt)}</time> : "nikdy"}</dd>
      </dl>

      <h2>Akcie</h2>
      {self && <p className="muted">Toto je váš účet: nemôžete ho zablokovať ani mu odobrať práva administrátora.</p>}
      <div className="button-row">
        {actionsFor(account, self).map((action) => (
          <Form method="post" key={action}>
            <input type="hidden" name="intent" value={action} />
            <button type="submit" className={`button ${action === "removeArticles" || action === "disable" ? "button-danger" : "button-secondary"}`}>
              {ACCOUNT_ACTIONS[action].button}
            </button>
          </Form>
        ))}
      </div>

      {articles.length > 0 && (
        <>
          <h2>Najnovšie články</h2>
          <ArticleList articles={articles} />
        </>
      )}
    </main>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: pageTitle(data ? `Účet ${data.account.displayName}` : "Stránka sa nenašla") },
  { name: "robots", content: "noindex" },
];
