import { createRequire } from "node:module";
import type { IOptions } from "sanitize-html";
import { withoutBreaksBesideBlocks } from "~/lib/text/article-markup";
import { BR_TAG } from "~/lib/rules";
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

// Content is sanitised once, when it is written, and stored already safe.
// Sanitising hostile input is CPU work, so it runs in a worker thread with a
// hard time limit and a small heap: it cannot block the server, and the
// worst allowed body holds another author's publish up for well under
// 100 ms. One worker, not two: each costs 20–25 MB of the container's
// 256 MB, whatever it sanitises. A server that only serves readers
// starts no worker. (The rules that need code are written in the worker's
// source: functions do not cross to a worker.) The title is the page's h1,
// so an article's headings start at h2: an h1 becomes an h2, an h4–h6 an h3.
// A cite is kept only inside a blockquote (its source's line); elsewhere
// its text stays and the tag goes.
const sanitizer = createWorkerPool<string, string>({
  source: `
    const sanitizeHtml = require(workerData.sanitizeHtml);
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
    return (html) => {
      quotes = 0;
      return sanitizeHtml(html, options);
    };`,
  workerData: { sanitizeHtml: createRequire(import.meta.url).resolve("sanitize-html"), options: SANITIZE_OPTIONS, rel: LINK_REL },
  size: 1,
  // The largest body the rules allow takes well under 100 ms and a few MB:
  // these bound what anything else, however hostile, may take.
  timeoutMs: 2_000,
  idleMs: 60_000,
  resourceLimits: { maxOldGenerationSizeMb: 16, maxYoungGenerationSizeMb: 4 },
});

/** A burst of saves waits its turn up to here (each job is at most 30 KB of text); beyond, "busy". */
const MAX_WAITING = 32;

/** Content could not be sanitised: it took too long or its worker failed (`cause` says which). */
export class ContentProcessingError extends Error {
  override name = "ContentProcessingError";
}

/**
 * Sanitise HTML to the allowed tags, no attributes but a link's safe href, line breaks as `<br/>`
 * (none beside a block tag: article-markup),
 * no control characters (a NUL typed or written as `&#1;` alike) but tab and new line.
 * Rejects with BusyError when too many wait, ContentProcessingError when it fails.
 */
export async function sanitizeContent(html: string): Promise<string> {
  if (sanitizer.load.waiting >= MAX_WAITING) throw new BusyError("sanitiser");
  const clean = await sanitizer.run(html).catch((error: unknown) => {
    throw new ContentProcessingError("could not sanitise content", { cause: error });
  });
  return withoutBreaksBesideBlocks(withoutControlCharacters(clean).replace(BR_TAG, "<br/>"));
}

const NEWLINE = /\r\n|\r|\n/g;

/** What the author typed (newlines and a little markup) as stored content. */
export function toStoredContent(text: string): Promise<string> {
  return sanitizeContent(text.trim().replace(NEWLINE, "<br/>"));
}
