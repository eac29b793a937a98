import { Link } from "@remix-run/react";
import { postHref, type ListState } from "~/lib/links";

type Neighbour = { id: string; title: string; period: string };

/** "Predtým" / "Potom": the dated articles right before and after this one in time (links keep the list's state). */
export function PeriodNeighbours({ before, after, list }: { before: Neighbour | null; after: Neighbour | null; list: ListState }) {
  if (!before && !after) return null;
  return (
    <nav className="period-neighbours" aria-label="Články v čase">
      {before && (
        <p className="period-before">
          Predtým ({before.period}):{" "}
          <Link to={postHref(before.id, list)} rel="prev">
            ← {before.title}
          </Link>
        </p>
      )}
      {after && (
        <p className="period-after">
          Potom ({after.period}):{" "}
          <Link to={postHref(after.id, list)} rel="next">
            {after.title} →
          </Link>
        </p>
      )}
    </nav>
  );
}
