/**
 * An article's passages (its paragraphs), numbered for the reader's
 * "Zdroj?" flag and for links to them (#odsek-N). A passage is the text
 * between blank lines (two or more `<br/>` with only whitespace between),
 * or one list, quotation or legacy `<p>` at the top level; headings are
 * not passages (they get no number and no flag) but keep their place.
 * Lines broken once stay in their passage, and so does a blank line inside
 * an open inline tag (`<b>…<br/><br/>…</b>`): the tag is never cut in two.
 *
 * Linear in the length of the content: one pass over its pieces (sanitised
 * text has every "<" escaped, so each "<" starts a tag that ends at the
 * next ">").
 */
import { clipText, contentToText } from "./content-text";

export type Passage = {
  /** 1, 2, … in document order; null for a heading. */
  n: number | null;
  kind: "text" | "block" | "heading";
  /** The passage's stored HTML, without the blank lines around it. */
  html: string;
};

/**
 * An open "Zdroj?" flag as the article's edit form lists it: the passage's
 * number and text then, the reason's words. Never its note: that was
 * written for the editors (it may name the reader), who read it in the
 * admins' queue.
 */
export type PassageFlag = { paragraph: number; quote: string; reason: string };

/** A passage's text as a report quotes and stores it (its length at most). */
export const PASSAGE_QUOTE_LENGTH = 300;

export const passageAnchor = (n: number) => `odsek-${n}`;
/** The prefilled form a reader flags passage `n` with. */
export const passageReportHref = (postId: string, n: number) => `/posts/${postId}/report?odsek=${n}`;

const TAG_PIECE = /(<[^>]*>)/;
const TAG_NAME = /^<\/?([a-z][a-z0-9]*)/i;
const BR = /^<br\s*\/?>$/i;
/** Tags that make a passage of their own when they open at the top level. */
const BLOCK = /^(?:ul|ol|blockquote|p|li|cite)$/i;
const HEADING = /^h[23]$/i;
/** A block tag nested in a text passage (inside an inline tag): the passage is wrapped in a div, not a p. */
const NESTED_BLOCK = /<(?:h2|h3|ul|ol|li|blockquote|cite|p)>/i;

/** Stored (sanitised) article HTML as its passages, in order. */
export function splitPassages(storedHtml: string): Passage[] {
  const passages: Passage[] = [];
  let n = 0;
  let html = ""; // the passage being read
  let kind: Passage["kind"] = "text";
  let depth = 0; // elements open inside it
  let gap = ""; // line breaks and whitespace at the top level since its last content
  let breaks = 0;

  const finish = () => {
    // Nothing but tags and whitespace (an empty list, `<b> </b>`): nothing to read, no number.
    if (html.replace(/<[^>]*>/g, "").trim() !== "") passages.push({ n: kind === "heading" ? null : ++n, kind, html });
    html = "";
    kind = "text";
  };

  for (const piece of storedHtml.split(TAG_PIECE)) {
    if (piece === "") continue;
    const name = TAG_NAME.exec(piece)?.[1] ?? null;
    const closes = piece.startsWith("</");
    const opens = name !== null && !closes && !BR.test(piece) && !piece.endsWith("/>");
    if (depth > 0) {
      html += piece;
      if (opens) depth++;
      else if (closes) depth--;
      if (depth === 0 && kind !== "text") finish();
      continue;
    }
    if (BR.test(piece) || (name === null && piece.trim() === "")) {
      gap += piece;
      if (BR.test(piece)) breaks++;
      continue;
    }
    if (name !== null && !closes && (BLOCK.test(name) || HEADING.test(name))) {
      // A list, quotation or heading: the text before it ends, and the breaks beside it only laid out the markup.
      finish();
      kind = HEADING.test(name) ? "heading" : "block";
      html = piece;
      depth = opens ? 1 : 0;
      if (depth === 0) finish();
    } else {
      if (breaks >= 2) finish();
      else if (html !== "") html += gap;
      html += piece;
      // A stray closing tag (never in sanitised content) opens nothing.
      if (opens) depth++;
    }
    gap = "";
    breaks = 0;
  }
  finish();
  return passages;
}

/** Passage `n` of stored content with its plain text (without the markers [1] citing sources), or null when there is none. */
export function passageAt(storedHtml: string, n: number): { n: number; html: string; text: string } | null {
  const passage = splitPassages(storedHtml).find((p) => p.n === n);
  return passage ? { n, html: passage.html, text: contentToText(passage.html) } : null;
}

/** What a report quotes of a passage: its text cut on a word boundary, at most PASSAGE_QUOTE_LENGTH characters. */
export function passageQuote(text: string): string {
  return clipText(text, PASSAGE_QUOTE_LENGTH - 1);
}

/** The number in `?odsek=N`: a positive integer of up to 6 digits, or null for anything else. */
export function parsePassageNumber(raw: string): number | null {
  return /^[1-9]\d{0,5}$/.test(raw) ? Number(raw) : null;
}

/** The passage `?odsek=` names in stored content, with what a report quotes of it; null when the article has no such passage. */
export function quotedPassage(storedHtml: string, odsek: string): { n: number; quote: string } | null {
  const n = parsePassageNumber(odsek);
  const passage = n === null ? null : passageAt(storedHtml, n);
  return passage && { n: passage.n, quote: passageQuote(passage.text) };
}

const escapeAttribute = (value: string) => value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");

/**
 * The passages as the article's HTML: each numbered one in an element with
 * its anchor (a text passage in a p, a list or quotation in a div around it;
 * headings as they are). `flagHref`, given for a signed-in reader who may
 * flag, adds a "Zdroj?" link at the end of each numbered passage.
 */
export function passagesHtml(passages: Passage[], flagHref?: (n: number) => string): string {
  let out = "";
  for (const { n, kind, html } of passages) {
    if (n === null) {
      out += html;
      continue;
    }
    const tag = kind === "text" && !NESTED_BLOCK.test(html) ? "p" : "div";
    const flag = flagHref
      ? ` <a class="passage-flag" href="${escapeAttribute(flagHref(n))}">Zdroj?<span class="visually-hidden"> (označiť odsek ${n})</span></a>`
      : "";
    out += `<${tag} id="${passageAnchor(n)}">${html}${flag}</${tag}>`;
  }
  return out;
}
