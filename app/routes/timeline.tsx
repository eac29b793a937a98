import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { centuryLabel, decadeLabel, readCentury } from "~/lib/time/periods";
import { pageTitle } from "~/lib/site";
import { readTimelineAfter } from "~/lib/time/timeline-after";
import { timelinePage, type TimelineGroup, type TimelineStart } from "~/services/articles/timeline.server";

/** `/timeline`: every dated article in historical order, from the start, from a century (`?century=9`) or after an article (`?after=…`). */
export async function loader({ request }: LoaderFunctionArgs) {
  const params = new URL(request.url).searchParams;
  const century = readCentury(params.get("century"));
  const after = readTimelineAfter(params.get("after"));
  // Anything else is the timeline from its start, at its one address.
  if ([...params.keys()].length > 0 && century === null && after === null) throw redirect("/timeline");
  const start: TimelineStart = century !== null ? { century } : after ? { after } : null;
  return { ...timelinePage(start), century, paged: after !== null };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: pageTitle(data?.century != null ? `Časová os: ${centuryLabel(data.century)}` : "Časová os") },
  { name: "description", content: "Články Dejín v historickom poradí, po storočiach." },
  // Pages after the first repeat what the century pages say: crawlers follow, but keep the century pages.
  ...(data?.paged ? [{ name: "robots", content: "noindex, follow" }] : []),
];

const anchorOf = (century: number) => `storocie-${century < 0 ? `${-century}-pred-kr` : century}`;

export default function Timeline() {
  const { groups, next, centuries, century, paged } = useLoaderData<typeof loader>();
  const onPage = new Set(groups.map((group) => group.century));
  return (
    <main id="obsah" className="page timeline">
      <h1>Časová os</h1>
      <p>
        Články podľa toho, kedy sa udalosti stali, od najstarších. Článok patrí do storočia, v ktorom sa jeho obdobie začína. Články bez obdobia tu
        nie sú; nájdete ich v <Link to="/posts">zozname článkov</Link>.{" "}
        <a href={century !== null ? `/odber?od=casova-os&storocie=${century}` : "/odber?od=casova-os"}>{century !== null ? "Toto storočie e-mailom" : "Nové články e-mailom"}</a>
      </p>
      {centuries.length > 0 && (
        <nav aria-labelledby="timeline-index" className="timeline-index">
          <h2 id="timeline-index">Storočia</h2>
          <ul>
            {centuries.map((c) => (
              <li key={c}>
                <a href={onPage.has(c) ? `#${anchorOf(c)}` : `/timeline?century=${c}#${anchorOf(c)}`}>{centuryLabel(c)}</a>
              </li>
            ))}
          </ul>
        </nav>
      )}
      {groups.length === 0 && <p className="empty">{century !== null ? "V tomto storočí ani po ňom zatiaľ nie je žiadny datovaný článok." : "Zatiaľ tu nie sú žiadne datované články."}</p>}
      {groups.map((group) => (
        <CenturySection key={group.century} group={group} />
      ))}
      {(next || century !== null || paged) && (
        <nav className="pager" aria-label="Strany časovej osi">
          {century !== null || paged ? <Link to="/timeline">← Na začiatok</Link> : <span />}
          {next ? (
            <Link to={`/timeline?after=${encodeURIComponent(next)}`} rel="next">
              Ďalej v čase →
            </Link>
          ) : (
            <span />
          )}
        </nav>
      )}
    </main>
  );
}

function CenturySection({ group }: { group: TimelineGroup }) {
  const id = anchorOf(group.century);
  return (
    <section aria-labelledby={id} className="timeline-century">
      <h2 id={id}>{centuryLabel(group.century)}</h2>
      {group.decades.map(({ decade, entries }) => (
        <div key={decade ?? "all"}>
          {decade !== null && <h3>{decadeLabel(decade)}</h3>}
          <ol className="timeline-entries">
            {entries.map((entry) => (
              <li key={entry.id}>
                <span className="timeline-period">{entry.period}:</span> <a href={`/posts/${entry.id}`}>{entry.title}</a>
              </li>
            ))}
          </ol>
        </div>
      ))}
    </section>
  );
}
