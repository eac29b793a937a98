import { NavLink } from "@remix-run/react";

/** The admin pages' own navigation. */
export function AdminNav() {
  return (
    <nav className="sub-nav" aria-label="Administrácia">
      <NavLink to="/admin" end>
        Účty a hlásenia
      </NavLink>
      <NavLink to="/admin/log">Záznam moderovania</NavLink>
    </nav>
  );
}

/** Whether an account can sign in, in words. */
export function AccountStatus({ account }: { account: { disabledAt: number | null; canSignIn: boolean } }) {
  if (account.disabledAt) return <span className="status status-disabled">zablokovaný</span>;
  if (!account.canSignIn) return <span className="status">bez prihlásenia</span>;
  return <span className="status status-active">aktívny</span>;
}
