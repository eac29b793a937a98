import { describe, expect, it } from "vitest";
import { periodWords, periodWordsBetween } from "~/lib/period-words";
import { momentKey, periodFilterKeys, type PeriodFilter } from "~/lib/time/periods";

/** Every astronomical year a period may start in (10,000 BC is −9999). */
const YEARS = Array.from({ length: 20_000 }, (_, i) => i - 9_999);
const keyOf = (year: number, month = 0, day = 0) => momentKey({ year, month, day });

/** The years whose words meet the filter's words, and how many of the words each meets. */
function yearsFound(filter: PeriodFilter): { found: number[]; meetings: Set<number> } {
  const words = new Set(periodWordsBetween(periodFilterKeys(filter)));
  const found: number[] = [];
  const meetings = new Set<number>();
  for (const year of YEARS) {
    const met = periodWords(keyOf(year, 6, 15)).filter((word) => words.has(word)).length;
    if (met > 0) found.push(year);
    meetings.add(met);
  }
  return { found, meetings };
}

describe("an article's time as words of the search index", () => {
  it("names a century of the readers, either side of Christ, in one word that every year of it has", () => {
    expect(periodWordsBetween(periodFilterKeys({ century: 9 }))).toHaveLength(1);
    expect(yearsFound({ century: 9 }).found).toEqual(YEARS.filter((year) => year >= 801 && year <= 900));
    expect(periodWordsBetween(periodFilterKeys({ century: -1 }))).toHaveLength(1);
    // 100 BC to 1 BC: astronomical −99 to 0.
    expect(yearsFound({ century: -1 }).found).toEqual(YEARS.filter((year) => year >= -99 && year <= 0));
    expect(periodWordsBetween(periodFilterKeys({ century: 100 }))).toHaveLength(1);
    expect(periodWordsBetween(periodFilterKeys({ century: -100 }))).toHaveLength(1);
  });

  it("covers every year of a range exactly once and no other, in at most 72 words", () => {
    const ranges: PeriodFilter[] = [
      { from: null, to: null },
      { from: -10_000, to: 10_000 },
      { from: -9_999, to: 9_999 },
      { from: 1526, to: 1526 },
      { from: -44, to: 14 },
      { from: -1, to: 1 },
      { from: 1500, to: null },
      { from: null, to: -500 },
    ];
    // And some anywhere, the same each run.
    let seed = 7;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const year = () => {
      const y = Math.floor(random() * 20_001) - 10_000;
      return y === 0 ? 1 : y;
    };
    for (let i = 0; i < 12; i++) {
      const [a, b] = [year(), year()].sort((x, y) => x - y);
      ranges.push({ from: a, to: b });
    }
    for (const filter of ranges) {
      const { first, last } = periodFilterKeys(filter);
      const { found, meetings } = yearsFound(filter);
      expect(found, JSON.stringify(filter)).toEqual(YEARS.filter((y) => keyOf(y) >= first && keyOf(y, 12, 31) <= last));
      // The spans do not overlap: a year meets one word of the filter or none.
      expect([...meetings].every((met) => met <= 1), JSON.stringify(filter)).toBe(true);
      expect(periodWordsBetween({ first, last }).length).toBeLessThanOrEqual(72);
    }
    // The most words: a range from just after one millennium's start to just before another's end.
    expect(periodWordsBetween(periodFilterKeys({ from: -9_999, to: 9_999 }))).toHaveLength(72);
  });

  it("gives an article without a period no words, and words nobody types", () => {
    expect(periodWords(null)).toEqual([]);
    // A precise day is its year's.
    expect(periodWords(keyOf(1526, 8, 29))).toEqual(periodWords(keyOf(1526)));
    for (const word of periodWords(keyOf(-43, 3, 15))) expect(word).toMatch(/^\uE001[kcdy]\d+$/);
  });
});
