import { Form, Link } from "@remix-run/react";
import { listHref } from "~/lib/links";
import { centuryLabel, PERIOD_YEAR_LIMIT, type PeriodFilter as Filter } from "~/lib/time/periods";
import { PAGE_SIZE } from "~/lib/rules";

type Props = {
  period: Filter | null;
  centuries: number[];
  tag: string | null;
  q: string;
  /** The tag filter, first in the same group: the reader sees one filter, by tag and by time. */
  children?: React.ReactNode;
};

/**
 * The list's filter by time: a century of those that have articles, or a
 * range of years (negative before Christ). A plain GET form, keeping the
 * tag and the search; the server reads and checks it (~/lib/time/periods readPeriodFilter).
 */
export function PeriodFilter({ period, centuries, tag, q, children }: Props) {
  const century = period && "century" in period ? period.century : null;
  const range = period && !("century" in period) ? period : null;
  return (
    <Form method="get" action="/posts" className="period-filter">
      {q && <input type="hidden" name="q" value={q} />}
      {tag && <input type="hidden" name="tag" value={tag} />}
      <fieldset>
        <legend>Filtrovať</legend>
        {children}
        <div className="field">
          <label htmlFor="period-century">Storočie</label>
          <select id="period-century" name="century" defaultValue={century ?? ""}>
            <option value="">Všetky</option>
            {centuries.map((c) => (
              <option key={c} value={c}>
                {centuryLabel(c)}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="period-from">Od roku</label>
          <input id="period-from" name="from" type="number" min={-PERIOD_YEAR_LIMIT} max={PERIOD_YEAR_LIMIT} defaultValue={range?.from ?? ""} aria-describedby="period-years-hint" />
        </div>
        <div className="field">
          <label htmlFor="period-to">Do roku</label>
          <input id="period-to" name="to" type="number" min={-PERIOD_YEAR_LIMIT} max={PERIOD_YEAR_LIMIT} defaultValue={range?.to ?? ""} aria-describedby="period-years-hint" />
        </div>
        <button type="submit" className="button button-secondary">
          Zobraziť
        </button>
        {period && (
          <Link to={listHref({ tag, limit: PAGE_SIZE, q })} className="remove-period">
            Všetky obdobia
          </Link>
        )}
        <p className="field-hint" id="period-years-hint">
          Roky pred Kr. so znamienkom mínus (−500). Storočie má prednosť pred rokmi.
        </p>
      </fieldset>
    </Form>
  );
}
