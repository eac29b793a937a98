import { Form, useNavigate } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { listHref } from "~/lib/links";
import { periodFilterParams, type PeriodFilter } from "~/lib/time/periods";
import { PAGE_SIZE } from "~/lib/rules";
import { SEARCH_MAX_LENGTH } from "~/lib/search";

/** How long typing pauses before the results follow it. */
const TYPING_PAUSE_MS = 300;

/**
 * The list's search: a plain GET form (?q=…, with the tag kept), sent with
 * one submit without JavaScript. With JavaScript the results follow the
 * typing: a short pause, then the list is loaded in place and the address
 * replaced, so that Back leaves the search instead of stepping through it.
 */
export function SearchForm({ q, tag, period = null }: { q: string; tag: string | null; period?: PeriodFilter | null }) {
  const navigate = useNavigate();
  const input = useRef<HTMLInputElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>();

  // Back and forward change the search without typing: the box shows it (unless the reader is typing in it).
  useEffect(() => {
    if (input.current && document.activeElement !== input.current) input.current.value = q;
  }, [q]);
  useEffect(() => () => clearTimeout(timer.current), []);

  const follow = () => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      const typed = input.current?.value.trim() ?? "";
      if (typed !== q) navigate(listHref({ tag, limit: PAGE_SIZE, q: typed, period }), { replace: true, preventScrollReset: true });
    }, TYPING_PAUSE_MS);
  };

  return (
    <Form method="get" action="/posts" role="search" className="list-search" onSubmit={() => clearTimeout(timer.current)}>
      <label htmlFor="list-search-q" className="visually-hidden">
        Hľadať v článkoch
      </label>
      <input
        ref={input}
        id="list-search-q"
        type="search"
        name="q"
        defaultValue={q}
        maxLength={SEARCH_MAX_LENGTH}
        placeholder="Hľadať v článkoch…"
        autoComplete="off"
        enterKeyHint="search"
        onChange={follow}
      />
      {tag && <input type="hidden" name="tag" value={tag} />}
      {periodFilterParams(period).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <button type="submit" className="button">
        Hľadať
      </button>
    </Form>
  );
}
