import { createRequire } from "node:module";
import type { IOptions } from "sanitize-html";
import { BR_TAG } from "~/lib/rules";
import { LINK_REL } from "~/lib/sources";
import { withoutControlCharacters } from "~/lib/text-controls";
import { BusyError } from "./concurrency.server";
import { createWorkerPool } from "./worker-pool.server";

// The spec's allow-list of tags. Other tags are dropped but keep their text;
// script, style and the like lose their content too. One deliberate departure
// (README, "Article text"): a link keeps an absolute http(s) href, and gets
// rel="nofollow ugc noopener"; every other attribute, and any other href
// (javascript:, data:, relative, protocol-relative), is dropped.
const SANITIZE_OPTIONS: IOptions = {
  allowedTags: ["b", "i", "em", "strong", "a", "p", "br"],
  allowedAttributes: { a: ["href", "rel"] },
  allowedSchemes: ["http", "https"],
  allowProtocolRelative: false,
};

// Content is sanitised once, when it is written, and stored already safe.
// Sanitising hostile input is CPU work, so it runs in worker threads with a
// hard time limit and a small heap: it can neither block the server nor one
// author's publish hold up another's. A server that only serves readers
// starts no worker. (The link rule is written in the worker's source:
// functions do not cross to a worker.)
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
    const options = { ...workerData.options, transformTags: { a: (tagName, attribs) => ({ tagName, attribs: safeLink(attribs.href) }) } };
    return (html) => sanitizeHtml(html, options);`,
  workerData: { sanitizeHtml: createRequire(import.meta.url).resolve("sanitize-html"), options: SANITIZE_OPTIONS, rel: LINK_REL },
  size: 2,
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
 * Sanitise HTML to the allowed tags, no attributes but a link's safe href, line breaks as `<br/>`,
 * no control characters (a NUL typed or written as `&#1;` alike) but tab and new line.
 * Rejects with BusyError when too many wait, ContentProcessingError when it fails.
 */
export async function sanitizeContent(html: string): Promise<string> {
  if (sanitizer.load.waiting >= MAX_WAITING) throw new BusyError("sanitiser");
  const clean = await sanitizer.run(html).catch((error: unknown) => {
    throw new ContentProcessingError("could not sanitise content", { cause: error });
  });
  return withoutControlCharacters(clean).replace(BR_TAG, "<br/>");
}

const NEWLINE = /\r\n|\r|\n/g;

/** What the author typed (newlines and a little markup) as stored content. */
export function toStoredContent(text: string): Promise<string> {
  return sanitizeContent(text.trim().replace(NEWLINE, "<br/>"));
}
