/**
 * The structure a long article may have (docs/articles.md, "Article text"): sections
 * (h2, h3), lists (ul, ol, li) and a quoted source (blockquote, with a cite
 * line). These tags lay out blocks of their own, so a new line the author
 * types beside one only lays out the markup: it is not a line break. One
 * module for how stored content and what the author edits map onto each
 * other, on the server and in the browser.
 */

/** Tags that make a block of their own; `<cite>` is one inside its blockquote (the only place it is kept). */
export const BLOCK_TAGS = ["h2", "h3", "ul", "ol", "li", "blockquote", "cite"] as const;

const BLOCK_TAG = new RegExp(`^</?(?:${BLOCK_TAGS.join("|")})>$`);
/** After these, what follows starts a line of its own in the editable text. */
const ENDS_LINE = /^(?:<\/(?:h2|h3|ul|ol|li|blockquote|cite)>|<(?:ul|ol|blockquote)>)$/;
const BR = /^<br\s*\/?>$/i;
/**
 * Stored (sanitised) HTML as tags and the text between them. Linear:
 * sanitised text has every "<" escaped, so each "<" starts a tag that ends
 * at the next ">".
 */
const TAG_PIECE = /(<[^>]*>)/;

function isBlockTag(piece: string): boolean {
  return BLOCK_TAG.test(piece);
}

/**
 * Sanitised HTML without the line breaks (`<br/>`) beside a block tag: a
 * typed new line between two list items or after a heading would otherwise
 * be a stray break inside a list, or a blank line under the heading.
 * Whitespace between them stays; every other line break stays.
 */
export function withoutBreaksBesideBlocks(html: string): string {
  let out = "";
  let pending = ""; // line breaks and whitespace since the last tag or text that is neither
  let afterBlock = false;
  const dropBreaks = (text: string) => text.replace(/<br\/>/g, "");
  for (const piece of html.split(TAG_PIECE)) {
    if (piece === "<br/>" || piece.trim() === "") pending += piece;
    else {
      const block = isBlockTag(piece);
      out += afterBlock || block ? dropBreaks(pending) : pending;
      out += piece;
      pending = "";
      afterBlock = block;
    }
  }
  return out + (afterBlock ? dropBreaks(pending) : pending);
}

/** What the edit form shows: the text as its author wrote it, or, for one saved before Markdown, its stored content made editable. */
export function editableText(content: string, source: string | null): string {
  return source ?? storedToEditable(content);
}

/**
 * Stored content back into what the author edits: line breaks as new lines,
 * and each heading, list, list item, quotation and its cite line on lines of
 * its own (saving it again gives the same stored content).
 */
export function storedToEditable(stored: string): string {
  let out = "";
  let lineEnded = false;
  for (const piece of stored.split(TAG_PIECE)) {
    if (piece === "") continue;
    const startsLine = lineEnded || (isBlockTag(piece) && !piece.startsWith("</"));
    if (startsLine && out !== "" && !out.endsWith("\n")) out += "\n";
    out += BR.test(piece) ? "\n" : piece;
    lineEnded = ENDS_LINE.test(piece);
  }
  return out;
}
