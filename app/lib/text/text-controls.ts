/**
 * Characters that are not seen but change what is: control and format
 * characters, the marks that reorder text (bidi), fillers. The rules of
 * names, titles and article bodies (./rules, ./forms) are built from these.
 */

/** Bidi embeddings and overrides (U+202A–U+202E, closed by U+202C) and isolates (U+2066–U+2069, closed by U+2069), for a character class. */
export const BIDI_FORMATTING = "\\u202a-\\u202e\\u2066-\\u2069";

const PDF = "\u202c";
const PDI = "\u2069";
const OPENS_EMBEDDING = /[\u202a\u202b\u202d\u202e]/;
const OPENS_ISOLATE = /[\u2066-\u2068]/;
const BIDI = new RegExp(`[${BIDI_FORMATTING}\\n]`, "g");

/**
 * Whether a line opens a bidi embedding, override or isolate it does not
 * close: the text after it (on the page, the byline, the next card) would be
 * reordered. Read as the Unicode bidi algorithm reads it (UAX #9): a PDI
 * closes its isolate and whatever was opened inside it; a closer without an
 * opener does nothing. Each line must close what it opens. Linear in the text.
 */
export function hasUnclosedBidi(text: string): boolean {
  const open: ("embedding" | "isolate")[] = [];
  for (const [c] of text.matchAll(BIDI)) {
    if (c === "\n") {
      if (open.length > 0) return true;
    } else if (OPENS_EMBEDDING.test(c)) open.push("embedding");
    else if (OPENS_ISOLATE.test(c)) open.push("isolate");
    else if (c === PDF && open.at(-1) === "embedding") open.pop();
    else if (c === PDI && open.includes("isolate")) open.length = open.lastIndexOf("isolate");
  }
  return open.length > 0;
}

/** Control characters but tab and new line (NUL, escape, C1 controls, …): nothing an author means to publish. */
const CONTROL = /(?![\t\n])\p{Cc}/gu;

export function withoutControlCharacters(text: string): string {
  return text.replace(CONTROL, "");
}

/**
 * What nobody sees: controls, format characters (zero-width space and
 * joiners, bidi marks, the soft hyphen), private-use, unassigned and
 * surrogate code points, line and paragraph separators, default-ignorable
 * characters (fillers, variation selectors), the blank braille pattern.
 */
const UNSEEN = /[\p{Cc}\p{Cf}\p{Co}\p{Cn}\p{Cs}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}\u2800]/u;

export function hasUnseenCharacters(text: string): boolean {
  return UNSEEN.test(text);
}

const writtenOut = (c: string) => `\\u{${c.codePointAt(0)!.toString(16)}}`;

/** Every unseen character written out visibly, e.g. "\u{200b}": for a terminal, a log, an admin who must tell two accounts apart. */
export function showUnseenCharacters(text: string): string {
  return text.replace(new RegExp(UNSEEN, "gu"), writtenOut);
}

/** Every character but printable ASCII written out: an e-mail address is ASCII (~/lib/rules), so anything else is an old look-alike. */
export function showNonAscii(text: string): string {
  return text.replace(/[^ -~]/gu, writtenOut);
}

/** A letter, digit, punctuation mark or symbol that is not unseen. */
const SEEN = /(?![\p{Default_Ignorable_Code_Point}\u2800])[\p{L}\p{N}\p{P}\p{S}]/u;

export function hasSeenCharacter(text: string): boolean {
  return SEEN.test(text);
}

/**
 * A Latin, Greek or Cyrillic letter with a combining mark that NFC could not
 * join to it ("č" + U+0300, an overlay U+0334): every letter these scripts
 * write has a precomposed form, so a leftover mark only makes a name look
 * like another while its skeleton differs. (Call on NFC text.)
 */
const STACKED_MARK = /[\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}]\p{Mn}/u;

export function hasStackedMarks(text: string): boolean {
  return STACKED_MARK.test(text);
}
