import { describe, expect, it } from "vitest";
import { sqlite } from "~/db/connection.server";
import { formatMonth, recentMonths } from "~/lib/time/dates";
import { decisionCount, isCanonicalPage, publicLogHref } from "~/lib/moderation/public-log";
import { publicLogQueries } from "~/models/decisions.server";

describe("the months of the public log", () => {
  it("begin at midnight in Bratislava, in winter and in summer time", () => {
    // 00:30 on 1 April in Bratislava (summer time, UTC+2) is still 31 March in UTC.
    const [april, march, february] = recentMonths(Date.UTC(2026, 2, 31, 22, 30), 3);
    expect(formatMonth(april.from)).toBe("apríl 2026");
    expect(new Date(april.from).toISOString()).toBe("2026-03-31T22:00:00.000Z");
    expect(new Date(april.to).toISOString()).toBe("2026-04-30T22:00:00.000Z");
    expect(new Date(march.from).toISOString()).toBe("2026-02-28T23:00:00.000Z");
    expect(march.to).toBe(april.from);
    expect(february.to).toBe(march.from);
    // Across a new year, in winter time (UTC+1).
    const [january, december] = recentMonths(Date.UTC(2026, 11, 31, 23, 30), 2);
    expect(formatMonth(january.from)).toBe("január 2027");
    expect(formatMonth(december.from)).toBe("december 2026");
    expect(new Date(december.from).toISOString()).toBe("2026-11-30T23:00:00.000Z");
  });

  it("are 24 at most, each a range that follows the next older one", () => {
    const months = recentMonths(Date.now(), 24);
    expect(months).toHaveLength(24);
    for (let i = 1; i < months.length; i++) expect(months[i].to).toBe(months[i - 1].from);
  });
});

describe("the public log's addresses", () => {
  it("writes the first page without a number and knows any other spelling", () => {
    expect(publicLogHref(1)).toBe("/moderation");
    expect(publicLogHref(3)).toBe("/moderation?page=3");
    expect(isCanonicalPage(null, 1)).toBe(true);
    expect(isCanonicalPage("3", 3)).toBe(true);
    for (const [raw, page] of [["1", 1], ["03", 3], ["9", 3], [null, 3], ["abc", 1]] as const) expect(isCanonicalPage(raw, page), String(raw)).toBe(false);
  });

  it("counts decisions in Slovak", () => {
    expect([1, 3, 5, 1234].map(decisionCount)).toEqual(["1 rozhodnutie", "3 rozhodnutia", "5 rozhodnutí", "1\u00a0234 rozhodnutí"]);
  });
});

describe("the public log's queries use the index of decision times", () => {
  const plan = (sql: string, params: unknown[]) => (sqlite.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((row) => row.detail).join(" | ");

  it("a page: its ids from moderation_decisions_created_idx alone (a deep page skips index entries), then 25 rows by key", () => {
    const { sql, params } = publicLogQueries.page({ offset: 100_000, limit: 25 }).toSQL();
    const steps = plan(sql, params);
    expect(steps).toContain("SCAN moderation_decisions USING COVERING INDEX moderation_decisions_created_idx");
    expect(steps).toMatch(/SEARCH moderation_decisions USING INTEGER PRIMARY KEY \(rowid=\?\)/);
  });

  it("the month table: one search of the index per month, never a scan of the table", () => {
    const steps = plan(publicLogQueries.months.replace(/:\w+/g, "?"), ["[]", "[]"]);
    expect(steps).toMatch(/SEARCH d USING (COVERING )?INDEX moderation_decisions_created_idx \(created_at>\? AND created_at<\?\)/);
    expect(steps).not.toMatch(/SCAN (d|moderation_decisions)\b/);
  });
});
