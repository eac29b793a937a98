import type { MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { pageTitle } from "~/lib/site";
import { conflictsPage } from "~/services/articles/conflicts.server";

export async function loader() {
  return { conflicts: conflictsPage() };
}

export const meta: MetaFunction = () => [
  { title: pageTitle("Aktuálne konflikty") },
  { name: "description", content: "Konflikty, ktoré hýbu dnešným svetom, a ich historické pozadie v článkoch Dejín." },
];

/** "Aktuálne konflikty": each entry admins keep, with the articles of its historical background in historical order. */
export default function Conflicts() {
  const { conflicts } = useLoaderData<typeof loader>();
  return (
    <main id="obsah" className="page prose conflicts-page">
      <h1>Aktuálne konflikty</h1>
      <p>Konflikty, ktoré hýbu dnešným svetom, a čo im predchádzalo: ku každému články o jeho historickom pozadí, zoradené podľa toho, kedy sa udalosti stali.</p>
      {conflicts.length === 0 && <p className="empty">Zatiaľ tu nie je žiadny konflikt.</p>}
      {conflicts.map((conflict) => (
        <section key={conflict.id} aria-labelledby={`konflikt-${conflict.id}`} className="conflict">
          <h2 id={`konflikt-${conflict.id}`}>{conflict.name}</h2>
          <p className="conflict-summary">{conflict.summary}</p>
          <h3>Historické pozadie</h3>
          {conflict.articles.length > 0 ? (
            <ol className="timeline-entries">
              {conflict.articles.map((article) => (
                <li key={article.id}>
                  <span className="timeline-period">{article.period}:</span> <Link to={`/posts/${article.id}`}>{article.title}</Link>
                </li>
              ))}
            </ol>
          ) : (
            <p className="empty">Články o jeho pozadí zatiaľ nemáme.</p>
          )}
        </section>
      ))}
    </main>
  );
}
