import { Link } from "@remix-run/react";

/** Links to the previous and next page of a long list: plain links, so paging needs no JavaScript. */
export function Pager({ page, pages, hrefOf, label }: { page: number; pages: number; hrefOf: (page: number) => string; label: string }) {
  if (pages <= 1) return null;
  return (
    <nav className="pager" aria-label={label}>
      {page > 1 ? (
        <Link to={hrefOf(page - 1)} rel="prev">
          ← Predchádzajúca
        </Link>
      ) : (
        <span />
      )}
      <span>
        Strana {page} z {pages}
      </span>
      {page < pages ? (
        <Link to={hrefOf(page + 1)} rel="next">
          Ďalšia →
        </Link>
      ) : (
        <span />
      )}
    </nav>
  );
}
