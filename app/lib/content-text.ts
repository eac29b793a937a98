/** Plain text of stored article content: for the cards' excerpts and for search. */
import { CITATION_MARKER } from "./sources";

const TAG = /<[^>]*>/g;
/** A marker citing a source ([1]) with the space before it: "Prahe [2]." reads "Prahe.". */
const MARKER = new RegExp(String.raw`\s*${CITATION_MARKER.source}`, "g");
const BLOCK_BREAK = /<br\s*\/?>|<\/p>/gi;
const ENTITY = /&(amp|lt|gt|quot|#39|nbsp);/g;
const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'", nbsp: " " };

/** Plain text of stored (sanitised) content, without the markers that cite sources ([1]). */
export function contentToText(storedHtml: string): string {
  return storedHtml
    .replace(BLOCK_BREAK, " ")
    .replace(TAG, "")
    .replace(MARKER, "")
    .replace(ENTITY, (_, name: string) => ENTITIES[name])
    .replace(/\s+/g, " ")
    .trim();
}

/**
 * Text of stored content as a reader reads it, for comparing two versions:
 * its line and paragraph breaks kept as new lines, and the markers [1] kept
 * (a changed citation is a change).
 */
export function contentToLines(storedHtml: string): string {
  return storedHtml
    .replace(BLOCK_BREAK, "\n")
    .replace(TAG, "")
    .replace(ENTITY, (_, name: string) => ENTITIES[name])
    .replace(/[^\S\n]+/g, " ")
    .replace(/ ?\n ?/g, "\n")
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
