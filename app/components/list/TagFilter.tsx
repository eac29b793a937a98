import { Link } from "@remix-run/react";
import { listHref } from "~/lib/links";
import type { PeriodFilter } from "~/lib/time/periods";
import { PAGE_SIZE } from "~/lib/rules";
import { TAGS } from "~/lib/tags";
import { CloseIcon, FilterIcon } from "~/components/layout/Icons";
import { useDismissable } from "~/components/layout/useDismissable";
import { useFollowLink } from "./useFollowLink";

/** `q`, `period`: a search and a period in progress, which picking a tag narrows (and removing the filter keeps). */
type Props = { tag: string | null; limit: number; q: string; period: PeriodFilter | null };

/** The tags as links to their lists (plain links with one click handler: useFollowLink). */
function TagLinks({ tag, q, period }: { tag: string | null; q: string; period: PeriodFilter | null }) {
  const follow = useFollowLink();
  return (
    <ul className="tag-options">
      {tag && (
        <li>
          <a className="remove-filter" data-discover="true" href={listHref({ tag: null, limit: PAGE_SIZE, q, period })} onClick={follow}>
            Odstrániť filter
          </a>
        </li>
      )}
      {TAGS.map((t) => (
        <li key={t}>
          <a aria-current={t === tag ? "true" : undefined} data-discover="true" href={listHref({ tag: t, limit: PAGE_SIZE, q, period })} onClick={follow}>
            {t}
          </a>
        </li>
      ))}
    </ul>
  );
}

/**
 * The round filter button and its panel, built from native <details> so that it
 * opens without JavaScript. Below 896 px the panel is a full-screen modal with
 * one button per tag; wider, a dropdown labelled with the chosen tag. Picking a
 * tag is a link; the component is keyed by tag where it is used, so it closes.
 * It stands in the list's filter beside the period's fields, captioned as they are.
 */
export function TagFilter({ tag, limit, q, period }: Props) {
  const filter = useDismissable();
  return (
    <div className="field filter-field">
      {/* The button's own name says it: the caption is for the eye. */}
      <span className="field-label" aria-hidden="true">
        Tag
      </span>
      <details className="filter" ref={filter}>
        <summary className="filter-button">
          <FilterIcon label={tag ? `Filter: ${tag}` : "Filtrovať podľa tagu"} />
        </summary>
        <div className="filter-modal" role="dialog" aria-modal="true" aria-labelledby="filter-modal-title">
          <div className="filter-modal-head">
            <h2 id="filter-modal-title">Vyber tag</h2>
            {/* Without JavaScript the link reloads the list with the panel closed. */}
            <Link
              to={listHref({ tag, limit, q, period })}
              preventScrollReset
              className="filter-close"
              onClick={(event) => {
                event.preventDefault();
                filter.current?.removeAttribute("open");
              }}
            >
              <CloseIcon label="Zavrieť" />
            </Link>
          </div>
          <TagLinks tag={tag} q={q} period={period} />
        </div>
        <details className="tag-dropdown">
          <summary>{tag ?? "Vyber tag"}</summary>
          <TagLinks tag={tag} q={q} period={period} />
        </details>
      </details>
    </div>
  );
}
