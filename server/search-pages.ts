import type { AppLoadContext } from "@remix-run/node";
import { listSearch, readListState, type ListState } from "~/lib/links";
import type { AppForServer } from "~/server-interface.server";

/**
 * A visitor's new search (`GET /posts?q=…`, sent without JavaScript) made
 * from a kept page of the same list instead of rendered whole: the page
 * cache asks here before it renders a search's page (createPageCache's
 * `searchPage`), and keeps what it gets as it keeps any page (its script
 * hashed for the CSP, compressed, with an ETag).
 *
 * A template is the page React and Remix render for the list (tag, limit,
 * period) searched for MARK, a query no article can match; in it the
 * places a search changes are found by what MARK makes of them, and
 * nothing else is assumed of the markup:
 * - MARK escaped as React escapes text and attributes (the title, the
 *   search box, the period form's hidden field) and as the list's addresses
 *   encode it (the tag filter's links);
 * - the results (ListResults: the summary, the cards, "Načítaj viac"), as
 *   the app renders them alone for MARK;
 * - the loaders' data, encoded as Remix encodes it into its inline script
 *   (turbo-stream, then JSON and Remix's escaping).
 * Each must be found where the template has it, the results and the data
 * exactly once, and MARK nowhere else in any spelling; a template that
 * does not pass is not used, and its searches are rendered whole. A new
 * search then costs its loaders, React rendering its cards, and the
 * encoding: about a third of rendering the whole page.
 *
 * Templates are kept per list (the page's shape besides the query) until
 * the data stamp changes (the period form lists the centuries that have
 * articles), the most recently used TEMPLATE_LIMIT of them.
 * tests/integration/articles/search-pages.test.ts compares the pages byte for byte.
 */

/** Letters and digits none: no search words (the loader asks the index nothing), and every escaping shows in it. */
export const MARK = "\u2042&<\u2042";
const TEMPLATE_LIMIT = 100;

type Slot = { slot: "qText" | "qAddress" | "results" | "data" };
type Template = (string | Slot)[];
const Q_TEXT: Slot = { slot: "qText" };
const Q_ADDRESS: Slot = { slot: "qAddress" };
const RESULTS: Slot = { slot: "results" };
const DATA: Slot = { slot: "data" };

type Options = {
  pages: Pick<AppForServer["pages"], "dataStamp" | "searchResults">;
  /** Renders a page of the app, as the Remix handler does (the page cache's `render`). */
  render: (request: Request, context: AppLoadContext) => Promise<Response>;
  publicUrl: string;
};

export function createSearchPages({ pages, render, publicUrl }: Options) {
  const templates = new Map<string, Promise<Template | null>>();
  let stamp = pages.dataStamp();

  async function makeTemplate(list: ListState, context: AppLoadContext): Promise<Template | null> {
    const url = new URL(`/posts${listSearch({ ...list, q: MARK })}`, publicUrl);
    const response = await render(new Request(url, { headers: { cookie: "", "user-agent": "dejiny-page-cache" } }), context);
    const html = await response.text();
    const marked = await pages.searchResults(url, context);
    if (response.status !== 200 || response.headers.has("set-cookie") || !marked) return null;
    return cutTemplate(html, marked.html, inScript(marked.data));
  }

  function templateFor(list: ListState, context: AppLoadContext): Promise<Template | null> {
    const current = pages.dataStamp();
    if (current !== stamp) {
      stamp = current;
      templates.clear();
    }
    const key = listSearch({ ...list, q: "" });
    let template = templates.get(key);
    if (template) {
      // Most recently used last.
      templates.delete(key);
    } else {
      template = makeTemplate(list, context).catch((error) => {
        console.error("Could not make a search page's template; rendering searches whole", error);
        return null;
      });
    }
    templates.set(key, template);
    for (const oldest of templates.keys()) {
      if (templates.size <= TEMPLATE_LIMIT) break;
      templates.delete(oldest);
    }
    return template;
  }

  /** A visitor's page of a search (`url` as the page cache renders it: a canonical address of the list with `q`), or null when it must be rendered whole. */
  return async function searchPage(url: URL, context: AppLoadContext): Promise<string | null> {
    if (url.pathname !== "/posts") return null;
    const { tag, limit, q, period } = readListState(url.searchParams);
    // Within a year range of the reader's choosing, rendered whole: each range would be a template
    // of its own, two renders for one search and up to 100 pages kept (centuries are a few dozen).
    if (!q || (period && !("century" in period))) return null;
    const template = await templateFor({ tag, limit, period }, context);
    if (!template) return null;
    const found = await pages.searchResults(url, context);
    if (!found) return null;
    const data = inScript(found.data);
    const qText = escapeText(q);
    const qAddress = new URLSearchParams({ q }).toString().slice("q=".length);
    let html = "";
    for (const piece of template) {
      if (typeof piece === "string") html += piece;
      else if (piece === Q_TEXT) html += qText;
      else if (piece === Q_ADDRESS) html += qAddress;
      else if (piece === RESULTS) html += found.html;
      else html += data;
    }
    return html;
  };
}

/** The template of a page rendered for MARK, or null if its places cannot all be found (see above). */
export function cutTemplate(html: string, results: string, data: string): Template | null {
  const once = (part: string, from: number) => {
    const at = html.indexOf(part, from);
    return at !== -1 && html.indexOf(part, at + 1) === -1 ? at : -1;
  };
  const resultsAt = once(results, 0);
  const dataAt = resultsAt === -1 ? -1 : once(data, resultsAt + results.length);
  if (dataAt === -1) return null;
  const template = [
    ...splitMark(html.slice(0, resultsAt)),
    RESULTS,
    ...splitMark(html.slice(resultsAt + results.length, dataAt)),
    DATA,
    ...splitMark(html.slice(dataAt + data.length)),
  ];
  const markAddress = new URLSearchParams({ q: MARK }).toString().slice("q=".length);
  // MARK in any other spelling is a place this template would leave as it is.
  const stray = (piece: string) => piece.includes("\u2042") || /%E2%81%82|\\u2042|&#x2042;|&#8258;/i.test(piece) || piece.includes(markAddress);
  return template.some((piece) => typeof piece === "string" && stray(piece)) ? null : template;
}

/** A stretch of the template with MARK's spellings made slots. */
function splitMark(part: string): Template {
  const spellings: [string, Slot][] = [
    [escapeText(MARK), Q_TEXT],
    [new URLSearchParams({ q: MARK }).toString().slice("q=".length), Q_ADDRESS],
  ];
  let pieces: Template = [part];
  for (const [spelling, slot] of spellings) {
    pieces = pieces.flatMap((piece) => (typeof piece === "string" ? piece.split(spelling).flatMap((text, i) => (i === 0 ? [text] : [slot, text])) : [piece]));
  }
  return pieces.filter((piece) => piece !== "");
}

const TEXT_ESCAPES: Record<string, string> = { '"': "&quot;", "&": "&amp;", "'": "&#x27;", "<": "&lt;", ">": "&gt;" };
/** Text as React writes it into text and attribute values. */
function escapeText(text: string): string {
  return text.replace(/["&'<>]/g, (c) => TEXT_ESCAPES[c]);
}

const SCRIPT_ESCAPES: Record<string, string> = { "&": "\\u0026", ">": "\\u003e", "<": "\\u003c", "\u2028": "\\u2028", "\u2029": "\\u2029" };

/** The loaders' data (encoded as Remix encodes it) as Remix writes it into its inline script: a JSON string, escaped for a script element. */
function inScript(data: string): string {
  return JSON.stringify(data).replace(/[&><\u2028\u2029]/g, (c) => SCRIPT_ESCAPES[c]);
}
