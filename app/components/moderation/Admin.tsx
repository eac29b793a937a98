import { Link, NavLink } from "@remix-run/react";
import { formatDateTime, isoTime } from "~/lib/time/dates";
import { showHiddenControls } from "~/lib/rules";

/** The admin pages' own navigation. */
export function AdminNav() {
  return (
    <nav className="sub-nav" aria-label="Administrácia">
      <NavLink to="/admin" end>
        Účty a hlásenia
      </NavLink>
      <NavLink to="/admin/log">Záznam moderovania</NavLink>
      <NavLink to="/admin/odber">Odber e-mailom</NavLink>
    </nav>
  );
}

/** Whether an account can sign in, in words. */
export function AccountStatus({ account }: { account: { disabledAt: number | null; canSignIn: boolean } }) {
  if (account.disabledAt) return <span className="status status-disabled">zablokovaný</span>;
  if (!account.canSignIn) return <span className="status">bez hesla</span>;
  return <span className="status status-active">aktívny</span>;
}

/** The mail outbox as /admin shows it: what waits, and the last failure (mail trouble never makes the site unhealthy, so it is said here). */
export function MailStatus({
  waiting,
  lastFailure,
  subscriptions,
}: {
  waiting: number;
  lastFailure: { lastError: string | null; createdAt: number; gaveUpAt: number | null } | null;
  subscriptions: number;
}) {
  return (
    <section aria-labelledby="posta">
      <h2 id="posta">Odchádzajúca pošta</h2>
      <p>{waiting === 0 ? "Všetky e-maily sú odoslané." : `Na odoslanie čaká e-mailov: ${waiting}. Server ich skúša poslať znova.`}</p>
      {lastFailure && (
        <p className="muted">
          Posledná chyba pri e-maile z <time dateTime={isoTime(lastFailure.createdAt)}>{formatDateTime(lastFailure.createdAt)}</time>
          {lastFailure.gaveUpAt ? " (vzdané)" : ""}: {showHiddenControls(lastFailure.lastError ?? "")}
        </p>
      )}
      <p>
        Potvrdených odberov nových článkov: {subscriptions}. Čo sa im rozposlalo: <Link to="/admin/odber">Odber e-mailom</Link>.
      </p>
    </section>
  );
}
