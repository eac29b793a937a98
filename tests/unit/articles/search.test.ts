import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { periodWords } from "~/lib/period-words";
import { periodColumns, periodFilterKeys, type PeriodFilter } from "~/lib/time/periods";
import { excerptAround, highlight, searchQueries, searchTerms, tagToken } from "~/lib/search";
import { sqlite } from "~/db/connection.server";
import { deletePost, deletePostsOf, insertPost, setPostHidden, updatePost } from "~/models/posts.server";
import { indexMissingPosts, searchPosts } from "~/models/search.server";
import { createUser } from "~/models/users.server";

describe("what a search asks the index", () => {
  it("takes the words, folded: no case, no diacritics", () => {
    expect(searchTerms("  Štefánik a ČESKO-Slovensko 1918 ")).toEqual(["stefanik", "a", "cesko", "slovensk", "1918"]);
  });

  it("lets nothing of the index's query syntax through, and bounds the work", () => {
    expect(searchTerms('"*(NEAR OR -x) ^title: {a b} AND')).toEqual(["near", "or", "x", "title", "a", "b"]);
    expect(searchTerms("!!! --- ***")).toEqual([]);
    expect(searchTerms("jeden dva tri štyri päť šesť sedem")).toHaveLength(6);
    expect(searchTerms("a a a A á")).toEqual(["a"]);
    expect(searchTerms("x".repeat(90))).toEqual(["x".repeat(8)]);
    expect(searchTerms("Štefánikovi Štefánikova")).toEqual(["stefanik"]);
    // Only the first 100 characters are read.
    expect(searchTerms(`${" ".repeat(100)}slovo`)).toEqual([]);
  });

  it("matches the beginnings of words, one-letter words whole, in the title first, then in the text; a tag as its own word", () => {
    expect(searchQueries(["stefan", "a"], null)).toEqual({
      inTitle: 'title : ("stefan"* "a")',
      inText: '{title body} : ("stefan"* "a")',
    });
    expect(searchQueries(["kosice"], "Česko-Slovensko")).toEqual({
      inTitle: 'title : ("kosice"*) AND tags : "\uE000ceskoslovensko"',
      inText: '{title body} : ("kosice"*) AND tags : "\uE000ceskoslovensko"',
    });
    expect(tagToken("Dejiny Slovenska")).toBe("\uE000dejinyslovenska");
  });
});

describe("how a hit is shown", () => {
  it("marks every word the search matched, whatever its case and diacritics", () => {
    expect(highlight("Milan Rastislav Štefánik a Česko", ["stefan", "a"])).toEqual([
      { text: "Milan Rastislav ", mark: false },
      { text: "Štefánik", mark: true },
      { text: " ", mark: false },
      { text: "a", mark: true },
      { text: " Česko", mark: false },
    ]);
    expect(highlight("<script>", ["script"])).toEqual([
      { text: "<", mark: false },
      { text: "script", mark: true },
      { text: ">", mark: false },
    ]);
    expect(highlight("nič", [])).toEqual([{ text: "nič", mark: false }]);
  });

  it("excerpts the text around the first match, cut between words", () => {
    const text = `${"úvodné slová ".repeat(30)}Tu sa spomína Štefánik a jeho lety. ${"ďalšie vety ".repeat(30)}`;
    const excerpt = excerptAround(text, ["stefanik"]);
    expect(excerpt).toMatch(/^…\S/);
    expect(excerpt).toMatch(/\S…$/);
    expect(excerpt).toContain("Štefánik a jeho lety");
    expect(excerpt.length).toBeLessThanOrEqual(182);
    expect(text).toContain(excerpt.slice(1, -1));
    // No match in the text (the title matched): its beginning.
    expect(excerptAround("Krátky text.", ["iny"])).toBe("Krátky text.");
    // Found whatever the case of a word's first letter, with or without diacritics.
    expect(excerptAround(`${"slovo ".repeat(40)}STEFANIK`, ["stefanik"])).toContain("STEFANIK");
    expect(excerptAround(`${"slovo ".repeat(40)}Štefánikovi`, ["stefanik"])).toContain("Štefánikovi");
  });
});

describe("the search index", () => {
  const author = createUser({ displayName: "Hľadajúci Autor", email: `search-${Date.now()}@example.com`, passwordHash: null })!;
  const image = { key: "x", width: 800, height: 500 };
  let at = Date.now() - 1_000_000;
  const add = (title: string, content: string, tags = ["Ostatné"], period = "") =>
    insertPost({ title, content: `<p>${content}</p>`, excerpt: content.slice(0, 50), image, authorId: author.id, tags, period, createdAt: at++ });
  const find = (query: string, tag: string | null = null, limit = 10, period: PeriodFilter | null = null) =>
    searchPosts({ ...searchQueries(searchTerms(query), tag, period && periodFilterKeys(period)), limit });
  const titles = (query: string, tag: string | null = null) => find(query, tag).map((post) => post.title);
  const titlesIn = (period: PeriodFilter, query: string, tag: string | null = null) => find(query, tag, 10, period).map((post) => post.title);

  it("finds words without diacritics, by their beginning, and ranks a title above the text", () => {
    add("O letcovi", "Generál Štefánik letel do Bratislavy.");
    add("Štefánik a hviezdy", "Astronóm z Košarísk.", ["Osobnosti"]);
    add("Vznik Česko-Slovenska", "Rok 1918 a Česko.");
    expect(titles("stefanik")).toEqual(["Štefánik a hviezdy", "O letcovi"]);
    expect(titles("cesko")).toEqual(["Vznik Česko-Slovenska"]);
    expect(titles("kosar")).toEqual(["Štefánik a hviezdy"]);
    expect(titles("STEFANIK hviez")).toEqual(["Štefánik a hviezdy"]);
    expect(titles("stefanik", "Osobnosti")).toEqual(["Štefánik a hviezdy"]);
    expect(titles("stefanik", "Morava")).toEqual([]);
    // The tags column only filters: a tag's name is not a word of the text.
    expect(titles("tagosobnosti")).toEqual([]);
    expect(titles('"*(NEAR OR')).toEqual([]);
  });

  it("keeps a tag's word out of reach of any word typed, and of its beginning", () => {
    // Else "ta" would read the index entry of every tagged article (all of them), to find it in none of their texts.
    const id = add("Bez slov", "Nič.", ["Osobnosti"]);
    for (const index of ["post_search", "post_title_search"]) {
      const found = sqlite.prepare(`SELECT count(*) FROM ${index} WHERE ${index} MATCH ? AND rowid = (SELECT id FROM post_texts WHERE post_id = ?)`).pluck();
      for (const typed of ["t", "ta", "tag", "tagosob", "osob", "osobnost"]) expect(found.get(`"${typed}"*`, id)).toBe(0);
      expect(found.get(`tags : "${tagToken("Osobnosti")}"`, id)).toBe(1);
    }
    expect(titles("bez", "Osobnosti")).toEqual(["Bez slov"]);
    deletePost(id);
  });

  it("hands back the text for the excerpt, as many hits as asked for", () => {
    const posts = find("stefanik", null, 1);
    expect(posts).toHaveLength(1);
    expect(posts[0].body).toBe("Astronóm z Košarísk.");
    expect(find("stefanik", null, 2)).toHaveLength(2);
  });

  it("follows edits and deletes", () => {
    const id = add("Bitka pri Moháči", "Rok 1526.");
    expect(titles("mohac")).toEqual(["Bitka pri Moháči"]);
    updatePost(id, { title: "Bitka pri Slanom Kameni", content: "<p>Iná <b>bitka</b>.</p>", sources: [], excerpt: "Iná bitka." }, { editorId: author.id, summary: "" });
    expect(titles("mohac")).toEqual([]);
    expect(titles("slanom")).toEqual(["Bitka pri Slanom Kameni"]);
    expect(find("ina bitka")[0].body).toBe("Iná bitka.");
    deletePost(id);
    expect(titles("slanom")).toEqual([]);
  });

  it("follows an admin's clean-up of an account's articles", () => {
    const spammer = createUser({ displayName: "Spamer", email: `spam-${Date.now()}@example.com`, passwordHash: null })!;
    insertPost({ title: "Lacné hodinky", content: "<p>Kúpte</p>", excerpt: "Kúpte", image, authorId: spammer.id, tags: ["Ostatné"] });
    expect(titles("hodinky")).toEqual(["Lacné hodinky"]);
    deletePostsOf(spammer.id);
    expect(titles("hodinky")).toEqual([]);
  });

  it("indexes posts that have no search row yet (a database from before search) by their age, not the order they were stored", () => {
    // Stored newest first, as another program might have written them.
    const newer = insertPost({ title: "Novší o Nitre", content: "<p>Text.</p>", excerpt: "Text.", image, authorId: author.id, tags: ["Ostatné"], createdAt: at + 10 });
    const older = insertPost({ title: "Starší o Nitre", content: "<p>Text.</p>", excerpt: "Text.", image, authorId: author.id, tags: ["Morava"], createdAt: at + 5 });
    at += 20;
    sqlite.prepare("DELETE FROM post_texts WHERE post_id IN (?, ?)").run(newer, older);
    expect(titles("nitre")).toEqual([]);
    expect(indexMissingPosts()).toBe(2);
    expect(titles("nitre")).toEqual(["Novší o Nitre", "Starší o Nitre"]);
    expect(titles("nitre", "Morava")).toEqual(["Starší o Nitre"]);
    expect(indexMissingPosts()).toBe(0);
  });

  it("merges the index into one segment after indexing many articles at once", () => {
    const segments = () => ["post_search_idx", "post_title_search_idx"].map((table) => sqlite.prepare(`SELECT count(DISTINCT segid) FROM ${table}`).pluck().get());
    const ids = sqlite.transaction(() =>
      Array.from({ length: 600 }, (_, i) => insertPost({ title: `Hromadný zápis ${i}`, content: "<p>Z kroniky.</p>", excerpt: "Z kroniky.", image, authorId: author.id, tags: ["Ostatné"], createdAt: at++ })),
    )();
    sqlite.prepare("DELETE FROM post_texts WHERE post_id IN (SELECT value FROM json_each(?))").run(JSON.stringify(ids));
    expect(indexMissingPosts()).toBe(600);
    expect(segments()).toEqual([1, 1]);
    expect(titles("hromadny")[0]).toBe("Hromadný zápis 599");
    sqlite.prepare("DELETE FROM posts WHERE id IN (SELECT value FROM json_each(?))").run(JSON.stringify(ids));
  });

  it("lists title matches first and each kind newest first, however many articles match", () => {
    const inText = add("Zápis najstarší", "Stojí to v letopise.");
    const inTitle = add("Letopis mesta", "Zápis o meste.");
    sqlite.transaction(() => {
      for (let i = 0; i < 300; i++) add(`Zápis ${i}`, "Stojí to v letopise.");
    })();
    const newestInTitle = add("Letopis kláštora", "Iný zápis.");
    const posts = find("letopis", null, 10);
    expect(posts.map((post) => post.title)).toEqual(["Letopis kláštora", "Letopis mesta", ...Array.from({ length: 8 }, (_, i) => `Zápis ${299 - i}`)]);
    expect(find("letopis", null, 180).map((post) => post.id)).not.toContain(inText);
    expect(find("letopis", null, 180).slice(0, 2).map((post) => post.id)).toEqual([newestInTitle, inTitle]);
  });

  it("fills its page past hidden articles, and looks past at most 100 of them", () => {
    const older = sqlite.transaction(() => Array.from({ length: 12 }, (_, i) => add(`Skrytá kronika ${i}`, "Text.")))();
    const newer = sqlite.transaction(() => Array.from({ length: 101 }, (_, i) => add(`Skrytá kronika novšia ${i}`, "Text.")))();
    const shown = () => find("skryta kronika", null, 10).map((post) => post.title);
    for (const id of newer.slice(-5)) setPostHidden(id, Date.now());
    // Five hidden among the first ten matches: the page still has ten, and the next is there for "Načítaj viac".
    expect(shown()).toEqual(Array.from({ length: 10 }, (_, i) => `Skrytá kronika novšia ${95 - i}`));
    expect(find("skryta kronika", null, 11).map((post) => post.title)[10]).toBe("Skrytá kronika novšia 85");
    for (const id of newer) setPostHidden(id, Date.now());
    // 101 hidden before the first readable one: past the bound, the page is short rather than dear.
    expect(find("skryta kronika", null, 1)).toEqual([]);
    setPostHidden(newer[100], null);
    expect(find("skryta kronika", null, 1).map((post) => post.title)).toEqual(["Skrytá kronika novšia 100"]);
    setPostHidden(newer[100], Date.now());
    // A page of 10 reads up to 110 matches: 101 hidden, then the 9 newest of the older ones.
    expect(shown()).toEqual(Array.from({ length: 9 }, (_, i) => `Skrytá kronika ${11 - i}`));
    sqlite.prepare("DELETE FROM posts WHERE id IN (SELECT value FROM json_each(?))").run(JSON.stringify([...older, ...newer]));
  });

  it("finds within a period by its words in the index, and follows a change of the period", () => {
    const edit = (id: string, title: string, period?: string) =>
      updatePost(id, { title, content: "<p>Bitka.</p>", sources: [], excerpt: "Bitka.", period }, { editorId: author.id, summary: "" });
    const moravia = add("Bitka na Moravskom poli", "Bitka.", ["Stredovek"], "26. 8. 1278");
    add("Bitka pri Moháči", "Bitka.", ["Ostatné"], "29. 8. 1526");
    add("Bitka bez obdobia", "Bitka.");
    expect(titlesIn({ century: 13 }, "bitka")).toEqual(["Bitka na Moravskom poli"]);
    expect(titlesIn({ from: 1500, to: 1600 }, "bitka")).toEqual(["Bitka pri Moháči"]);
    expect(titlesIn({ from: null, to: 1526 }, "bitka")).toEqual(["Bitka pri Moháči", "Bitka na Moravskom poli"]);
    expect(titlesIn({ from: 1527, to: null }, "bitka")).toEqual([]);
    expect(titlesIn({ century: 13 }, "bitka", "Stredovek")).toEqual(["Bitka na Moravskom poli"]);
    expect(titlesIn({ century: 13 }, "bitka", "Ostatné")).toEqual([]);
    // Found by the text too (the second question), not only the title.
    expect(titlesIn({ century: 13 }, "bitka moravsk")).toEqual(["Bitka na Moravskom poli"]);
    edit(moravia, "Bitka na Moravskom poli", "1526");
    expect(titlesIn({ century: 13 }, "bitka")).toEqual([]);
    expect(titlesIn({ century: 16 }, "bitka")).toEqual(["Bitka pri Moháči", "Bitka na Moravskom poli"]);
    // An edit without a period keeps the article's, and its words; one with an empty period removes them.
    edit(moravia, "Bitka na Moravskom poli a Suchých Krutoch");
    expect(titlesIn({ century: 16 }, "suchych")).toEqual(["Bitka na Moravskom poli a Suchých Krutoch"]);
    expect(titles("suchych", "Stredovek")).toEqual(["Bitka na Moravskom poli a Suchých Krutoch"]);
    edit(moravia, "Bitka na Moravskom poli", "");
    expect(titlesIn({ century: 16 }, "bitka")).toEqual(["Bitka pri Moháči"]);
    expect(titlesIn({ from: null, to: null }, "bitka")).toEqual(["Bitka pri Moháči"]);
  });

  it("gives the articles of an older database their period's words (migration 0021)", () => {
    const id = add("Korunovácia v Bratislave", "Korunovácia.", ["Osobnosti"], "1563");
    // As before the migration: only the tags' words.
    const rows = sqlite.prepare<[], { id: number; tags: string }>("SELECT id, tags FROM post_texts").all();
    const setTags = sqlite.prepare("UPDATE post_texts SET tags = ? WHERE id = ?");
    for (const row of rows) setTags.run(row.tags.split(" ").filter((word) => !word.startsWith("\uE001")).join(" "), row.id);
    expect(titlesIn({ century: 16 }, "korunov")).toEqual([]);
    const migration = readFileSync(new URL("../../../drizzle/0021_period_words.sql", import.meta.url), "utf8");
    for (const statement of migration.split("--> statement-breakpoint")) sqlite.exec(statement);
    expect(titlesIn({ century: 16 }, "korunov", "Osobnosti")).toEqual(["Korunovácia v Bratislave"]);
    const tags = sqlite.prepare("SELECT tags FROM post_texts WHERE post_id = ?").pluck().get(id);
    expect(tags).toBe([tagToken("Osobnosti"), ...periodWords(periodColumns("1563").periodStart)].join(" "));
    // Articles without a period keep only their tags' words.
    expect(sqlite.prepare("SELECT count(*) FROM post_texts t JOIN posts p ON p.id = t.post_id WHERE p.period_start IS NULL AND instr(t.tags, char(57345))").pluck().get()).toBe(0);
    // And the update triggers it made again keep the index in step.
    updatePost(id, { title: "Korunovácia v Prešporku", content: "<p>Korunovácia.</p>", sources: [], excerpt: "", period: "1563" }, { editorId: author.id, summary: "" });
    expect(titlesIn({ century: 16 }, "presporku")).toEqual(["Korunovácia v Prešporku"]);
    expect(titlesIn({ century: 16 }, "bratislave")).toEqual([]);
  });

  it("reads only the beginning of a long text for the excerpt", () => {
    add("Dlhý článok o Devíne", `${"slovo ".repeat(2_000)}koniec`);
    const [hit] = find("devine");
    expect(hit.body.length).toBe(5_000);
  });
});
