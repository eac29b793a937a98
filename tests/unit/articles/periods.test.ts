import { describe, expect, it } from "vitest";
import {
  centuryKeys,
  centuryLabel,
  centuryOf,
  decadeLabel,
  describePeriod,
  isoPeriod,
  parsePeriod,
  PERIOD_MAX_LENGTH,
  PERIOD_MESSAGES,
  periodDayOfYear,
  periodSortKey,
  periodUnderstood,
  readCentury,
  tidyPeriod,
  yearWords,
} from "~/lib/time/periods";

/** Typed, then the ISO 8601 period it means, its words, and its precision(s). */
const VALID: [typed: string, iso: string, words: string][] = [
  ["1526", "1526", "rok 1526"],
  [" 1526 ", "1526", "rok 1526"],
  ["rok 1526", "1526", "rok 1526"],
  ["v roku 1526", "1526", "rok 1526"],
  ["1", "0001", "rok 1"],
  ["10000", "+10000", "rok 10000"],
  ["862–885", "0862/0885", "od roku 862 do roku 885"],
  ["862 – 885", "0862/0885", "od roku 862 do roku 885"],
  ["862-885", "0862/0885", "od roku 862 do roku 885"],
  ["862 - 885", "0862/0885", "od roku 862 do roku 885"],
  ["862—885", "0862/0885", "od roku 862 do roku 885"],
  ["862 \u2212 885", "0862/0885", "od roku 862 do roku 885"],
  ["1526–1526", "1526", "rok 1526"],
  ["29. 8. 1526", "1526-08-29", "29. augusta 1526"],
  ["29.8.1526", "1526-08-29", "29. augusta 1526"],
  ["29. augusta 1526", "1526-08-29", "29. augusta 1526"],
  ["29.\u00a08.\u00a01526", "1526-08-29", "29. augusta 1526"],
  ["1. 1. 2000", "2000-01-01", "1. januára 2000"],
  ["29. 2. 2000", "2000-02-29", "29. februára 2000"],
  ["29. 2. 1500", "1500-02-29", "29. februára 1500"],
  ["31. 12. 1999", "1999-12-31", "31. decembra 1999"],
  ["28. 10. 1918 – 14. 3. 1939", "1918-10-28/1939-03-14", "od 28. októbra 1918 do 14. marca 1939"],
  ["15. 3. 44 pred Kr.", "-0043-03-15", "15. marca 44 pred Kr."],
  ["44 pred Kr.", "-0043", "rok 44 pred Kr."],
  ["44 pred kr", "-0043", "rok 44 pred Kr."],
  ["44 pr. Kr.", "-0043", "rok 44 pred Kr."],
  ["44 p. n. l.", "-0043", "rok 44 pred Kr."],
  ["44 pred n. l.", "-0043", "rok 44 pred Kr."],
  ["1 pred Kr.", "0000", "rok 1 pred Kr."],
  ["2 pred Kr.", "-0001", "rok 2 pred Kr."],
  ["14 po Kr.", "0014", "rok 14"],
  ["14 n. l.", "0014", "rok 14"],
  ["okolo 500 pred Kr. – 476", "-0499/0476", "približne od roku 500 pred Kr. do roku 476 po Kr."],
  ["okolo 500 pred Kr. - 476", "-0499/0476", "približne od roku 500 pred Kr. do roku 476 po Kr."],
  ["500 – 400 pred Kr.", "-0499/-0399", "od roku 500 pred Kr. do roku 400 pred Kr."],
  ["44 pred Kr. – 14 po Kr.", "-0043/0014", "od roku 44 pred Kr. do roku 14 po Kr."],
  ["okolo 1000", "1000", "okolo roku 1000"],
  ["cca 1000", "1000", "okolo roku 1000"],
  ["cca. 1000", "1000", "okolo roku 1000"],
  ["asi 1000", "1000", "okolo roku 1000"],
  ["približne 1000", "1000", "okolo roku 1000"],
  ["9. stor.", "0801/0900", "9. storočie"],
  ["9. storočie", "0801/0900", "9. storočie"],
  ["9.stor", "0801/0900", "9. storočie"],
  ["20. storočie", "1901/2000", "20. storočie"],
  ["1. stor. pred Kr.", "-0099/0000", "1. storočie pred Kr."],
  ["5. stor. pred Kr.", "-0499/-0400", "5. storočie pred Kr."],
  ["9. – 10. stor.", "0801/1000", "od 9. do 10. storočia"],
  ["9.–10. storočie", "0801/1000", "od 9. do 10. storočia"],
  ["2. – 1. stor. pred Kr.", "-0199/0000", "od 2. do 1. storočia pred Kr."],
  ["1920. roky", "1920/1929", "20. roky 20. storočia"],
  ["1920-te roky", "1920/1929", "20. roky 20. storočia"],
  ["1920 te roky", "1920/1929", "20. roky 20. storočia"],
  ["90. roky pred Kr.", "-0098/-0089", "90. roky 1. storočia pred Kr."],
  ["9990. roky pred Kr.", "-9998/-9989", "90. roky 100. storočia pred Kr."],
  ["1920. – 1930. roky", "1920/1939", "od 20. do 30. rokov 20. storočia"],
  ["OKOLO 500 PRED KR.", "-0499", "okolo roku 500 pred Kr."],
  ["29. 8. 1526 – 1541", "1526-08-29/1541", "od 29. augusta 1526 do roku 1541"],
  // Every shape in a range, in the genitive ("od … do …"), as a Slovak reader says it.
  ["1848 – 1849", "1848/1849", "od roku 1848 do roku 1849"],
  ["9. stor. – 1526", "0801/1526", "od 9. storočia do roku 1526"],
  ["1840. roky – 1867", "1840/1867", "od 40. rokov 19. storočia do roku 1867"],
  ["1840. roky", "1840/1849", "40. roky 19. storočia"],
  ["1900. roky", "1900/1909", "nulté roky 20. storočia"],
  ["10. roky", "0010/0019", "10. roky 1. storočia"],
  ["1990. – 2000. roky", "1990/2009", "od 90. rokov 20. storočia do nultých rokov 21. storočia"],
  ["90. – 80. roky pred Kr.", "-0098/-0079", "od 90. do 80. rokov 1. storočia pred Kr."],
  ["10. roky pred Kr. – 10. roky", "-0018/0019", "od 10. rokov 1. storočia pred Kr. do 10. rokov 1. storočia po Kr."],
  ["1. stor. pred Kr. – 1. stor.", "-0099/0100", "od 1. storočia pred Kr. do 1. storočia po Kr."],
  ["okolo 9. stor.", "0801/0900", "okolo 9. storočia"],
  ["okolo 1840. roky", "1840/1849", "okolo 40. rokov 19. storočia"],
  ["okolo 29. 8. 1526", "1526-08-29", "okolo 29. augusta 1526"],
  ["okolo 9. – 10. stor.", "0801/1000", "približne od 9. storočia do 10. storočia"],
  ["1000 – okolo 1100", "1000/1100", "od roku 1000 približne do roku 1100"],
  ["okolo 1000 – okolo 1100", "1000/1100", "približne od roku 1000 približne do roku 1100"],
  ["44 pred Kr. – 14", "-0043/0014", "od roku 44 pred Kr. do roku 14 po Kr."],
  ["15. 3. 44 pred Kr. – 14. 4. 44 pred Kr.", "-0043-03-15/-0043-04-14", "od 15. marca 44 pred Kr. do 14. apríla 44 pred Kr."],
  ["9. stor. – 9. stor.", "0801/0900", "9. storočie"],
  ["1526 – 29. 8. 1526", "1526/1526-08-29", "od roku 1526 do 29. augusta 1526"],
  // An end that contains its start: the range runs to that end's end.
  ["29. 8. 1526 – 1526", "1526-08-29/1526", "od 29. augusta 1526 do konca roka"],
  ["29.8.1526-1526", "1526-08-29/1526", "od 29. augusta 1526 do konca roka"],
  ["15. 3. 44 – 44 pred Kr.", "-0043-03-15/-0043", "od 15. marca 44 pred Kr. do konca roka"],
  ["1526 – 16. stor.", "1526/1600", "od roku 1526 do konca 16. storočia"],
  ["1526 – 1520. roky", "1526/1529", "od roku 1526 do konca 20. rokov 16. storočia"],
  ["29. 8. 1526 – 1520. roky", "1526-08-29/1529", "od 29. augusta 1526 do konca 20. rokov 16. storočia"],
  ["1920. roky – 20. stor.", "1920/2000", "od 20. rokov 20. storočia do konca 20. storočia"],
  ["29. 8. 1526 – okolo 1526", "1526-08-29/1526", "od 29. augusta 1526 približne do konca roka"],
];

/** Typed, then the message the form shows. */
const INVALID: [typed: string, message: string][] = [
  ["0", PERIOD_MESSAGES.yearZero],
  ["0 pred Kr.", PERIOD_MESSAGES.yearZero],
  ["10001", PERIOD_MESSAGES.yearRange],
  ["20000 pred Kr.", PERIOD_MESSAGES.yearRange],
  ["999999", PERIOD_MESSAGES.yearRange],
  // A decade at a limit reaches past it: 10009–10000 BC, 10000–10009.
  ["10000. roky pred Kr.", PERIOD_MESSAGES.yearRange],
  ["10000. roky", PERIOD_MESSAGES.yearRange],
  ["885–862", PERIOD_MESSAGES.reversed],
  ["476 – 500 pred Kr.", PERIOD_MESSAGES.reversed],
  ["10. – 9. stor.", PERIOD_MESSAGES.reversed],
  ["14. 3. 1939 – 28. 10. 1918", PERIOD_MESSAGES.reversed],
  // A start that reaches past its end, or an end wholly before (or only partly over) its start.
  ["16. stor. – 1526", PERIOD_MESSAGES.reversed],
  ["1520. roky – 1525", PERIOD_MESSAGES.reversed],
  ["1526 – 29. 8. 1525", PERIOD_MESSAGES.reversed],
  ["29. 8. 1526 – 1525", PERIOD_MESSAGES.reversed],
  ["1940 – 1930. roky", PERIOD_MESSAGES.reversed],
  ["1601 – 16. stor.", PERIOD_MESSAGES.reversed],
  ["1900. roky – 19. stor.", PERIOD_MESSAGES.reversed],
  ["31. 4. 1526", PERIOD_MESSAGES.day(31, 4, "1526", 30)],
  ["31. 6. 2000", PERIOD_MESSAGES.day(31, 6, "2000", 30)],
  ["31. 9. 1939", PERIOD_MESSAGES.day(31, 9, "1939", 30)],
  ["31. 11. 1989", PERIOD_MESSAGES.day(31, 11, "1989", 30)],
  ["29. 2. 1900", PERIOD_MESSAGES.day(29, 2, "1900", 28)],
  ["30. 2. 2000", PERIOD_MESSAGES.day(30, 2, "2000", 29)],
  ["0. 1. 2000", PERIOD_MESSAGES.day(0, 1, "2000", 31)],
  ["1. 13. 2000", PERIOD_MESSAGES.month(13)],
  ["1. 0. 2000", PERIOD_MESSAGES.month(0)],
  ["1526 рred Kr.", PERIOD_MESSAGES.mixedScripts],
  ["1526 pred Κr.", PERIOD_MESSAGES.mixedScripts],
  ["okоlo 1000", PERIOD_MESSAGES.mixedScripts],
  ["１５２６", PERIOD_MESSAGES.characters],
  ["1526?", PERIOD_MESSAGES.characters],
  ["<script>", PERIOD_MESSAGES.characters],
  ["1526\u202e", PERIOD_MESSAGES.characters],
  ["x".repeat(10_000), PERIOD_MESSAGES.tooLong],
  ["1".repeat(101), PERIOD_MESSAGES.tooLong],
  [`${" ".repeat(150)}1526`, PERIOD_MESSAGES.tooLong],
  ["1 – 2 – 3", PERIOD_MESSAGES.tooManyParts],
  ["1526 – 1527 – 1528", PERIOD_MESSAGES.tooManyParts],
  ["pred Kr.", PERIOD_MESSAGES.notUnderstood("pred kr.")],
  ["Moháč", PERIOD_MESSAGES.notUnderstood("moháč")],
  ["-44", PERIOD_MESSAGES.notUnderstood("-44")],
  ["1526 pred Kr. pred Kr.", PERIOD_MESSAGES.eraTwice],
  ["101. stor.", PERIOD_MESSAGES.century],
  ["0. stor.", PERIOD_MESSAGES.century],
  ["1925. roky", PERIOD_MESSAGES.decade],
  ["29. smarca 1526", PERIOD_MESSAGES.notUnderstood("29. smarca 1526")],
  ["9.", PERIOD_MESSAGES.notUnderstood("9.")],
  ["9. – 10.", PERIOD_MESSAGES.notUnderstood("10.")],
  ["1526 –", PERIOD_MESSAGES.notUnderstood("")],
];

describe("reading the period an author typed", () => {
  it("has at least 60 Slovak inputs in its table", () => {
    expect(VALID.length + INVALID.length).toBeGreaterThanOrEqual(60);
  });

  it.each(VALID)("understands %j", (typed, iso, words) => {
    const result = parsePeriod(typed);
    expect(result).toMatchObject({ ok: true });
    if (!result?.ok) return;
    expect(isoPeriod(result.period)).toBe(iso);
    expect(describePeriod(result.period)).toBe(words);
  });

  it.each(INVALID)("refuses %j with a message", (typed, message) => {
    expect(parsePeriod(typed)).toEqual({ ok: false, error: message });
  });

  it("says what it understood as one sentence, and nothing for what it cannot read", () => {
    expect(periodUnderstood("1848 – 1849")).toBe("Rozumiem: od roku 1848 do roku 1849.");
    expect(periodUnderstood("9. stor. – 1526")).toBe("Rozumiem: od 9. storočia do roku 1526.");
    expect(periodUnderstood("29. 8. 1526 – 1526")).toBe("Rozumiem: od 29. augusta 1526 do konca roka.");
    expect(periodUnderstood("okolo 1000")).toBe("Rozumiem: okolo roku 1000.");
    expect(periodUnderstood("885 – 862")).toBeNull();
    expect(periodUnderstood("")).toBeNull();
  });

  it("takes an empty field as no period", () => {
    expect(parsePeriod("")).toBeNull();
    expect(parsePeriod("  \u00a0 ")).toBeNull();
  });

  it("reads hostile input in bounded time", () => {
    const inputs = ["1.".repeat(5_000), "1 -".repeat(5_000), "okolo ".repeat(2_000), "9. stor".repeat(1_000), `${"1 ".repeat(49)}pred kr.`, `${"1.".repeat(40)}stor.`];
    const started = performance.now();
    for (const input of inputs) expect(parsePeriod(input)).toMatchObject({ ok: false });
    expect(performance.now() - started).toBeLessThan(50);
  });
});

describe("numbers for sorting and for the calendar", () => {
  const period = (typed: string) => {
    const result = parsePeriod(typed);
    if (!result?.ok) throw new Error(typed);
    return result.period;
  };

  it("orders periods by their first moment, before Christ first, a day after its year", () => {
    const typed = ["okolo 500 pred Kr. – 476", "44 pred Kr.", "15. 3. 44 pred Kr.", "1. stor. pred Kr.", "1 pred Kr.", "14", "9. stor.", "862–885", "1526", "29. 8. 1526"];
    const sorted = [...typed].sort((a, b) => periodSortKey(period(a)) - periodSortKey(period(b)));
    expect(sorted).toEqual(["okolo 500 pred Kr. – 476", "1. stor. pred Kr.", "44 pred Kr.", "15. 3. 44 pred Kr.", "1 pred Kr.", "14", "9. stor.", "862–885", "1526", "29. 8. 1526"]);
  });

  it("knows the day of the year only of a precise date", () => {
    expect(periodDayOfYear(period("29. 8. 1526"))).toBe(829);
    expect(periodDayOfYear(period("29. 8. 1526 – 1541"))).toBe(829);
    expect(periodDayOfYear(period("1526"))).toBeNull();
    expect(periodDayOfYear(period("9. stor."))).toBeNull();
  });

  it("counts centuries as historians do", () => {
    expect([centuryOf(1), centuryOf(100), centuryOf(101), centuryOf(862), centuryOf(1900), centuryOf(1901), centuryOf(2026)]).toEqual([1, 1, 2, 9, 19, 20, 21]);
    expect([centuryOf(0), centuryOf(-99), centuryOf(-100), centuryOf(-43), centuryOf(-499)]).toEqual([-1, -1, -2, -1, -5]);
    expect(centuryKeys(9)).toEqual([8_010_000, 9_001_231]);
    expect(centuryKeys(-1)).toEqual([-990_000, 1231]);
    for (const century of [-30, -2, -1, 1, 2, 21]) {
      const [first, last] = centuryKeys(century);
      expect(centuryOf(Math.floor(first / 10_000))).toBe(century);
      expect(centuryOf(Math.floor(last / 10_000))).toBe(century);
    }
    expect(centuryLabel(9)).toBe("9. storočie");
    expect(centuryLabel(-1)).toBe("1. storočie pred Kr.");
    expect([decadeLabel(1925), decadeLabel(5), decadeLabel(-95), decadeLabel(-3)]).toEqual(["1920. roky", "1. – 9. rok", "90. roky pred Kr.", "9. – 1. rok pred Kr."]);
    expect([yearWords(1526), yearWords(0), yearWords(-43)]).toEqual(["1526", "1 pred Kr.", "44 pred Kr."]);
  });

  it("reads a century from an address only when it is one", () => {
    expect(["9", "-1", "21", "100", "-100"].map(readCentury)).toEqual([9, -1, 21, 100, -100]);
    expect(["0", "101", "1e2", " 9", "9.5", "", "x", "-0"].map(readCentury)).toEqual([null, null, null, null, null, null, null, null]);
    expect(readCentury(null)).toBeNull();
  });

  it("tidies what the author typed for display", () => {
    expect(tidyPeriod("  862-885 ")).toBe("862 – 885");
    expect(tidyPeriod("okolo 500 pred Kr.-476")).toBe("okolo 500 pred Kr. – 476");
    expect(tidyPeriod("1920-te  roky")).toBe("1920-te roky");
    expect(tidyPeriod("29. 8. 1526")).toBe("29. 8. 1526");
  });

  it("bounds a period as it is stored, tidied: a dash between digits gains two spaces", () => {
    const typed = `1${"-1".repeat(49)}`;
    expect(typed.length).toBeLessThanOrEqual(PERIOD_MAX_LENGTH);
    expect(tidyPeriod(typed).length).toBeGreaterThan(PERIOD_MAX_LENGTH);
    expect(parsePeriod(typed)).toEqual({ ok: false, error: PERIOD_MESSAGES.tooLong });
  });
});
