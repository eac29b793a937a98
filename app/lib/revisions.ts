/** Words of an article's history, shared by the article page and the history page. */

/** "1 úprava", "3 úpravy", "5 úprav". */
export function editCount(n: number): string {
  return `${n} ${n === 1 ? "úprava" : n >= 2 && n <= 4 ? "úpravy" : "úprav"}`;
}

/** A revision's size change as the history shows it: "+120", "−7" (a minus sign, not a hyphen), "0". */
export function sizeChange(characters: number): string {
  if (characters > 0) return `+${characters.toLocaleString("sk-SK")}`;
  if (characters < 0) return `−${(-characters).toLocaleString("sk-SK")}`;
  return "0";
}

/** Revisions on one page of an article's history. */
export const REVISIONS_PER_PAGE = 50;

/**
 * The history's `page` parameter: absent is the first page; anything but a
 * whole number from 1 to `pages` written plainly is null (the page answers 404).
 */
export function historyPage(raw: string | null, pages: number): number | null {
  if (raw === null) return 1;
  if (!/^[1-9]\d{0,5}$/.test(raw)) return null;
  const page = Number(raw);
  return page <= pages ? page : null;
}
