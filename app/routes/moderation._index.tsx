import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { Pager } from "~/components/layout/Pager";
import { formatDate, isoTime } from "~/lib/time/dates";
import { decisionLabel, parsePage } from "~/lib/moderation/moderation";
import {
  appealOutcome,
  decisionCount,
  formatCount,
  isCanonicalPage,
  PUBLIC_LOG_FEED_PATH,
  PUBLIC_LOG_TITLE,
  publicLogHref,
  UNNAMED_ARTICLE,
  type MonthCount,
  type PublicDecision,
} from "~/lib/moderation/public-log";
import { pageTitle, SITE_NAME } from "~/lib/site";
import { publicLogPage, publicLogWindow } from "~/services/moderation/public-log.server";

/**
 * The public moderation log: the same for everyone, kept by the page cache
 * (server/page-cache.ts). A page number written otherwise than the site
 * writes it, or past the last page, is redirected to the page shown for it,
 * so the cache keeps one entry per real page.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const raw = new URL(request.url).searchParams.get("page");
  const window = publicLogWindow(parsePage(raw));
  if (!isCanonicalPage(raw, window.page)) throw redirect(publicLogHref(window.page));
  return publicLogPage(window);
}

export const links: LinksFunction = () => [{ rel: "alternate", type: "application/atom+xml", title: `${SITE_NAME} – ${PUBLIC_LOG_TITLE.toLowerCase()}`, href: PUBLIC_LOG_FEED_PATH }];

export const meta: MetaFunction = () => [
  { title: pageTitle(PUBLIC_LOG_TITLE) },
  { name: "description", content: "Čo rozhodli moderátori o nahlásených článkoch, kedy a prečo; bez mien a e-mailov." },
];

export default function PublicModerationLog() {
  const { total, page, pages, decisions, months } = useLoaderData<typeof loader>();
  return (
    <main id="obsah" className="page public-log-page">
      <h1>{PUBLIC_LOG_TITLE}</h1>
      {page === 1 && <HowWeModerate />}
      {months && months.length > 0 && <MonthTable months={months} />}
      <section aria-labelledby="rozhodnutia">
        <h2 id="rozhodnutia">Rozhodnutia</h2>
        <p>
          Najnovšie prvé, spolu {decisionCount(total)}. <a href={PUBLIC_LOG_FEED_PATH} type="application/atom+xml">Odoberať v čítačke (Atom)</a>
        </p>
        {decisions.length === 0 ? <p>Zatiaľ žiadne rozhodnutia.</p> : <DecisionTable decisions={decisions} />}
        <Pager page={page} pages={pages} hrefOf={publicLogHref} label="Stránky záznamu" />
      </section>
    </main>
  );
}

function HowWeModerate() {
  return (
    <section aria-labelledby="ako">
      <h2 id="ako">Ako moderujeme</h2>
      <ul className="public-log-rules">
        <li>Prihlásený čitateľ môže článok nahlásiť alebo v ňom označiť odsek, ktorému chýba zdroj. Hlásenia posudzujú moderátori a o každom rozhodnú s odôvodnením.</li>
        <li>Kto článok nahlásil, nájde rozhodnutie aj odôvodnenie vo svojom účte v časti Moje hlásenia a dostane ich e-mailom, ak má potvrdenú e-mailovú adresu. Autor sa nedozvie, kto jeho článok nahlásil.</li>
        <li>Autor skrytého alebo odstráneného článku (či zablokovaného účtu) dostane odôvodnenie: čo sa rozhodlo, prečo a na aký podnet. Do 6 mesiacov môže raz podať námietku; rozhodne o nej iný moderátor.</li>
        <li>Tu je každé rozhodnutie s dátumom a zverejneným odôvodnením, bez mien a e-mailov nahlasovateľov, autorov aj moderátorov. Názov skrytého alebo odstráneného článku neuvádzame.</li>
      </ul>
    </section>
  );
}

function MonthTable({ months }: { months: MonthCount[] }) {
  return (
    <section aria-labelledby="mesiace">
      <h2 id="mesiace">Po mesiacoch</h2>
      <table className="month-table">
        <ColumnHeads names={["Mesiac", "Rozhodnutia", "z toho opodstatnené"]} />
        <tbody>
          {months.map((month) => (
            <tr key={month.month}>
              <th scope="row">{month.month}</th>
              <td>{formatCount(month.total)}</td>
              <td>{formatCount(month.upheld)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function ColumnHeads({ names }: { names: string[] }) {
  return (
    <thead>
      <tr>
        {names.map((name) => (
          <th key={name} scope="col">
            {name}
          </th>
        ))}
      </tr>
    </thead>
  );
}

function ArticleCell({ article }: { article: PublicDecision["article"] }) {
  if (typeof article === "string") return <span className="unnamed-article">{UNNAMED_ARTICLE[article]}</span>;
  return <Link to={`/posts/${article.id}`}>{article.title}</Link>;
}

function DecisionTable({ decisions }: { decisions: PublicDecision[] }) {
  return (
    <table className="log-table public-log-table">
      <ColumnHeads names={["Kedy", "Rozhodnutie", "Článok", "Podnet", "Odôvodnenie", "Námietka"]} />
      <tbody>
        {decisions.map((decision) => (
          <tr key={decision.id} id={`rozhodnutie-${decision.id}`}>
            <td data-label="Kedy">
              <time dateTime={isoTime(decision.createdAt)}>{formatDate(decision.createdAt)}</time>
            </td>
            <th scope="row" data-label="Rozhodnutie">
              {decisionLabel(decision.action, decision.article !== "none")}
            </th>
            <td data-label="Článok" className="public-log-text">
              <ArticleCell article={decision.article} />
            </td>
            <td data-label="Podnet">{decision.ground}</td>
            <td data-label="Odôvodnenie" className="public-log-text">
              {decision.reason}
            </td>
            <td data-label="Námietka" className="public-log-text">{decision.appeal ? appealOutcome(decision.appeal) : "—"}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
