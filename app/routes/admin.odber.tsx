import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { AdminNav } from "~/components/moderation/Admin";
import { FormError, Notice } from "~/components/forms/Messages";
import { useBroughtNotice } from "~/components/layout/BroughtNotice";
import { ADMIN_NOTICES, type AdminNotice } from "~/lib/notices";
import { pageTitle } from "~/lib/site";
import { centuryLabel } from "~/lib/subscriptions";
import { formatDateTime, isoTime } from "~/lib/time/dates";
import { readForm } from "~/services/platform/forms.server";
import { redirectWithNotice } from "~/services/platform/notice.server";
import { requireAdmin } from "~/services/platform/session.server";
import { asRefusal, ifStorageFails } from "~/services/platform/storage-fault.server";
import { retryAfter } from "~/services/platform/concurrency.server";
import { queueDigestNow } from "~/services/subscriptions/mailings.server";
import { subscriptionsOverview } from "~/services/subscriptions/subscriptions-admin.server";

/** Who follows the site by e-mail (counts only; the addresses only in the export), and what was mailed to them. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  return subscriptionsOverview();
}

export async function action({ request }: ActionFunctionArgs) {
  await requireAdmin(request);
  const form = await readForm(request);
  if (form.get("intent") !== "digest") throw data(null, { status: 400 });
  const refused = await ifStorageFails(
    () => void queueDigestNow(),
    (fault) => asRefusal(fault),
  );
  if (refused) return data({ error: refused.error }, { status: refused.status, headers: retryAfter(refused.status) });
  return redirectWithNotice<AdminNotice>("/admin/odber", "digest");
}

export default function AdminSubscriptions() {
  const { confirmed, pending, tags, centuries, mailings } = useLoaderData<typeof loader>();
  const notice = useBroughtNotice(ADMIN_NOTICES);
  const refused = useActionData<typeof action>();
  const followed = tags.filter((t) => t.n > 0);
  return (
    <main id="obsah" className="page admin-page">
      <h1>Odber e-mailom</h1>
      <AdminNav />
      <Notice text={notice} />
      <section aria-labelledby="odberatelia">
        <h2 id="odberatelia">Odberatelia</h2>
        <p>
          Potvrdených odberov: {confirmed.instant + confirmed.weekly} (každý článok hneď: {confirmed.instant}, raz za týždeň: {confirmed.weekly}). Čaká na
          potvrdenie: {pending}.
        </p>
        <p>
          <a href="/admin/odber.csv" download>
            Stiahnuť zoznam potvrdených odberateľov (CSV)
          </a>
        </p>
        <h3>Podľa tém</h3>
        {followed.length === 0 && centuries.length === 0 ? (
          <p>Všetci odberatelia dostávajú všetky nové články.</p>
        ) : (
          <ul className="subscription-counts">
            {followed.map((t) => (
              <li key={t.tag}>
                {t.tag}: {t.n}
              </li>
            ))}
            {centuries.map((c) => (
              <li key={c.century}>
                {centuryLabel(c.century)}: {c.n}
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="rozposlane">
        <h2 id="rozposlane">Rozposlané e-maily</h2>
        {mailings.length === 0 ? (
          <p>Zatiaľ sa nič nerozposielalo.</p>
        ) : (
          <table className="account-table">
            <thead>
              <tr>
                <th scope="col">Čo</th>
                <th scope="col">Kedy</th>
                <th scope="col">Adresátov</th>
                <th scope="col">Odoslané</th>
                <th scope="col">Čaká</th>
                <th scope="col">Neodoslané</th>
              </tr>
            </thead>
            <tbody>
              {mailings.map((m) => (
                <tr key={m.id}>
                  <th scope="row" data-label="Čo">
                    {m.kind === "digest" ? "Týždenný prehľad" : m.title && m.postId ? <Link to={`/posts/${m.postId}`}>{m.title}</Link> : "Odstránený článok"}
                  </th>
                  <td data-label="Kedy">
                    <time dateTime={isoTime(m.createdAt)}>{formatDateTime(m.createdAt)}</time>
                    {m.queuedAt === null ? " (pripravuje sa)" : ""}
                  </td>
                  <td data-label="Adresátov">{m.recipients}</td>
                  <td data-label="Odoslané">{m.sent}</td>
                  <td data-label="Čaká">{m.waiting}</td>
                  <td data-label="Neodoslané">{m.skipped + m.failed}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <p className="muted">Neodoslané: článok medzitým skryli alebo odstránili, odber sa skončil alebo e-mail odmietla poštová služba.</p>
        <Form method="post">
          <FormError text={refused?.error} />
          <p>Týždenný prehľad odchádza v pondelok ráno. Ak ho chcete poslať hneď (z článkov od posledného prehľadu):</p>
          <p>
            <button type="submit" name="intent" value="digest" className="button">
              Poslať týždenný prehľad teraz
            </button>
          </p>
        </Form>
      </section>
    </main>
  );
}

export const meta: MetaFunction = () => [{ title: pageTitle("Odber e-mailom – administrácia") }, { name: "robots", content: "noindex" }];
