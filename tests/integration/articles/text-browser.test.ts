import { execFile } from "node:child_process";
import { describe, expect, inject, it } from "vitest";
import { TAGS } from "~/lib/tags";
import { readDatabase } from "../../support/http";

const base = inject("baseUrl");
const databasePath = inject("databasePath");

/** A page as a text browser prints it, without CSS: Debian's w3m (`w3m -dump`). */
async function dump(path: string): Promise<string> {
  const html = await (await fetch(`${base}${path}`)).text();
  return new Promise((resolve, reject) => {
    const w3m = execFile("w3m", ["-dump", "-T", "text/html", "-cols", "100", "-I", "UTF-8", "-O", "UTF-8"], (error, stdout) =>
      error ? reject(error) : resolve(stdout),
    );
    w3m.stdin!.end(html);
  });
}

/** A dump with its whitespace evened out: w3m wraps long lines. */
const flat = (page: string) => page.replace(/\s+/g, " ");

/** The texts are in the dump, each first seen in this order. */
function expectInOrder(page: string, texts: string[]) {
  const at = new Map(texts.map((text) => [text, flat(page).indexOf(text)]));
  for (const [text, position] of at) expect(position, `"${text}" is in the page`).toBeGreaterThanOrEqual(0);
  expect([...texts].sort((a, b) => at.get(a)! - at.get(b)!)).toEqual(texts);
}

/**
 * The page starts with the skip link; the header's entries are there once (a
 * line each), and the icon-only controls (menu, social links, the tag filter
 * and its close button) print their words once.
 */
function expectHeaderOnce(page: string) {
  expect(page.trimStart().startsWith("Preskočiť na obsah")).toBe(true);
  for (const entry of ["História", "Aktuálne konflikty", "Prihlásiť sa"]) {
    expect(page.split("\n").filter((line) => line.replace(/^\s*•/, "").trim() === entry), entry).toHaveLength(1);
  }
  // The social links are those of tests/support/accounts-env.ts.
  for (const words of ["Menu", "Dejiny na sieti Facebook", "Dejiny na YouTube", "Filtrovať podľa tagu", "Zavrieť"]) {
    expect(flat(page).split(words).length - 1, words).toBe(1);
  }
}

/** The newest demo article: its id, title and the first words of its text. */
function demoArticle() {
  const row = readDatabase(
    databasePath,
    (db) =>
      db
        .prepare("SELECT p.id, p.title, p.content FROM posts p JOIN users u ON u.id = p.author_id WHERE u.email = 'demo@dejiny.invalid' ORDER BY p.created_at DESC LIMIT 1")
        .get() as { id: string; title: string; content: string },
  );
  const firstWords = row.content.replace(/<[^>]+>/g, " ").trim().split(/\s+/).slice(0, 6).join(" ");
  return { ...row, firstWords };
}

describe("a text browser (w3m, no CSS)", () => {
  it("reads an article page in order: skip link, the navigation once, the article, then the list behind it", async () => {
    const article = demoArticle();
    const page = await dump(`/posts/${article.id}`);
    expectHeaderOnce(page);
    expectInOrder(page, [
      "Aktuálne konflikty",
      article.title,
      article.firstWords,
      // The article's bar, the back arrow in words, ends the article.
      "Späť na zoznam",
      "Všetky články",
      TAGS[0],
      TAGS[TAGS.length - 1],
      "Načítaj viac",
    ]);
  });

  it("reads the list page: skip link, the navigation once, the search, the filter (tag, then period), the cards, Načítaj viac", async () => {
    const page = await dump("/posts");
    expectHeaderOnce(page);
    expectInOrder(page, ["Aktuálne konflikty", "Všetky články", "Hľadať v článkoch", "Filtrovať podľa tagu", TAGS[0], "Storočie", "Načítaj viac"]);
  });

  it("reads the timeline in historical order: the century index, then the articles, each after its period", async () => {
    const page = await dump("/timeline?century=9");
    expect(page.trimStart().startsWith("Preskočiť na obsah")).toBe(true);
    // The index names every century first; then the articles, each after its period.
    expectInOrder(page, [
      "Storočia",
      "20. storočie",
      "863 – 885: Cyril a Metod",
      "1492 – 1504: Krištof Kolumbus",
      "29. 8. 1526: Moháč 1526",
      "13. 8. 1961 – 9. 11. 1989: Berlínsky múr",
    ]);
  });
});
