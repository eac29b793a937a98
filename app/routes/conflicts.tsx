import type { MetaFunction } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { listHref } from "~/lib/links";
import { PAGE_SIZE } from "~/lib/rules";
import { pageTitle } from "~/lib/site";

export const meta: MetaFunction = () => [
  { title: pageTitle("Aktuálne konflikty") },
  { name: "description", content: "Aktuálne konflikty sveta v historických súvislostiach – pripravujeme." },
];

export default function Conflicts() {
  return (
    <main id="obsah" className="page prose">
      <h1>Aktuálne konflikty</h1>
      <p>
        Pripravujeme sekciu o konfliktoch, ktoré hýbu dnešným svetom. Ku každému nájdete stručný prehľad toho, ako
        vznikol, kto v ňom stojí proti komu a ktoré historické udalosti mu predchádzali.
      </p>
      <p>
        Kým sekciu dokončíme, pozrite si články o vojnách a krízach minulosti, bez ktorých sa dnešok nedá pochopiť:
      </p>
      <ul>
        {["Studená vojna", "Druhá svetová vojna", "Vietnamská vojna", "Dejiny Ruska"].map((tag) => (
          <li key={tag}>
            <Link to={listHref({ tag, limit: PAGE_SIZE })}>{tag}</Link>
          </li>
        ))}
      </ul>
    </main>
  );
}
