/**
 * Text as search compares it: lower case, without diacritics ("Štefánik"
 * and "stefanik" are the same). The database has the same function as
 * `fold()` (app/db/connection.server.ts).
 */
export function foldForSearch(text: string): string {
  return text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
}

/** A LIKE pattern that finds `query` anywhere, with LIKE's wildcards in it taken literally (ESCAPE '\'). */
export function containsPattern(query: string): string {
  return `%${foldForSearch(query).replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
