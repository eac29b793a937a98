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
