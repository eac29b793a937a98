/** The spec's fixed rules and messages, shared by the browser and the server. */

export const TITLE_MAX_LENGTH = 90;
export const MAX_TAGS = 5;
export const IMAGE_MAX_BYTES = 2_097_152;
export const IMAGE_TYPES = ["image/jpeg", "image/png"] as const;

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

export const DISPLAY_NAME_MAX_LENGTH = 50;
export const EMAIL_MAX_LENGTH = 254;
export const PASSWORD_MIN_LENGTH = 8;
/** bcrypt reads at most 72 bytes and would silently ignore the rest. */
export const PASSWORD_MAX_BYTES = 72;

export const ACCOUNT_MESSAGES = {
  fillAll: "Vyplňte, prosím, všetky polia.",
  displayName: `Zobrazované meno môže mať najviac ${DISPLAY_NAME_MAX_LENGTH} znakov.`,
  emailTaken: "Tento e-mail je už zaregistrovaný. Prihláste sa alebo si obnovte heslo.",
  passwordTooShort: `Heslo musí mať aspoň ${PASSWORD_MIN_LENGTH} znakov.`,
  passwordTooLong: `Heslo je príliš dlhé: môže mať najviac ${PASSWORD_MAX_BYTES} bajtov (znak s diakritikou zaberá 2).`,
  tooManyAttempts: "Príliš veľa pokusov. Skúste to, prosím, znova o niekoľko minút.",
  resetSent: "Ak k tomuto e-mailu existuje účet, poslali sme naň odkaz na obnovenie hesla. Platí 30 minút.",
  resetInvalid: "Odkaz na obnovenie hesla je neplatný, už bol použitý alebo vypršal. Požiadajte o nový.",
  passwordChanged: "Heslo je zmenené. Prihláste sa, prosím, novým heslom.",
} as const;

const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function isEmail(value: string): boolean {
  return value.length <= EMAIL_MAX_LENGTH && EMAIL_SHAPE.test(value);
}

/** The spec's and our own password rules; the first broken one's message, or null. */
export function passwordProblem(password: string, confirmation?: string): string | null {
  if (confirmation !== undefined && password !== confirmation) return MESSAGES.passwordsDiffer;
  if (password.length < PASSWORD_MIN_LENGTH) return ACCOUNT_MESSAGES.passwordTooShort;
  if (new TextEncoder().encode(password).length > PASSWORD_MAX_BYTES) return ACCOUNT_MESSAGES.passwordTooLong;
  return null;
}

/** Longest article body we accept, in characters of what the author typed. */
export const CONTENT_MAX_LENGTH = 30_000;

export const POST_MESSAGES = {
  titleTooLong: `Nadpis môže mať najviac ${TITLE_MAX_LENGTH} znakov.`,
  contentTooLong: `Text článku môže mať najviac ${CONTENT_MAX_LENGTH.toLocaleString("sk-SK")} znakov.`,
  unknownTag: "Vyberte tagy zo zoznamu.",
  tooLarge: "Požiadavka je príliš veľká.",
  emptyEdit: "Nadpis ani text nemôžu byť prázdne.",
  forbidden: "Tento článok môže upravovať alebo odstrániť iba jeho autor alebo administrátor.",
} as const;

/** Who may edit and delete a post: its author or an admin. The one rule, for the page and the server. */
export function canModify(user: { id: string; isAdmin: boolean } | null | undefined, post: { authorId: string }): boolean {
  return Boolean(user && (user.isAdmin || user.id === post.authorId));
}

/** A line break in stored content, however it was written. */
export const BR_TAG = /<br\s*\/?>/gi;

/** Stored content (newlines as <br/>) back into what the author edits. */
export function storedToEditable(stored: string): string {
  return stored.replace(BR_TAG, "\n");
}

/** The tag rules, in the order their messages are shown; null when the tags are fine. */
export function tagsProblem(tags: string[], isKnown: (tag: string) => boolean): string | null {
  if (tags.some((tag) => !isKnown(tag))) return POST_MESSAGES.unknownTag;
  if (new Set(tags).size !== tags.length) return MESSAGES.tagDuplicate;
  if (tags.length > MAX_TAGS) return MESSAGES.tagLimit;
  return null;
}
