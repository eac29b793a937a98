import { createRequire } from "node:module";
import type { IOptions } from "sanitize-html";
import { withoutBreaksBesideBlocks } from "~/lib/text/article-markup";
import { BR_TAG, CONTENT_MAX_DEPTH, CONTENT_MAX_TAGS, POST_MESSAGES } from "~/lib/rules";
import { LINK_REL } from "~/lib/sources";
import { withoutControlCharacters } from "~/lib/text/text-controls";
import { BusyError } from "~/services/platform/concurrency.server";
import { createWorkerPool } from "~/services/platform/worker-pool.server";

// The spec's allow-list of tags, and the structure of a long article
// (h2, h3, ul, ol, li, blockquote with a cite line; docs/articles.md, "Article text").
// Other tags are dropped but keep their text; script, style and the like
// lose their content too. A link keeps an absolute http(s) href, and gets
// rel="nofollow ugc noopener"; every other attribute, and any other href
// (javascript:, data:, relative, protocol-relative), is dropped.
const SANITIZE_OPTIONS: IOptions = {
  allowedTags: ["b", "i", "em", "strong", "a", "p", "br", "h2", "h3", "ul", "ol", "li", "blockquote", "cite"],
  allowedAttributes: { a: ["href", "rel"] },
  allowedSchemes: ["http", "https"],
  allowProtocolRelative: false,
};

// The text is written in Markdown (CommonMark, by markdown-it: docs/decisions/markdown.md)
// and stored as sanitised HTML, made once, when it is written. Parsing and
// sanitising hostile input is CPU work, so both run in a worker thread with a
// hard time limit and a small heap: they cannot block the server, and the
// worst allowed body holds another author's publish up for well under
// 100 ms. One worker, not two: each costs 20–25 MB of the container's
// 256 MB, whatever it works on. A server that only serves readers
// starts no worker. (The rules that need code are written in the worker's
// source: functions do not cross to a worker.)
//
// Markdown: a new line is a line break and a blank line a paragraph's end,
// both stored as <br/> (a paragraph is not wrapped in <p>: text typed
// before Markdown is stored as it was); HTML typed inline still works, but
// no HTML block, code, rule or image: they have no tag here, and an HTML
// block would swallow the lines after it. In a quotation, a last line that
// starts with "— " (or "-- ") is its cite line. Lists and quotations nest at
// most CONTENT_MAX_DEPTH deep: deeper is refused, never cut (markdown-it
// drops what lies past its own nesting limit, which is set beyond ours).
//
// Then the sanitiser: the title is the page's h1, so an article's headings
// start at h2: an h1 becomes an h2, an h4–h6 an h3. A cite is kept only
// inside a blockquote (its source's line); elsewhere its text stays and the
// tag goes.
/** The worker's answer: the sanitised HTML, or which bound the text's Markdown is beyond. */
type Sanitised = string | { beyond: "depth" | "marks" };

const sanitizer = createWorkerPool<string, Sanitised>({
  source: `
    const sanitizeHtml = require(workerData.sanitizeHtml);
    const MarkdownIt = require(workerData.markdownIt);
    const markdown = MarkdownIt("commonmark", { html: true, breaks: true, maxNesting: 3 * workerData.maxDepth });
    markdown.disable(["code", "fence", "hr", "html_block", "image"]);
    const rules = markdown.renderer.rules;
    rules.paragraph_open = () => "";
    rules.paragraph_close = (tokens, i) => (tokens[i].hidden ? "" : "<br><br>");
    rules.softbreak = rules.hardbreak = () => "<br>";
    const CITE_LINE = /^(?:—|--)[ \\t]+(?=\\S)/;
    markdown.core.ruler.push("quote_cite", (state) => {
      const tokens = state.tokens;
      for (let i = 2; i < tokens.length; i++) {
        // A quotation's last paragraph: its last line (after the last break) may be the cite line.
        if (tokens[i].type !== "blockquote_close" || tokens[i - 1].type !== "paragraph_close" || tokens[i - 2].type !== "inline") continue;
        const children = tokens[i - 2].children;
        let line = children.length;
        while (line > 0 && children[line - 1].type !== "softbreak" && children[line - 1].type !== "hardbreak") line--;
        const first = children[line];
        if (!first || first.type !== "text" || !CITE_LINE.test(first.content)) continue;
        first.content = first.content.replace(CITE_LINE, "");
        const tag = (content) => Object.assign(new state.Token("html_inline", "", 0), { content });
        children.splice(line, 0, tag("<cite>"));
        children.push(tag("</cite>"));
      }
    });
    const safeLink = (href) => {
      if (typeof href !== "string" || !/^https?:[/][/]/i.test(href)) return {};
      try {
        const url = new URL(href);
        return url.protocol === "http:" || url.protocol === "https:" ? { href: url.href, rel: workerData.rel } : {};
      } catch {
        return {};
      }
    };
    const to = (tagName) => () => ({ tagName, attribs: {} });
    let quotes = 0; // blockquotes open around the current tag
    const options = {
      ...workerData.options,
      onOpenTag: (name) => { if (name === "blockquote") quotes++; },
      onCloseTag: (name) => { if (name === "blockquote") quotes = Math.max(0, quotes - 1); },
      transformTags: {
        a: (tagName, attribs) => ({ tagName, attribs: safeLink(attribs.href) }),
        h1: to("h2"), h4: to("h3"), h5: to("h3"), h6: to("h3"),
        // Marked when it opens outside a blockquote: the filter then drops the tag and keeps its text.
        // (Renaming it to a tag that is not allowed would not do: sanitize-html 2.17 then closes the next element under that name.)
        cite: (tagName) => ({ tagName, attribs: quotes > 0 ? {} : { outside: "" } }),
      },
      exclusiveFilter: (frame) => (frame.tag === "cite" && "outside" in frame.attribs ? "excludeTag" : false),
    };
    // How deep lists and quotations nest (a list and its item are one level), and how many elements the Markdown makes
    // (its HTML's start tags: paragraphs are not wrapped, and the typed HTML is bounded before it gets here).
    const measure = (tokens) => {
      let depth = 0, deepest = 0, elements = 0;
      for (const token of tokens) {
        if (token.type === "blockquote_open" || token.type === "list_item_open") deepest = Math.max(deepest, ++depth);
        else if (token.type === "blockquote_close" || token.type === "list_item_close") depth--;
        if (token.nesting === 1 && token.type !== "paragraph_open") elements++;
        for (const child of token.children ?? []) if (child.nesting === 1) elements++;
      }
      return { deepest, elements };
    };
    // Counted before parsing, as parsing a text of marks holds more tokens than the worker's heap (30,000
    // characters of "***a*** " take 13 MB): quotation and list marks that open a line ("> > - a"), each one
    // level deeper, headings, and the characters that open or close emphasis, links and code. Too deep on one line, or
    // more marks than twice the elements allowed (a quotation's every line repeats its ">", "**" is one).
    const OPENING_MARKS = /^(?:[ \\t]*(?:>|[-+*](?=[ \\t])|[0-9]{1,9}[.)](?=[ \\t])))+/gm;
    const MARK = /[>+*-]|[0-9]+[.)]/g;
    const HEADING = /^[ \t]{0,3}#{1,6}(?=[ \t]|$)/gm;
    // "*", "_", "\u0060", "[" as character codes: counted without making a string of each character.
    const INLINE_MARK = new Set([42, 95, 96, 91]);
    const marksBeyond = (text) => {
      let total = 0;
      for (const [marks] of text.matchAll(OPENING_MARKS)) {
        const count = marks.match(MARK).length;
        if (count > workerData.maxDepth) return "depth";
        total += count;
      }
      for (const _ of text.matchAll(HEADING)) total++;
      for (let i = 0; i < text.length; i++) if (INLINE_MARK.has(text.charCodeAt(i))) total++;
      return total > 2 * workerData.maxElements ? "marks" : null;
    };
    return (text) => {
      quotes = 0;
      const beyond = marksBeyond(text);
      if (beyond) return { beyond };
      const tokens = markdown.parse(text, {});
      const { deepest, elements } = measure(tokens);
      if (deepest > workerData.maxDepth) return { beyond: "depth" };
      // Counted before the HTML is made: rendering and sanitising tens of thousands of elements would cost more than the worker may take.
      if (elements > workerData.maxElements) return { beyond: "marks" };
      // markdown-it ends each block's tag with a new line; text has none (its "<" and ">" are escaped), so every ">" + new line is one.
      return sanitizeHtml(markdown.renderer.render(tokens, markdown.options, {}).replace(/>\\n/g, ">"), options);
    };`,
  workerData: {
    sanitizeHtml: createRequire(import.meta.url).resolve("sanitize-html"),
    markdownIt: createRequire(import.meta.url).resolve("markdown-it"),
    options: SANITIZE_OPTIONS,
    rel: LINK_REL,
    maxDepth: CONTENT_MAX_DEPTH,
    maxElements: CONTENT_MAX_TAGS,
  },
  size: 1,
  // The largest body the rules allow takes well under 100 ms and a few MB:
  // these bound what anything else, however hostile, may take. The worst
  // shapes allowed (15,000 one-character lines) need 12 MB: twice that.
  timeoutMs: 2_000,
  idleMs: 60_000,
  resourceLimits: { maxOldGenerationSizeMb: 24, maxYoungGenerationSizeMb: 4 },
});

/** A burst of saves waits its turn up to here (each job is at most 30 KB of text); beyond, "busy". */
const MAX_WAITING = 32;

/** Content could not be sanitised: it took too long or its worker failed (`cause` says which). */
export class ContentProcessingError extends Error {
  override name = "ContentProcessingError";
}

/** Content beyond the bounds of what its Markdown may make (`message`: the author's message). */
export class ContentBoundsError extends Error {
  override name = "ContentBoundsError";
}

/**
 * What the author typed (Markdown, with a little HTML) as stored content:
 * the allowed tags, no attributes but a link's safe href, line breaks as
 * `<br/>` (none beside a block tag, nor at the end: article-markup), no
 * control characters (a NUL typed or written as `&#1;` alike) but tab and
 * new line. Rejects with BusyError when too many wait,
 * ContentProcessingError when it fails.
 */
export async function toStoredContent(text: string): Promise<string> {
  if (sanitizer.load.waiting >= MAX_WAITING) throw new BusyError("sanitiser");
  // Markdown would make a NUL a U+FFFD: control characters go first.
  const clean = await sanitizer.run(withoutControlCharacters(text)).catch((error: unknown) => {
    throw new ContentProcessingError("could not sanitise content", { cause: error });
  });
  if (typeof clean !== "string") throw new ContentBoundsError(clean.beyond === "depth" ? POST_MESSAGES.contentMarksTooDeep : POST_MESSAGES.contentTooManyMarks);
  return withoutBreaksBesideBlocks(withoutControlCharacters(clean).replace(BR_TAG, "<br/>")).replace(TRAILING_BREAKS, "");
}

const TRAILING_BREAKS = /(?:<br\/>\s*)+$/;
