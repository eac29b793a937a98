import { Link } from "@remix-run/react";
import type { ReactNode } from "react";

/** A page of one's account beside /account itself (Moje hlásenia, Rozhodnutia o mojom obsahu): the way back, the title, the page. */
export function AccountSubpage({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main id="obsah" className="page account-page">
      <p>
        <Link to="/account">← Môj účet</Link>
      </p>
      <h1>{title}</h1>
      {children}
    </main>
  );
}
