/**
 * The word after an action (docs/articles.md, "After each action"): shown
 * once, on the page the action's redirect leads to, then gone.
 */
export const NOTICES = {
  published: "Článok je uverejnený.",
  saved: "Zmeny sú uložené.",
  deleted: "Článok je odstránený.",
  restored: "Verzia je obnovená ako nová úprava článku.",
  hidden: "Článok je skrytý pred čitateľmi.",
  shown: "Článok je znova zverejnený.",
  revisionsDecided: "Rozhodnutie o verziách je uložené.",
} as const;

export type Notice = keyof typeof NOTICES;

export function isNotice(value: unknown): value is Notice {
  return typeof value === "string" && Object.hasOwn(NOTICES, value);
}
