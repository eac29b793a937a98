/** The spec's fixed rules and messages, shared by the browser and the server. */
import { BIDI_FORMATTING } from "~/lib/text/text-controls";

export const TITLE_MAX_LENGTH = 90;
/** "Čo ste zmenili?": the one-line summary of an edit, kept with its revision. */
export const SUMMARY_MAX_LENGTH = 200;
export const MAX_TAGS = 5;
export const IMAGE_MAX_BYTES = 2_097_152;
export const IMAGE_TYPES = ["image/jpeg", "image/png"] as const;
/** Largest image we decode, judged by its header: a big camera photo fits; a small file declaring more is a decompression bomb. */
export const IMAGE_MAX_SIDE = 10_000;
export const IMAGE_MAX_PIXELS = 40_000_000;
/** Most memory the decoder may need for a whole image at once (a progressive JPEG, an interlaced PNG): about 13 MP of a usual progressive JPEG (a 12 MP phone photo fits). */
export const IMAGE_MAX_WHOLE_IMAGE_BYTES = 40_000_000;

export const PAGE_SIZE = 9;
/** Upper bound of `?limit=`, so one request cannot ask for the whole table. */
export const MAX_LIST_LIMIT = PAGE_SIZE * 20;

/** The spec's four card colours (#e0d6c2, #8f8868, #976c54, #b5a38c) are card-c0…card-c3 in app.css. */
export const CARD_COLOUR_COUNT = 4;

export const MESSAGES = {
  badCredentials: "Zlý e-mail alebo heslo",
  passwordsDiffer: "Passwords do not match",
  emailRequired: "Please enter your email address.",
  createFieldsMissing: "Please fill in all fields and select at least one tag.",
  imageType: "Only JPEG and PNG formats are allowed.",
  imageSize: "File size must be less than 2MB.",
  tagDuplicate: "Tag already added.",
  tagLimit: "You can add up to 5 tags only.",
  uploadFailed: "Error uploading image. Please try again.",
  createFailed: "Error creating post. Please try again.",
  confirmDelete: "Are you sure you want to delete this post?",
} as const;

/** Class giving the card at a 0-based position in the list its background colour. */
export function cardColourClass(index: number): string {
  return `card-c${index % CARD_COLOUR_COUNT}`;
}

/**
 * `?limit=` as a whole number of pages: 9, 18, 27, … up to MAX_LIST_LIMIT.
 * Anything else (missing, junk, negative, huge) falls back to the nearest sane value.
 */
export function parseListLimit(raw: string | null): number {
  const n = Number.parseInt(raw ?? "", 10);
  if (!Number.isFinite(n) || n <= PAGE_SIZE) return PAGE_SIZE;
  return Math.min(Math.ceil(n / PAGE_SIZE) * PAGE_SIZE, MAX_LIST_LIMIT);
}

/** A burst of expensive work (password checks, images) is over what the server queues: try again in a moment (503). */
export const BUSY_MESSAGE = "Server je práve preťažený. Skúste to, prosím, o\u00a0chvíľu znova.";
/** A create form refused as busy after its new image was dropped unread or undecoded: the text comes back, the image does not. */
export const BUSY_FORM_MESSAGE = `${BUSY_MESSAGE} Váš text zostal vo formulári; obrázok vyberte znova.`;

/** A form sent with an intent its page does not know (an old page, a hand-made request). */
export const UNKNOWN_ACTION_MESSAGE = "Neznáma akcia. Obnovte, prosím, stránku a skúste to znova.";

/**
 * The largest request body the site reads: the create form with an image
 * just under 2 MB and its other fields (nginx's `client_max_body_size 3m`
 * in deploy/ says the same). A body declaring more is refused before any
 * route runs (server/request-body.ts).
 */
export const MAX_BODY_BYTES = 3 * 1024 * 1024;

/** What the server answers about a body it stopped reading. */
export const BODY_MESSAGES = {
  tooLarge: "Formulár je príliš veľký: obrázok môže mať najviac 2\u00a0MB. Vráťte sa, prosím, späť a vyberte menší.",
  tooSlow: "Požiadavka prichádzala príliš pomaly a bola prerušená. Skúste to, prosím, znova.",
  unreadable: "Formulár sa nepodarilo prečítať. Skúste ho, prosím, odoslať znova.",
} as const;

/** Faults of the server's storage, said in words a reader understands (docs/operations.md, "When something fails"). */
export const FAULT_MESSAGES = {
  diskFull: "Na serveri práve dochádza miesto, preto sa obrázok nedá uložiť. Váš text zostal vo formulári; obrázok vyberte znova o chvíľu.",
  /** The database or the image folder has no room left (507). */
  noSpace: "Na serveri práve došlo miesto, preto sa teraz nedá nič uložiť. Čítať môžete ďalej; skúste to, prosím, o niekoľko minút znova.",
  /** The database or the image folder cannot be written (503). */
  storageFailed: "Server práve nemôže nič uložiť: jeho úložisko zlyhalo. Čítať môžete ďalej; skúste to, prosím, o chvíľu znova.",
  /** The image bucket cannot be reached (503). */
  imageStoreDown: "Úložisko obrázkov je práve nedostupné, preto sa obrázok nedá uložiť ani zobraziť. Skúste to, prosím, o chvíľu znova.",
  /** The mail outbox has no room for a decision's mails (503): the decision waits. */
  mailRoomFull:
    "Rozhodnutie sa teraz nedá zapísať: na odoslanie čaká priveľa e-mailov o rozhodnutiach a e-maily k tomuto by sa už nezmestili. Nič sa nezmenilo. Skúste to, prosím, o niekoľko minút znova (koľko e-mailov čaká, ukazuje stránka Administrácia).",
  /** Added when a form is shown again. */
  formKept: "Čo ste vyplnili, zostalo vo formulári.",
  formKeptImage: "Váš text zostal vo formulári; obrázok vyberte, prosím, znova.",
} as const;

export const DISPLAY_NAME_MAX_LENGTH = 50;
export const EMAIL_MAX_LENGTH = 254;
export const PASSWORD_MIN_LENGTH = 8;
/** bcrypt reads at most 72 bytes and would silently ignore the rest. */
export const PASSWORD_MAX_BYTES = 72;

export const ACCOUNT_MESSAGES = {
  fillAll: "Vyplňte, prosím, všetky polia.",
  displayName: `Zobrazované meno môže mať najviac ${DISPLAY_NAME_MAX_LENGTH} znakov.`,
  displayNameControls: "Zobrazované meno nesmie obsahovať riadiace ani neviditeľné znaky.",
  displayNameMarks: "Zobrazované meno nesmie obsahovať diakritické znamienka navyše (nad písmenom, ktoré už jedno má, alebo cez písmeno).",
  displayNameInvisible: "Zobrazované meno musí obsahovať aspoň jedno viditeľné písmeno, číslicu alebo znak.",
  displayNameTaken: "Toto meno, alebo meno, ktoré sa naň na nerozoznanie podobá, už má iný účet. Zvoľte si, prosím, iné.",
  emailTaken: "Tento e-mail je už zaregistrovaný. Prihláste sa alebo si obnovte heslo.",
  passwordTooShort: `Heslo musí mať aspoň ${PASSWORD_MIN_LENGTH} znakov.`,
  passwordTooLong: `Heslo je príliš dlhé: môže mať najviac ${PASSWORD_MAX_BYTES} bajtov (znak s diakritikou zaberá 2).`,
  tooManyAttempts: "Príliš veľa pokusov. Skúste to, prosím, znova o niekoľko minút.",
  resetSent: "Ak k\u00a0tomuto e-mailu existuje účet, poslali sme naň odkaz na obnovenie hesla. Platí 30 minút. Ak e-mail nevidíte, pozrite sa aj do priečinka so spamom.",
  resetInvalid: "Odkaz na obnovenie hesla je neplatný, už bol použitý alebo vypršal. Požiadajte o nový.",
  passwordChanged: "Heslo je zmenené. Prihláste sa, prosím, novým heslom.",
  confirmationInvalid: "Odkaz na potvrdenie e-mailovej adresy je neplatný, už bol použitý alebo vypršal. Nový si pošlete zo stránky Môj účet.",
  confirmationQuota: "Odkaz na potvrdenie sme poslali už viackrát. Skúste to, prosím, znova neskôr a medzitým sa pozrite aj do priečinka so spamom.",
  confirmationNotQueued: "E-mail s odkazom sa teraz nepodarilo pripraviť na odoslanie. Skúste to, prosím, o chvíľu znova.",
} as const;

/**
 * Control characters, and the invisible marks that reorder text (bidi
 * overrides and isolates): never part of a name, a title or an e-mail, and
 * never sent raw to a terminal (the admin command) or into an e-mail.
 */
const HIDDEN_CONTROL = new RegExp(`[\\p{Cc}\\u061c\\u200e\\u200f${BIDI_FORMATTING}]`, "u");

export function hasHiddenControls(text: string): boolean {
  return HIDDEN_CONTROL.test(text);
}

/** Text with every hidden control, and any other character nobody sees, written out visibly, e.g. "\u{202e}". */
export { showUnseenCharacters as showHiddenControls } from "~/lib/text/text-controls";

/**
 * A plain address, as a mail service reads it the same way we do: ASCII
 * only (an internationalised domain in its xn-- form), no display name,
 * angle brackets, comment, quoted or bracketed part, so no look-alike and
 * no hidden character. The local part is RFC 5322's dot-atom; the domain
 * has at least two labels of letters, digits and inner hyphens.
 */
const EMAIL_LOCAL = /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/i;
const EMAIL_DOMAIN = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z](?:[a-z0-9-]{0,61}[a-z0-9])?$/i;
const EMAIL_LOCAL_MAX_LENGTH = 64;

export function isEmail(value: string): boolean {
  if (value.length > EMAIL_MAX_LENGTH) return false;
  const at = value.lastIndexOf("@");
  const local = value.slice(0, at);
  return at > 0 && local.length <= EMAIL_LOCAL_MAX_LENGTH && EMAIL_LOCAL.test(local) && EMAIL_DOMAIN.test(value.slice(at + 1));
}

/**
 * A text field as the author typed it: forms send each new line as CRLF, but
 * a textarea's maxlength counts it as one character, and so do our limits.
 */
export function typedText(submitted: string): string {
  return submitted.replace(/\r\n?/g, "\n");
}

/** A form's text fields as typed (typedText each; a missing field is ""). */
export function typedFields<N extends string>(form: FormData, names: readonly N[]): Record<N, string> {
  return Object.fromEntries(names.map((name) => [name, typedText(String(form.get(name) ?? ""))])) as Record<N, string>;
}

/** Longest article body we accept, in characters of what the author typed. */
export const CONTENT_MAX_LENGTH = 30_000;
/**
 * Most bytes the body may take as it is stored: sanitised HTML in UTF-8.
 * Each typed character is stored in at most 5 bytes (an "&" as "&amp;", a
 * new line as "<br/>", a tag with the end tag it implies), so no text of
 * CONTENT_MAX_LENGTH characters passes this, except through its links'
 * addresses: stored normalised, percent-encoded, up to 9 bytes for one
 * typed character (a "€" is "%E2%82%AC"; a new line, a <br/> by then,
 * "%3Cbr/%3E"). tests/unit/articles/content.test.ts tries every pair of the pieces
 * that grow most.
 */
export const CONTENT_STORED_MAX_BYTES = 5 * CONTENT_MAX_LENGTH;

/** Bytes of a text in UTF-8, as the database stores it (at most 3 for each of its characters). */
export function utf8Length(text: string): number {
  return new TextEncoder().encode(text).length;
}

/**
 * Most HTML start tags one body may contain, and how deep they may nest:
 * bounds the work of sanitising it. The same bounds hold for what its
 * Markdown makes: elements of the stored HTML (line breaks aside), and
 * lists and quotations inside one another (content.server.ts).
 */
export const CONTENT_MAX_TAGS = 2_000;
export const CONTENT_MAX_DEPTH = 20;

/**
 * Most images an article and its history may have: each revision keeps its
 * image while the article lives, so this bounds what one article stores
 * (about 1 MB a picture in its sizes).
 */
export const HISTORY_MAX_IMAGES = 10;

/** What one account may do (docs/limits-and-security.md, "Limits"): new articles, images sent to the decoder (a refused form's included), saved edits, reports, new names. */
export const QUOTAS = {
  postsPerHour: 10,
  postsPerDay: 30,
  uploadsPerHour: 30,
  uploadsPerDay: 100,
  editsPerHour: 120,
  reportsPerHour: 10,
  reportsPerDay: 30,
  renamesPerHour: 10,
} as const;

export const POST_MESSAGES = {
  titleTooLong: `Nadpis môže mať najviac ${TITLE_MAX_LENGTH} znakov.`,
  titleControls: "Nadpis nesmie obsahovať riadiace ani neviditeľné znaky (tabulátor, nový riadok, značky smeru textu).",
  contentBidi:
    "Text článku obsahuje značku smeru textu (U+202A – U+202E, U+2066 – U+2069), ktorú ten istý riadok neuzatvára. Uzavrite ju (U+202C, U+2069) alebo ju odstráňte.",
  contentTooLong: `Text článku môže mať najviac ${CONTENT_MAX_LENGTH.toLocaleString("sk-SK")} znakov.`,
  contentStoredTooLong: `Text článku je po uložení príliš dlhý: môže mať najviac ${CONTENT_STORED_MAX_BYTES.toLocaleString("sk-SK")} bajtov. Predlžujú ho adresy odkazov, v ktorých sa písmeno s diakritikou či iný znak mimo ASCII ukladá zakódovaný (napr. „á“ ako %C3%A1, 6 znakov). Skráťte, prosím, odkazy alebo text.`,
  unknownTag: "Vyberte tagy zo zoznamu.",
  tooLarge: "Formulár je príliš veľký. Skráťte text alebo pošlite menší obrázok.",
  historyImages: `Článok a jeho história už majú ${HISTORY_MAX_IMAGES} rôznych obrázkov, viac ich mať nemôžu. Ponechajte obrázok, ktorý má, alebo obnovte niektorú staršiu verziu s obrázkom, ktorý chcete.`,
  pendingImageGone: "Obrázok, ktorý ste nahrali, už na serveri nie je (nepoužité obrázky mažeme po 24 hodinách). Vyberte ho, prosím, znova.",
  emptyEdit: "Nadpis ani text nemôžu byť prázdne.",
  summaryTooLong: `Popis zmeny („Čo ste zmenili?“) môže mať najviac ${SUMMARY_MAX_LENGTH} znakov.`,
  summaryControls: "Popis zmeny („Čo ste zmenili?“) musí byť jeden riadok bez riadiacich a neviditeľných znakov.",
  forbidden: "Tento článok môže upravovať alebo odstrániť iba jeho autor alebo administrátor.",
  contentTooManyTags: `Text článku má príliš veľa HTML značiek (najviac ${CONTENT_MAX_TAGS.toLocaleString("sk-SK")}).`,
  contentTooDeep: `HTML značky v texte článku sú vnorené príliš hlboko (najviac ${CONTENT_MAX_DEPTH} úrovní).`,
  contentTooManyMarks: `Text článku má príliš veľa formátovania: najviac ${CONTENT_MAX_TAGS.toLocaleString("sk-SK")} nadpisov, položiek zoznamov, zvýraznení, odkazov a iných značiek spolu.`,
  contentMarksTooDeep: `Zoznamy a citáty v texte článku sú vnorené príliš hlboko (najviac ${CONTENT_MAX_DEPTH} úrovní).`,
  contentFailed: "Text článku sa nepodarilo spracovať. Skúste ho, prosím, zjednodušiť alebo uložiť znova.",
  imageTooLarge: `Obrázok je príliš veľký: najviac ${IMAGE_MAX_SIDE.toLocaleString("sk-SK")} px na stranu a ${IMAGE_MAX_PIXELS / 1_000_000} megapixelov.`,
  imageTooLargeWhole: "Progresívny JPEG alebo prekladaný PNG takejto veľkosti nevieme spracovať. Zmenšite ho alebo ho uložte ako bežný JPEG či PNG.",
  imageTooCostly: "Spracovať tento obrázok by stálo príliš veľa pamäte (veľký rozmer spolu so 16-bitovou farbou, priehľadnosťou alebo prekladaním). Zmenšite ho alebo ho uložte ako bežný 8-bitový JPEG či PNG.",
  postQuota: `Dosiahli ste limit nových článkov: najviac ${QUOTAS.postsPerHour} za hodinu a ${QUOTAS.postsPerDay} za deň. Skúste to, prosím, neskôr.`,
  editQuota: `Dosiahli ste limit úprav: najviac ${QUOTAS.editsPerHour} uložení za hodinu. Skúste to, prosím, neskôr.`,
  uploadQuota: `Dosiahli ste limit nahraných obrázkov: najviac ${QUOTAS.uploadsPerHour} za hodinu a ${QUOTAS.uploadsPerDay} za deň. Skúste to, prosím, neskôr.`,
} as const;

/** The size rules of an image, judged by its header before decoding: the first broken one's message, or null. */
export function imageSizeProblem({ width, height, wholeImageBytes }: { width: number; height: number; wholeImageBytes: number }): string | null {
  if (width > IMAGE_MAX_SIDE || height > IMAGE_MAX_SIDE || width * height > IMAGE_MAX_PIXELS) return POST_MESSAGES.imageTooLarge;
  if (wholeImageBytes > IMAGE_MAX_WHOLE_IMAGE_BYTES) return POST_MESSAGES.imageTooLargeWhole;
  return null;
}

/** Who may edit and delete a post: its author or an admin. The one rule, for the page and the server. */
export function canModify(user: { id: string; isAdmin: boolean } | null | undefined, post: { authorId: string }): boolean {
  return Boolean(user && (user.isAdmin || user.id === post.authorId));
}

/** A line break in stored content, however it was written. */
export const BR_TAG = /<br\s*\/?>/gi;

/** The tag rules, in the order their messages are shown; null when the tags are fine. */
export function tagsProblem(tags: string[], isKnown: (tag: string) => boolean): string | null {
  if (tags.some((tag) => !isKnown(tag))) return POST_MESSAGES.unknownTag;
  if (new Set(tags).size !== tags.length) return MESSAGES.tagDuplicate;
  if (tags.length > MAX_TAGS) return MESSAGES.tagLimit;
  return null;
}

/** HTML's void elements: they never contain anything. */
const VOID_ELEMENTS = new Set(["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"]);
/** Elements whose start tag closes the same element when it is the current one (a new paragraph or list item). */
const SIBLING_CLOSES = new Set(["p", "li"]);
/** After "<": an optional "/" and a tag name (which, as in HTML, runs to whitespace, "/" or ">"). */
const TAG_NAME = /(\/?)([a-z][^\s/>]*)/iy;

/**
 * The markup rules of an article body as the author typed it: the first one
 * broken, or null. One pass, linear in the text, that stops as soon as a
 * limit is passed, so hostile input costs no more than reading it. Depth is
 * counted as an author expects: void elements (<br>) hold nothing, a
 * closing tag closes back to its open tag (and is ignored without one), and
 * <p> or <li> closes a <p> or <li> that is the current element.
 */
export function contentMarkupProblem(text: string): string | null {
  const open: string[] = [];
  let tags = 0;
  let end = -1; // the first ">" after the current "<"
  for (let start = text.indexOf("<"); start !== -1; start = text.indexOf("<", start + 1)) {
    if (end < start) end = text.indexOf(">", start);
    if (end === -1) break; // no ">" left, so no more tags: the rest is text
    TAG_NAME.lastIndex = start + 1;
    const match = TAG_NAME.exec(text);
    if (!match) continue; // "<" as text, or a comment or doctype
    const [, closing, typedName] = match;
    const name = typedName.toLowerCase();
    start = end;
    if (closing) {
      const at = open.lastIndexOf(name);
      if (at !== -1) open.length = at;
      continue;
    }
    if (++tags > CONTENT_MAX_TAGS) return POST_MESSAGES.contentTooManyTags;
    // "<b/>" opens a <b>, as browsers and the sanitiser read it: only void elements hold nothing.
    if (VOID_ELEMENTS.has(name)) continue;
    if (SIBLING_CLOSES.has(name) && open[open.length - 1] === name) open.pop();
    if (open.push(name) > CONTENT_MAX_DEPTH) return POST_MESSAGES.contentTooDeep;
  }
  return null;
}
