import DOMPurify from "isomorphic-dompurify";
import { BR_TAG } from "~/lib/rules";

// The spec's allow-list. DOMPurify runs through jsdom and is slow, so content
// is sanitised once, when it is written, and stored already safe.
const PURIFY_CONFIG = {
  ALLOWED_TAGS: ["b", "i", "em", "strong", "a", "p", "br"],
  ALLOWED_ATTR: [],
  ALLOW_DATA_ATTR: false,
  KEEP_CONTENT: true,
};

const NEWLINE = /\r\n|\r|\n/g;

/** Sanitise HTML to the allowed tags, no attributes, line breaks as `<br/>`. */
export function sanitizeContent(html: string): string {
  return DOMPurify.sanitize(html, PURIFY_CONFIG).replace(BR_TAG, "<br/>");
}

/** What the author typed (newlines and a little markup) as stored content. */
export function toStoredContent(text: string): string {
  return sanitizeContent(text.trim().replace(NEWLINE, "<br/>"));
}

const TAG = /<[^>]*>/g;
const BLOCK_BREAK = /<br\s*\/?>|<\/p>/gi;
const ENTITY = /&(amp|lt|gt|quot|#39|nbsp);/g;
const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'", nbsp: " " };

/** Plain text of stored (sanitised) content. */
export function contentToText(storedHtml: string): string {
  return storedHtml
    .replace(BLOCK_BREAK, " ")
    .replace(TAG, "")
    .replace(ENTITY, (_, name: string) => ENTITIES[name])
    .replace(/\s+/g, " ")
    .trim();
}

export const EXCERPT_LENGTH = 160;

/** A plain-text excerpt cut on a word boundary, with an ellipsis when cut. */
export function excerptOf(storedHtml: string, maxLength = EXCERPT_LENGTH): string {
  const text = contentToText(storedHtml);
  if (text.length <= maxLength) return text;
  const cut = text.slice(0, maxLength);
  const lastSpace = cut.lastIndexOf(" ");
  const words = lastSpace > maxLength / 2 ? cut.slice(0, lastSpace) : cut;
  return `${words.replace(/[\s,.;:–-]+$/, "")}…`;
}
