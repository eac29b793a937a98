/** Plain text of stored article content: for the cards' excerpts and for search. */
import { BLOCK_TAGS } from "./article-markup";
import { CITATION_MARKER } from "~/lib/sources";

const TAG = /<[^>]*>/g;
/** A marker citing a source ([1]) with the space before it: "Prahe [2]." reads "Prahe.". */
const MARKER = new RegExp(String.raw`\s*${CITATION_MARKER.source}`, "g");
/** What ends a line or a block: words on either side are never run together. */
const BLOCK_BREAK = new RegExp(String.raw`<br\s*\/?>|<\/p>|<\/?(?:${BLOCK_TAGS.join("|")})>`, "gi");
/** A section heading: not part of a card's excerpt, which is the article's prose. */
const HEADING = /<(h[23])>[\s\S]*?<\/\1>/g;
const ENTITY = /&(amp|lt|gt|quot|#39|nbsp);/g;
const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'", nbsp: " " };

/** Plain text of stored (sanitised) content, without the markers that cite sources ([1]). */
export function contentToText(storedHtml: string): string {
  return storedHtml
    .replace(BLOCK_BREAK, " ")
    .replace(TAG, "")
    // Whitespace first made single: MARKER's leading \s* tried at each of n spaces was quadratic (60,000 spaces took 4 s).
    .replace(/\s+/g, " ")
    .replace(MARKER, "")
    .replace(ENTITY, (_, name: string) => ENTITIES[name])
    .replace(/\s+/g, " ")
    .trim();
}


export const EXCERPT_LENGTH = 160;

/** A plain-text excerpt of the article's prose (its headings left out), cut on a word boundary, with an ellipsis when cut (clipText). */
export function excerptOf(storedHtml: string, maxLength = EXCERPT_LENGTH): string {
  return clipText(contentToText(storedHtml.replace(HEADING, " ")), maxLength);
}

/** Plain text cut on a word boundary, with an ellipsis when cut. */
export function clipText(text: string, maxLength: number): string {
  if (text.length <= maxLength) return text;
  const cut = text.slice(0, maxLength);
  const lastSpace = cut.lastIndexOf(" ");
  const words = lastSpace > maxLength / 2 ? cut.slice(0, lastSpace) : cut;
  return `${words.replace(/[\s,.;:–-]+$/, "")}…`;
}
