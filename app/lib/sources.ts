import { hasHiddenControls } from "./rules";

/**
 * An article's sources: where its claims come from. Authors type them one
 * per line (a reference, and at its end, if they like, an http(s) link);
 * the text cites them as [1], [2], … in that order.
 */
export type Source = { text: string; url: string | null };

export const SOURCES_MAX = 30;
/** A reference, in characters: stored as typed. */
export const SOURCE_TEXT_MAX_LENGTH = 500;
/** A link, in characters as typed and as stored (storedLinkLength): both count. */
export const SOURCE_URL_MAX_LENGTH = 2_000;
/** The whole field, before it is read line by line: 30 full sources and their new lines. */
export const SOURCES_FIELD_MAX_LENGTH = SOURCES_MAX * (SOURCE_TEXT_MAX_LENGTH + SOURCE_URL_MAX_LENGTH + 2);

export const SOURCE_MESSAGES = {
  tooMany: `Článok môže mať najviac ${SOURCES_MAX} zdrojov (jeden na riadok).`,
  tooLong: (n: number) => `Zdroj č.\u00a0${n} môže mať najviac ${SOURCE_TEXT_MAX_LENGTH} znakov.`,
  badLink: (n: number) => `Odkaz v\u00a0zdroji č.\u00a0${n} nie je platná webová adresa (musí sa začínať http:// alebo https://).`,
  linkTooLong: (n: number) =>
    `Odkaz v\u00a0zdroji č.\u00a0${n} je príliš dlhý: uložený môže mať najviac ${SOURCE_URL_MAX_LENGTH.toLocaleString("sk-SK")} znakov a písmeno s diakritikou či iný znak mimo ASCII sa v ňom ukladá zakódovaný (napr. „á“ ako %C3%A1, 6 znakov).`,
  controls: (n: number) => `Zdroj č.\u00a0${n} obsahuje riadiace alebo neviditeľné znaky.`,
} as const;

/** A word that starts like a web address: it is the source's link (and must be one). */
const LINK_START = /^https?:\/\//i;

/**
 * A link's length as an article stores it: normalised (each character
 * outside ASCII percent-encoded, up to 9 for one typed, the host in
 * punycode) and written in the sources' JSON, where a backslash takes two.
 */
export function storedLinkLength(url: string): number {
  return JSON.stringify(url).length - 2;
}

function linkOf(word: string): string | null {
  try {
    const url = new URL(word);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "" ? url.href : null;
  } catch {
    return null;
  }
}

/** The sources as typed (one per line, blank lines skipped), or the first broken rule's message. */
export function readSources(typed: string): { sources: Source[] } | { error: string } {
  if (typed.length > SOURCES_FIELD_MAX_LENGTH) return { error: SOURCE_MESSAGES.tooMany };
  const lines = typed
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "");
  if (lines.length > SOURCES_MAX) return { error: SOURCE_MESSAGES.tooMany };
  const sources: Source[] = [];
  for (const [i, line] of lines.entries()) {
    const n = i + 1;
    if (hasHiddenControls(line)) return { error: SOURCE_MESSAGES.controls(n) };
    const lastSpace = line.search(/\s\S*$/);
    const lastWord = line.slice(lastSpace + 1);
    let text = line;
    let url: string | null = null;
    if (LINK_START.test(lastWord)) {
      // Bounded as typed before it is read, and as it will be stored.
      if (lastWord.length > SOURCE_URL_MAX_LENGTH) return { error: SOURCE_MESSAGES.linkTooLong(n) };
      url = linkOf(lastWord);
      if (!url) return { error: SOURCE_MESSAGES.badLink(n) };
      if (storedLinkLength(url) > SOURCE_URL_MAX_LENGTH) return { error: SOURCE_MESSAGES.linkTooLong(n) };
      // A source that is only a link is named by it.
      text = lastSpace === -1 ? lastWord : line.slice(0, lastSpace).trim();
    }
    if (text.length > SOURCE_TEXT_MAX_LENGTH) return { error: SOURCE_MESSAGES.tooLong(n) };
    sources.push({ text, url });
  }
  return { sources };
}

/** Whether stored sources keep the bounds as they are stored (their number, each reference's and link's length): sources saved before a bound may not. */
export function sourcesWithinBounds(sources: Source[]): boolean {
  return (
    sources.length <= SOURCES_MAX &&
    sources.every(({ text, url }) => text.length <= SOURCE_TEXT_MAX_LENGTH && (url === null || storedLinkLength(url) <= SOURCE_URL_MAX_LENGTH))
  );
}

/** The sources' rules for the forms' schema: the first broken one's message, or null. */
export function sourcesProblem(typed: string): string | null {
  const read = readSources(typed);
  return "error" in read ? read.error : null;
}

/** The sources of a field the form's schema has checked. */
export function sourcesFrom(typed: string): Source[] {
  const read = readSources(typed);
  if ("error" in read) throw new Error(`unchecked sources: ${read.error}`);
  return read.sources;
}

/** Stored sources back into what the author edits. */
export function sourcesToTyped(sources: Source[]): string {
  return sources.map(({ text, url }) => (url && text !== url ? `${text} ${url}` : (url ?? text))).join("\n");
}

/** How the site's pages link elsewhere: no endorsement for search engines, no access to this page for the other. */
export const LINK_REL = "nofollow ugc noopener";

/** Where a source is on the page, and where its first mention is. */
export const sourceAnchor = (n: number) => `zdroj-${n}`;
export const mentionAnchor = (n: number) => `zmienka-${n}`;

/** A marker [n] in the text: one or two digits. */
export const CITATION_MARKER = /\[(\d{1,2})\]/g;

/**
 * Stored (sanitised) article HTML with each marker [n] of an existing source
 * made a link to it; the first mention of each gets the id its source links
 * back to. Only text is touched, never a tag, and never text already inside
 * a link. Markers without a source stay as typed.
 */
export function linkCitations(html: string, sourceCount: number): { html: string; mentioned: Set<number> } {
  const mentioned = new Set<number>();
  if (sourceCount === 0) return { html, mentioned };
  let inLink = 0;
  const linked = html
    .split(/(<[^>]*>)/)
    .map((piece) => {
      if (piece.startsWith("<")) {
        if (/^<a[\s>]/i.test(piece)) inLink++;
        else if (/^<\/a\s*>/i.test(piece)) inLink = Math.max(0, inLink - 1);
        return piece;
      }
      if (inLink > 0) return piece;
      return piece.replace(CITATION_MARKER, (marker, digits: string) => {
        const n = Number(digits);
        if (n < 1 || n > sourceCount) return marker;
        const id = mentioned.has(n) ? "" : ` id="${mentionAnchor(n)}"`;
        mentioned.add(n);
        return `<sup class="citation"><a href="#${sourceAnchor(n)}"${id} aria-label="Zdroj č. ${n}">[${n}]</a></sup>`;
      });
    })
    .join("");
  return { html: linked, mentioned };
}
