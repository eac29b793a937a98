import type { IncomingMessage } from "node:http";
import { afterEach, describe, expect, it, vi } from "vitest";
import { sqlite } from "~/db/connection.server";
import { readCount, readsSentence } from "~/lib/reads";
import { siteDay } from "~/lib/time/dates";
import { deletePost, insertPost, postState, setPostHidden } from "~/models/posts.server";
import { addReads, mostReadPosts, readsOfPosts, readsOfSite, type ReadBatch } from "~/models/reads.server";
import { createUser } from "~/models/users.server";
import { createReadCounter } from "~/services/articles/reads.server";
import { articleRead } from "../../../server/reads";

const DAY = Date.UTC(2026, 10, 20) / 86_400_000;

describe("the words of reads", () => {
  it("counts reads in Slovak: 1 prečítanie, 2–4 prečítania, 0 and 5 and more prečítaní", () => {
    expect([0, 1, 2, 4, 5, 12, 22, 101].map(readCount)).toEqual([
      "0 prečítaní",
      "1 prečítanie",
      "2 prečítania",
      "4 prečítania",
      "5 prečítaní",
      "12 prečítaní",
      "22 prečítaní",
      "101 prečítaní",
    ]);
    // Each part holds together on a narrow screen: no-break spaces within, a plain one on each side of the dot.
    const spaced = (sentence: string) => sentence.replaceAll("\u00a0", "_");
    expect(spaced(readsSentence({ week: 12, month: 40 }))).toBe("12_prečítaní_za_7_dní · 40_za_30_dní");
    expect(spaced(readsSentence({ week: 1, month: 3 }))).toBe("1_prečítanie_za_7_dní · 3_za_30_dní");
    expect(spaced(readsSentence({ week: 0, month: 0 }))).toBe("Za_30_dní_žiadne_prečítanie");
  });

  it("counts by the day of Europe/Bratislava, as the pages show dates, in winter and in summer time", () => {
    const day = (y: number, m: number, d: number) => Date.UTC(y, m - 1, d) / 86_400_000;
    // 23:14 UTC on 28 November is 00:14 on the 29th in Bratislava (UTC+1).
    expect(siteDay(Date.parse("2026-11-28T22:59:59Z"))).toBe(day(2026, 11, 28));
    expect(siteDay(Date.parse("2026-11-28T23:14:00Z"))).toBe(day(2026, 11, 29));
    // Summer time (UTC+2).
    expect(siteDay(Date.parse("2026-07-01T21:59:00Z"))).toBe(day(2026, 7, 1));
    expect(siteDay(Date.parse("2026-07-01T22:00:00Z"))).toBe(day(2026, 7, 2));
  });
});

describe("the read counter", () => {
  afterEach(() => vi.useRealTimers());

  function counter({ shown = (id: string) => id.startsWith("a"), day = () => DAY, fail = false } = {}) {
    const writes: { batch: ReadBatch; today?: number }[] = [];
    const asked: string[] = [];
    const errors: unknown[] = [];
    const reads = createReadCounter({
      write: (batch, today) => {
        if (fail) throw new Error("SQLITE_FULL");
        // Copied: the counter must not touch a batch once handed over.
        writes.push({ batch: batch.map(({ day, counts }) => ({ day, counts: new Map(counts) })), today });
      },
      isShown: (id) => {
        asked.push(id);
        return shown(id);
      },
      intervalMs: 15_000,
      dayOf: day,
      onError: (error) => errors.push(error),
    });
    return { reads, writes, asked, errors };
  }

  it("keeps counts in memory and writes them as one batch when the interval has passed, then starts empty", () => {
    vi.useFakeTimers();
    const { reads, writes } = counter();
    for (let i = 0; i < 5; i++) reads.count("a1");
    reads.count("a2");
    expect(reads.waiting()).toBe(2);
    vi.advanceTimersByTime(14_999);
    expect(writes).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(writes).toEqual([{ batch: [{ day: DAY, counts: new Map([["a1", 5], ["a2", 1]]) }], today: DAY }]);
    expect(reads.waiting()).toBe(0);
    // Nothing counted, nothing written; the next count starts the next batch.
    vi.advanceTimersByTime(60_000);
    expect(writes).toHaveLength(1);
    reads.count("a1");
    vi.advanceTimersByTime(15_000);
    expect(writes[1].batch).toEqual([{ day: DAY, counts: new Map([["a1", 1]]) }]);
    // The days past those kept are forgotten once a day, with its first batch.
    expect(writes[1].today).toBeUndefined();
  });

  it("takes an id only when it is an article shown, and asks once per article and batch: made-up ids take no room", () => {
    vi.useFakeTimers();
    const { reads, asked, writes } = counter();
    for (let i = 0; i < 10_000; i++) reads.count(`x${i}`);
    expect(reads.waiting()).toBe(0);
    // Nothing held, so nothing to write and no timer.
    expect(vi.getTimerCount()).toBe(0);
    asked.length = 0;
    for (let i = 0; i < 100; i++) reads.count("a1");
    expect(asked).toEqual(["a1"]);
    reads.flush();
    reads.count("a1");
    expect(asked).toEqual(["a1", "a1"]);
    expect(writes[0].batch[0].counts.get("a1")).toBe(100);
  });

  it("keeps each day's counts apart when a day ends within a batch", () => {
    let day = DAY;
    const { reads, writes } = counter({ day: () => day });
    reads.count("a1");
    reads.count("a1");
    day = DAY + 1;
    reads.count("a1");
    reads.count("a2");
    reads.flush();
    expect(writes).toEqual([
      {
        batch: [
          { day: DAY, counts: new Map([["a1", 2]]) },
          { day: DAY + 1, counts: new Map([["a1", 1], ["a2", 1]]) },
        ],
        today: DAY + 1,
      },
    ]);
  });

  it("writes what waits when it closes (the server's stop), and counts nothing after", () => {
    const { reads, writes } = counter();
    reads.count("a1");
    reads.close();
    expect(writes).toEqual([{ batch: [{ day: DAY, counts: new Map([["a1", 1]]) }], today: DAY }]);
    reads.count("a1");
    reads.flush();
    expect(writes).toHaveLength(1);
    expect(reads.waiting()).toBe(0);
  });

  it("drops a batch it cannot write (a full disk), says so, and goes on counting", () => {
    const { reads, errors } = counter({ fail: true });
    reads.count("a1");
    reads.flush();
    expect(errors).toHaveLength(1);
    expect(reads.waiting()).toBe(0);
    reads.count("a1");
    expect(reads.waiting()).toBe(1);
  });
});

describe("post_reads", () => {
  const author = createUser({ displayName: "Čítaná Autorka", email: `reads-${Date.now()}@example.com`, passwordHash: null })!;
  const image = { key: "x", width: 800, height: 500 };
  const add = (title: string) => insertPost({ title, content: "<p>Text.</p>", excerpt: "Text.", image, authorId: author.id, tags: ["Ostatné"] });
  const rows = (postId: string) => sqlite.prepare("SELECT day, count FROM post_reads WHERE post_id = ? ORDER BY day").all(postId);
  const batch = (day: number, counts: Record<string, number>): ReadBatch => [{ day, counts: new Map(Object.entries(counts)) }];

  it("adds each batch to the article's row of its day (an upsert), in one transaction, skipping an article deleted meanwhile", () => {
    const [one, two, gone] = [add("Prvý"), add("Druhý"), add("Zmazaný")];
    deletePost(gone);
    addReads(batch(DAY, { [one]: 3, [two]: 1, [gone]: 5 }));
    addReads([...batch(DAY, { [one]: 2 }), ...batch(DAY + 1, { [one]: 1 })]);
    expect(rows(one)).toEqual([
      { day: DAY, count: 5 },
      { day: DAY + 1, count: 1 },
    ]);
    expect(rows(two)).toEqual([{ day: DAY, count: 1 }]);
    expect(rows(gone)).toEqual([]);
    // A failure inside a batch writes none of it.
    const before = rows(one);
    expect(() => addReads([{ day: DAY, counts: new Map<string, number>([[one, 1], [two, Number.NaN]]) }])).toThrow();
    expect(rows(one)).toEqual(before);
    // An article's counts go with it.
    deletePost(two);
    expect(rows(two)).toEqual([]);
  });

  it("sums the last 7 and the last 30 days, today included, and forgets days older than 31", () => {
    const post = add("Čítaný");
    const today = DAY + 100;
    // Today and 6 days ago are in the week, 7 days ago not; 29 days ago is in the month, 30 days ago not (but kept: 31
    // days are), 31 and 32 days ago are forgotten.
    const counts: [number, number][] = [[0, 1], [6, 2], [7, 4], [29, 8], [30, 16], [31, 32], [32, 64]];
    for (const [ago, n] of counts) addReads(batch(today - ago, { [post]: n }));
    expect(readsOfPosts([post, "missing"], today)).toEqual(new Map([[post, { week: 3, month: 15 }]]));
    // Other tests' older rows go too.
    expect(addReads([], today)).toBeGreaterThanOrEqual(2);
    expect(rows(post).map((row) => (row as { day: number }).day)).toEqual(counts.slice(0, -2).map(([ago]) => today - ago).reverse());
    expect(readsOfPosts([post], today).get(post)).toEqual({ week: 3, month: 15 });
  });

  it("lists the most read articles by 7 or 30 days, with their authors, hidden ones marked", () => {
    const today = DAY + 500;
    const [steady, fresh, hidden] = [add("Stály"), add("Nový"), add("Skrytý")];
    addReads(batch(today - 20, { [steady]: 50 }));
    addReads(batch(today, { [steady]: 1, [fresh]: 10, [hidden]: 2 }));
    setPostHidden(hidden, Date.now());
    expect(postState(hidden)).toBe("hidden");
    expect(mostReadPosts(today, "month", 10).map(({ title, week, month }) => [title, week, month])).toEqual([
      ["Stály", 1, 51],
      ["Nový", 10, 10],
      ["Skrytý", 2, 2],
    ]);
    expect(mostReadPosts(today, "week", 2).map(({ title, author, hidden }) => [title, author, hidden])).toEqual([
      ["Nový", "Čítaná Autorka", false],
      ["Skrytý", "Čítaná Autorka", true],
    ]);
    expect(readsOfSite(today)).toEqual({ week: 13, month: 63 });
    // Only days in the window: a week later the fresh ones are out of the week.
    expect(mostReadPosts(today + 7, "week", 10)).toEqual([]);
  });

  it("is what the counter writes, with the real checks: an unknown or hidden article is never held", () => {
    const shown = add("Ukázaný");
    const hidden = add("Skrytý tiež");
    setPostHidden(hidden, Date.now());
    const reads = createReadCounter({ write: addReads, isShown: (id) => postState(id) === "shown", intervalMs: 60_000, dayOf: () => DAY + 1000 });
    for (const id of [shown, shown, hidden, "nonexistent", shown]) reads.count(id);
    expect(reads.waiting()).toBe(1);
    reads.flush();
    expect(rows(shown)).toEqual([{ day: DAY + 1000, count: 3 }]);
    expect(rows(hidden)).toEqual([]);
  });
});

describe("which requests are reads (server/reads.ts)", () => {
  const FIREFOX = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:132.0) Gecko/20100101 Firefox/132.0";
  const request = (headers: Record<string, string> = {}, method = "GET") => ({ method, headers: { "user-agent": FIREFOX, ...headers } }) as unknown as IncomingMessage;
  const read = (url: string, { headers = {}, method = "GET", status = 200 }: { headers?: Record<string, string>; method?: string; status?: number } = {}) =>
    articleRead(request(headers, method), url, status);

  it("is a GET of an article's page or of its data as a navigation asks for it, answered 200", () => {
    expect(read("/posts/abc_-9")).toBe("abc_-9");
    expect(read("/posts/abc?tag=Morava&limit=18")).toBe("abc");
    expect(read("/posts/abc.data")).toBe("abc");
    expect(read("/posts/abc.data?_routes=routes%2Fposts.%24postId", { headers: { referer: "http://dejiny.test/posts" } })).toBe("abc");
    // A text browser is a reader.
    expect(read("/posts/abc", { headers: { "user-agent": "w3m/0.5.3" } })).toBe("abc");
  });

  it("is not anything else", () => {
    expect(read("/posts/abc", { method: "HEAD" })).toBeNull();
    expect(read("/posts/abc", { method: "POST" })).toBeNull();
    for (const status of [304, 404, 500, 503]) expect(read("/posts/abc", { status })).toBeNull();
    for (const url of ["/posts", "/posts/abc/history", "/posts/abc/report", "/posts/abc/", "/posts/a%62c", "/posts/abc?edit", "/posts/abc?tag=X&edit=", "/posts/abc.data?edit"]) {
      expect(read(url), url).toBeNull();
    }
    // Another route's data only.
    expect(read("/posts/abc.data?_routes=routes%2Fposts")).toBeNull();
    // Fetched ahead.
    for (const headers of [{ "sec-purpose": "prefetch" }, { "sec-purpose": "prefetch;prerender" }, { purpose: "prefetch" }, { "x-purpose": "preview" }, { "x-moz": "prefetch" }] as Record<string, string>[]) {
      expect(read("/posts/abc", { headers }), JSON.stringify(headers)).toBeNull();
    }
    // Bots and programs.
    for (const agent of ["Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", "curl/8.5.0", "node", "HeadlessChrome/131.0"]) {
      expect(read("/posts/abc", { headers: { "user-agent": agent } }), agent).toBeNull();
    }
    // The article's data asked again from its own page (after a form sent from it).
    expect(read("/posts/abc.data", { headers: { referer: "http://dejiny.test/posts/abc" } })).toBeNull();
    expect(read("/posts/abc.data", { headers: { referer: "http://dejiny.test/posts/abcd" } })).toBe("abc");
  });
});
