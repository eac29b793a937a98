/**
 * When an article's events happened: the period an author types ("1526",
 * "862 – 885", "29. 8. 1526", "44 pred Kr.", "okolo 500 pred Kr. – 476",
 * "9. stor.", "1920. roky"), read into numbers the site can sort by, and
 * written back as words and as ISO 8601.
 *
 * Years are astronomical inside (1 BC is 0, 2 BC is −1), as ISO 8601 counts
 * them; readers and authors see the historians' years (no year 0). The
 * input is bounded before any pattern reads it, and every pattern is
 * anchored, with no nested or adjacent unbounded repeats.
 */

export type Precision = "day" | "year" | "decade" | "century";

/** A calendar day or the first/last day of a year, decade or century (month and day 0: not said). */
export type Moment = { year: number; month: number; day: number };

/** One end of a period as the author wrote it: what it covers, how precisely, and whether "about". */
export type PeriodPoint = { from: Moment; to: Moment; precision: Precision; circa: boolean };

export type Period = { start: PeriodPoint; end: PeriodPoint | null };

export const PERIOD_MAX_LENGTH = 100;
/** The farthest year either way (historians' years). */
export const PERIOD_YEAR_LIMIT = 10_000;

export const PERIOD_MESSAGES = {
  tooLong: `Obdobie môže mať najviac ${PERIOD_MAX_LENGTH} znakov.`,
  characters: "Obdobie obsahuje znaky, ktoré v dátume nemajú miesto (píšte číslice, bodky, pomlčku a slová ako „pred Kr.“ či „stor.“).",
  mixedScripts: "Obdobie mieša písma: niektoré písmená nie sú latinské (napr. cyrilika alebo gréčtina). Napíšte ho latinkou.",
  tooManyParts: "Obdobie má najviac dva konce, oddelené pomlčkou (napr. 862 – 885).",
  notUnderstood: (part: string) =>
    `Nerozumiem „${part}“. Píšte rok (1526), dátum (29. 8. 1526), storočie (9. stor.), desaťročie (1920. roky) alebo rozsah s pomlčkou; pred Kr. za rok.`,
  yearZero: "Rok 0 neexistuje: po roku 1 pred Kr. nasleduje rok 1 po Kr.",
  yearRange: `Rok musí byť najviac ${PERIOD_YEAR_LIMIT.toLocaleString("sk-SK")} pred Kr. alebo po Kr.`,
  month: (month: number) => `Mesiac ${month} neexistuje (mesiace sú 1 až 12).`,
  day: (day: number, month: number, year: string, days: number) => `Dátum ${day}. ${month}. ${year} neexistuje: ${MONTH_NAMES[month - 1]} má v tom roku ${days} dní.`,
  decade: "Desaťročie začína rokom deliteľným desiatimi (napr. 1920. roky).",
  century: "Storočie píšte číslom 1 až 100 (napr. 9. stor. alebo 1. stor. pred Kr.).",
  reversed: "Koniec obdobia je skôr ako jeho začiatok. Napíšte najprv skorší dátum.",
  eraTwice: "Letopočet (pred Kr. / po Kr.) patrí za rok, raz na každom konci.",
} as const;

export const MONTH_NAMES = ["január", "február", "marec", "apríl", "máj", "jún", "júl", "august", "september", "október", "november", "december"];
/** Genitive, as a date says it ("29. augusta 1526"). */
const MONTHS_GENITIVE = ["januára", "februára", "marca", "apríla", "mája", "júna", "júla", "augusta", "septembra", "októbra", "novembra", "decembra"];

// ---------------------------------------------------------------- reading

/** Letters a Slovak (or Czech, Hungarian, German, Polish) date may contain: Latin ones. */
const ALLOWED = /^[0-9a-zà-žß .,\-–—]*$/;
/** Any letter of another script. */
const OTHER_SCRIPT = /[^\p{Script=Latin}\P{L}]/u;

const CIRCA = /^(?:okolo|asi|cca\.?|ca\.|c\.|približne)\s?/;
const BC = /\s*(?:pred\s?kr\.?|pr\.\s?kr\.?|p\.\s?n\.\s?l\.?|pred\s?n\.\s?l\.?|pred\s(?:naším|nasim)\sletopočtom)$/;
const AD = /\s*(?:po\s?kr\.?|n\.\s?l\.?|nášho\sletopočtu)$/;
const YEAR = /^(?:v\s)?(?:roku?\s)?(\d{1,6})$/;
const NUMERIC_DATE = /^(\d{1,2})\.\s?(\d{1,2})\.\s?(\d{1,6})$/;
const NAMED_DATE = /^(\d{1,2})\.\s?([a-zá-ž]{3,10})\s(\d{1,6})$/;
const CENTURY = /^(\d{1,3})\.\s?(?:stor\.?|storočie|storočia|st\.)$/;
const BARE_ORDINAL = /^(\d{1,6})\.$/;
/** Between the ends of a range: an en or em dash, or a hyphen between spaces or before a digit. */
const RANGE_DASH = /\s?[–—]\s?|\s-\s|(?<=[\d.])\s?-\s?(?=\d)/;
const DECADE = /^(\d{1,6})(?:\.\s?|\s?-?te\s)roky$/;

type Era = "bc" | "ad" | null;
type Read = { ok: true; point: PeriodPoint; era: Era; ordinal?: number } | { ok: false; error: string };
export type PeriodResult = { ok: true; period: Period } | { ok: false; error: string };

/** Typed text as the parser sees it: one spelling of letters, spaces and dashes. */
function normalized(typed: string): string {
  return typed
    .normalize("NFC")
    .toLowerCase()
    .replace(/[\u2010\u2011\u2212]/g, "-")
    .replace(/[\s\u00a0\u202f]+/g, " ")
    .trim();
}

/** Read what an author typed as a period; empty text is no period (null). */
export function parsePeriod(typed: string): PeriodResult | null {
  // Bounded before anything else looks at it, and as it is stored (tidied: a dash between digits gains spaces).
  if (typed.length > PERIOD_MAX_LENGTH || tidyPeriod(typed).length > PERIOD_MAX_LENGTH) return { ok: false, error: PERIOD_MESSAGES.tooLong };
  const text = normalized(typed);
  if (text === "") return null;
  if (!ALLOWED.test(text)) return { ok: false, error: OTHER_SCRIPT.test(text) ? PERIOD_MESSAGES.mixedScripts : PERIOD_MESSAGES.characters };
  const parts = splitRange(text);
  if (!parts) return { ok: false, error: PERIOD_MESSAGES.tooManyParts };
  if (parts.length === 1) {
    const only = readPoint(parts[0]);
    if (!only.ok) return only;
    if (only.ordinal !== undefined) return { ok: false, error: PERIOD_MESSAGES.notUnderstood(parts[0]) };
    return { ok: true, period: { start: only.point, end: null } };
  }
  let first = readPoint(parts[0]);
  const second = readPoint(parts[1]);
  if (!second.ok) return second;
  if (second.ordinal !== undefined) return { ok: false, error: PERIOD_MESSAGES.notUnderstood(parts[1]) };
  // "9. – 10. stor.", "1920. – 1930. roky": the first end is said like the second.
  if (first.ok && first.ordinal !== undefined) first = fromOrdinal(first.ordinal, second.point.precision, first.point.circa, first.era);
  if (!first.ok) return first;
  // "500 – 400 pred Kr.": an end without its era takes the second's; "44 pred Kr. – 14": a second end without one is after Christ.
  if (first.era === null && second.era === "bc") {
    const again = readPoint(`${parts[0]} pred kr.`);
    if (!again.ok) return again;
    first = again.ordinal !== undefined ? fromOrdinal(again.ordinal, second.point.precision, again.point.circa, "bc") : again;
    if (!first.ok) return first;
  }
  // An end may not begin before the start begins nor end before it ends; an end that contains the
  // start ("29. 8. 1526 – 1526", "1526 – 16. stor.") is read as running to that end's end.
  const ordered = compareMoments(first.point.from, second.point.from) <= 0 && compareMoments(first.point.to, second.point.to) <= 0;
  if (!ordered && !contains(second.point, first.point)) return { ok: false, error: PERIOD_MESSAGES.reversed };
  return { ok: true, period: { start: first.point, end: second.point } };
}

/** The one or two ends of a range: split at a dash (a hyphen only between spaces or digits, so "1920-te roky" stays whole). */
function splitRange(text: string): string[] | null {
  const parts = text.split(RANGE_DASH);
  if (parts.length > 2) return null;
  return parts.map((part) => part.trim());
}

function readPoint(part: string): Read {
  let text = part;
  const circaMatch = CIRCA.exec(text);
  const circa = circaMatch !== null;
  if (circaMatch) text = text.slice(circaMatch[0].length);
  let era: Era = null;
  const bc = BC.exec(text);
  const ad = bc ? null : AD.exec(text);
  const eraMatch = bc ?? ad;
  if (eraMatch) {
    era = bc ? "bc" : "ad";
    text = text.slice(0, eraMatch.index).trim();
    if (BC.test(text) || AD.test(text)) return { ok: false, error: PERIOD_MESSAGES.eraTwice };
  }
  const bad = { ok: false as const, error: PERIOD_MESSAGES.notUnderstood(part) };
  if (text === "") return bad;

  let match = YEAR.exec(text);
  if (match) {
    const year = astronomical(Number(match[1]), era);
    if (typeof year === "string") return { ok: false, error: year };
    return { ok: true, era, point: { from: { year, month: 0, day: 0 }, to: { year, month: 0, day: 0 }, precision: "year", circa } };
  }
  match = NUMERIC_DATE.exec(text) ?? NAMED_DATE.exec(text);
  if (match) {
    const named = !/^\d+$/.test(match[2]);
    const month = named ? MONTHS_GENITIVE.indexOf(match[2]) + 1 : Number(match[2]);
    if (named && month === 0) return bad;
    return dayPoint(Number(match[1]), month, Number(match[3]), era, circa);
  }
  match = CENTURY.exec(text);
  if (match) return centuryPoint(Number(match[1]), era, circa);
  match = DECADE.exec(text);
  if (match) return decadePoint(Number(match[1]), era, circa);
  match = BARE_ORDINAL.exec(text);
  if (match) return { ok: true, era, ordinal: Number(match[1]), point: { from: ZERO, to: ZERO, precision: "year", circa } };
  return bad;
}

const ZERO: Moment = { year: 0, month: 0, day: 0 };

function fromOrdinal(n: number, precision: Precision, circa: boolean, era: Era): Read {
  if (precision === "century") return centuryPoint(n, era, circa);
  if (precision === "decade") return decadePoint(n, era, circa);
  return { ok: false, error: PERIOD_MESSAGES.notUnderstood(`${n}.`) };
}

/** A historians' year with its era as an astronomical year, or why it cannot be one. */
function astronomical(year: number, era: Era): number | string {
  if (year === 0) return PERIOD_MESSAGES.yearZero;
  if (year > PERIOD_YEAR_LIMIT) return PERIOD_MESSAGES.yearRange;
  return era === "bc" ? 1 - year : year;
}

export function isLeapYear(year: number): boolean {
  // Julian before the Gregorian reform (as historians date those events), Gregorian after.
  if (year < 1583) return year % 4 === 0;
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

export function daysInMonth(year: number, month: number): number {
  return month === 2 ? (isLeapYear(year) ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;
}

function dayPoint(day: number, month: number, typedYear: number, era: Era, circa: boolean): Read {
  const year = astronomical(typedYear, era);
  if (typeof year === "string") return { ok: false, error: year };
  if (month < 1 || month > 12) return { ok: false, error: PERIOD_MESSAGES.month(month) };
  if (day < 1 || day > daysInMonth(year, month)) {
    return { ok: false, error: PERIOD_MESSAGES.day(day, month, yearWords(year), daysInMonth(year, month)) };
  }
  const moment = { year, month, day };
  return { ok: true, era, point: { from: moment, to: moment, precision: "day", circa } };
}

function centuryPoint(n: number, era: Era, circa: boolean): Read {
  if (n < 1 || n > PERIOD_YEAR_LIMIT / 100) return { ok: false, error: PERIOD_MESSAGES.century };
  // The 9th century is 801–900; the 1st before Christ is 100–1 BC (astronomical −99 … 0).
  const [first, last] = era === "bc" ? [1 - n * 100, 1 - ((n - 1) * 100 + 1)] : [(n - 1) * 100 + 1, n * 100];
  return { ok: true, era, point: { from: { year: first, month: 0, day: 0 }, to: { year: last, month: 0, day: 0 }, precision: "century", circa } };
}

function decadePoint(typedYear: number, era: Era, circa: boolean): Read {
  if (typedYear % 10 !== 0 || typedYear === 0) return { ok: false, error: PERIOD_MESSAGES.decade };
  const year = astronomical(typedYear, era);
  if (typeof year === "string") return { ok: false, error: year };
  // "1920. roky": 1920–1929; "90. roky pred Kr." counts down: 99–90 BC.
  const [first, last] = era === "bc" ? [year - 9, year] : [year, year + 9];
  // The decades at the limits reach past them ("10000. roky pred Kr." would start in 10009 BC).
  if (first < 1 - PERIOD_YEAR_LIMIT || last > PERIOD_YEAR_LIMIT) return { ok: false, error: PERIOD_MESSAGES.yearRange };
  return { ok: true, era, point: { from: { year: first, month: 0, day: 0 }, to: { year: last, month: 0, day: 0 }, precision: "decade", circa } };
}

function compareMoments(a: Moment, b: Moment): number {
  return a.year - b.year || a.month - b.month || a.day - b.day;
}

/** The last day a point's `to` covers: a year (or decade, century) without a day ends on 31 December. */
function lastDay(to: Moment): Moment {
  return to.month === 0 ? { year: to.year, month: 12, day: 31 } : to;
}

/** Whether `outer` covers every day of `inner` (a day in its year, a year in its century, …). */
function contains(outer: PeriodPoint, inner: PeriodPoint): boolean {
  return compareMoments(outer.from, inner.from) <= 0 && compareMoments(lastDay(inner.to), lastDay(outer.to)) <= 0;
}

function samePoint(a: PeriodPoint, b: PeriodPoint): boolean {
  return a.precision === b.precision && a.circa === b.circa && compareMoments(a.from, b.from) === 0 && compareMoments(a.to, b.to) === 0;
}

// ---------------------------------------------------------------- numbers for the database

/** A moment as one sortable integer: the astronomical year, then month and day (0 when not said). */
export function momentKey({ year, month, day }: Moment): number {
  return year * 10_000 + month * 100 + day;
}

/** The key an article is ordered by in time: the first moment its period covers. */
export function periodSortKey(period: Period): number {
  return momentKey(period.start.from);
}

/** The month and day (MMDD) of a period that starts on a precise day, for "Na dnešný deň"; null otherwise. */
export function periodDayOfYear(period: Period): number | null {
  const { from, precision } = period.start;
  return precision === "day" ? from.month * 100 + from.day : null;
}

/** The astronomical year of a sort key. */
export function keyYear(key: number): number {
  return Math.floor(key / 10_000);
}

// ---------------------------------------------------------------- centuries

/** The century of an astronomical year: 9 for 801–900, −1 for 100–1 BC. */
export function centuryOf(year: number): number {
  return year > 0 ? Math.ceil(year / 100) : -Math.ceil((1 - year) / 100);
}

/** The astronomical years a century covers. */
export function centuryYears(century: number): [number, number] {
  return century > 0 ? [(century - 1) * 100 + 1, century * 100] : [1 + century * 100, 1 + (century + 1) * 100 - 1];
}

/** The sort keys a century covers, first and last. */
export function centuryKeys(century: number): [number, number] {
  const [first, last] = centuryYears(century);
  return [first * 10_000, last * 10_000 + 1231];
}

export const CENTURY_LIMIT = PERIOD_YEAR_LIMIT / 100;

/** A century from an address (`?century=-1`): a whole number, not 0, within the years a period may have; null otherwise. */
export function readCentury(value: string | null): number | null {
  if (value === null || !/^-?\d{1,3}$/.test(value)) return null;
  const century = Number(value);
  return century !== 0 && Math.abs(century) <= CENTURY_LIMIT ? century : null;
}

export function centuryLabel(century: number): string {
  return century > 0 ? `${century}. storočie` : `${-century}. storočie pred Kr.`;
}

/** The decade of an astronomical year, named by its first year as readers write it ("1920. roky", "90. roky pred Kr."). */
export function decadeLabel(year: number): string {
  if (year > 0) return year < 10 ? "1. – 9. rok" : `${Math.floor(year / 10) * 10}. roky`;
  const bc = 1 - year;
  return bc < 10 ? "9. – 1. rok pred Kr." : `${Math.floor(bc / 10) * 10}. roky pred Kr.`;
}

// ---------------------------------------------------------------- words and ISO

/** A year as readers write it: "1526", "44 pred Kr.". */
export function yearWords(year: number): string {
  return year > 0 ? String(year) : `${1 - year} pred Kr.`;
}

/** How a point is said: on its own (nominative: "rok 1526") or after "od", "do", "okolo" (genitive: "roku 1526"). */
type Case = "nominative" | "genitive";

/** A decade in words, by its tens within its century ("40. roky 19. storočia", "nulté roky 20. storočia", "90. roky 1. storočia pred Kr."). */
function decadeWords(point: PeriodPoint, grammaticalCase: Case, era: string): { tens: string; rest: string } {
  // The year the author named: the decade's first after Christ, its last before (they count down).
  const named = point.from.year > 0 ? point.from.year : 1 - point.to.year;
  const tens = named % 100;
  const nominative = grammaticalCase === "nominative";
  return {
    tens: tens === 0 ? (nominative ? "nulté" : "nultých") : `${tens}.`,
    rest: `${nominative ? "roky" : "rokov"} ${Math.floor(named / 100) + 1}. storočia${era}`,
  };
}

/** A point's words without "okolo" (the caller says it); `withEra`: "po Kr." after a year after Christ too. */
function pointWords(point: PeriodPoint, grammaticalCase: Case, withEra: boolean): string {
  const { from } = point;
  const after = (year: number) => (year > 0 ? (withEra ? " po Kr." : "") : " pred Kr.");
  const year = (y: number) => `${y > 0 ? y : 1 - y}${after(y)}`;
  const nominative = grammaticalCase === "nominative";
  switch (point.precision) {
    case "day":
      return `${from.day}. ${MONTHS_GENITIVE[from.month - 1]} ${year(from.year)}`;
    case "year":
      return `${nominative ? "rok" : "roku"} ${year(from.year)}`;
    case "decade": {
      const { tens, rest } = decadeWords(point, grammaticalCase, after(from.year));
      return `${tens} ${rest}`;
    }
    case "century": {
      const century = centuryOf(from.year);
      return `${Math.abs(century)}. ${nominative ? "storočie" : "storočia"}${after(from.year)}`;
    }
  }
}

/** "okolo roku 1000", "okolo 9. storočia": about a point, said alone. */
const aloneWords = (point: PeriodPoint) => (point.circa ? `okolo ${pointWords(point, "genitive", false)}` : pointWords(point, "nominative", false));

/**
 * What the parser understood, in words, as a native speaker says it:
 * "rok 1526", "okolo roku 1000", "od roku 1848 do roku 1849", "od 9. do
 * 10. storočia", "približne od roku 500 pred Kr. do roku 476 po Kr.",
 * "od 29. augusta 1526 do konca roka".
 */
export function describePeriod(period: Period): string {
  const { start, end } = period;
  if (!end || samePoint(start, end)) return aloneWords(start);
  // Say "po Kr." only where a range crosses the start of the era.
  const withEra = start.from.year <= 0 && end.to.year > 0;
  const from = `${start.circa ? "približne " : ""}od`;
  const to = `${end.circa ? "približne " : ""}do`;
  // An end that contains the start runs to its own end: "do konca roka" (the day's year is said), "do konca 16. storočia".
  if (contains(end, start)) {
    const whole = end.precision === "year" ? "roka" : pointWords(end, "genitive", withEra);
    return `${from} ${pointWords(start, "genitive", withEra)} ${to} konca ${whole}`;
  }
  const shared = sharedTail(start, end, withEra);
  if (shared) return `od ${shared.first} do ${shared.second} ${shared.tail}`;
  return `${from} ${pointWords(start, "genitive", withEra)} ${to} ${pointWords(end, "genitive", withEra)}`;
}

/**
 * Two centuries, or two decades of one century, said once: "od 9. do 10.
 * storočia", "od 20. do 30. rokov 20. storočia"; null for any other pair
 * (or with "približne", which would leave unclear which end it is about).
 */
function sharedTail(start: PeriodPoint, end: PeriodPoint, withEra: boolean): { first: string; second: string; tail: string } | null {
  if (start.circa || end.circa || withEra || start.precision !== end.precision) return null;
  const [first, second] = [pointWords(start, "genitive", false), pointWords(end, "genitive", false)];
  const split = (words: string) => {
    const space = words.indexOf(" ");
    return { head: words.slice(0, space), tail: words.slice(space + 1) };
  };
  if (start.precision === "century") {
    const [a, b] = [split(first), split(second)];
    return a.tail === b.tail ? { first: a.head, second: b.head, tail: a.tail } : null;
  }
  if (start.precision === "decade") {
    const [a, b] = [decadeWords(start, "genitive", ""), decadeWords(end, "genitive", "")];
    const era = start.from.year > 0 ? "" : " pred Kr.";
    return a.rest === b.rest ? { first: a.tens, second: b.tens, tail: a.rest + era } : null;
  }
  return null;
}

/** An astronomical year as ISO 8601 writes it: four digits, a sign before year 0 or past 9999. */
export function isoYear(year: number): string {
  const digits = String(Math.abs(year)).padStart(4, "0");
  if (year < 0) return `-${digits}`;
  return year > 9999 ? `+${digits}` : digits;
}

function isoMoment({ year, month, day }: Moment): string {
  return month === 0 ? isoYear(year) : `${isoYear(year)}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}

/** The period as ISO 8601 (schema.org's temporalCoverage): "1526-08-29", "0862/0885", "-0043", "0801/0900". */
export function isoPeriod(period: Period): string {
  const first = isoMoment(period.start.from);
  const last = isoMoment((period.end ?? period.start).to);
  return first === last ? first : `${first}/${last}`;
}

/** What an author typed, tidied for display (one space, en dash between the ends). */
export function tidyPeriod(typed: string): string {
  return typed
    .normalize("NFC")
    .replace(/[\s\u00a0\u202f]+/g, " ")
    .trim()
    .replace(new RegExp(RANGE_DASH.source, "g"), " – ");
}

// ---------------------------------------------------------------- forms and storage

/** The form's check of the field: null when empty or understood, else why not. */
export function periodProblem(typed: string): string | null {
  const read = parsePeriod(typed);
  return read && !read.ok ? read.error : null;
}

/** What the form says it understood ("Rozumiem: …"), or null (empty, or not understood: the error says why). */
export function periodUnderstood(typed: string): string | null {
  const read = parsePeriod(typed);
  return read?.ok ? `Rozumiem: ${describePeriod(read.period)}.` : null;
}

/** An article's period columns from what its author typed (empty: none). Throws on text that is not a period: callers check it first. */
export function periodColumns(typed: string): { period: string; periodStart: number | null; periodDay: number | null } {
  const read = parsePeriod(typed);
  if (!read) return { period: "", periodStart: null, periodDay: null };
  if (!read.ok) throw new Error(`Not a period: ${read.error}`);
  return { period: tidyPeriod(typed), periodStart: periodSortKey(read.period), periodDay: periodDayOfYear(read.period) };
}

/** A stored period, read again for its ISO form (null when none). */
export function storedPeriod(period: string): Period | null {
  const read = parsePeriod(period);
  return read?.ok ? read.period : null;
}

// ---------------------------------------------------------------- the list's filter by time

/** A list's filter by time (`/posts?century=-1`, `/posts?from=-500&to=476`): years as readers count them, negative before Christ. */
export type PeriodFilter = { century: number } | { from: number | null; to: number | null };

/** A year from an address: a whole number, not 0, within ±10,000 (negative: before Christ); null otherwise. */
export function readYear(value: string | null): number | null {
  if (value === null || !/^-?\d{1,5}$/.test(value)) return null;
  const year = Number(value);
  return year !== 0 && Math.abs(year) <= PERIOD_YEAR_LIMIT && String(year) === value ? year : null;
}

/** A year as readers count it (negative before Christ) as an astronomical one. */
const astronomicalOf = (year: number) => (year < 0 ? year + 1 : year);

/** The filter an address asks for: a century wins over a range; a range whose end is before its start is none. */
export function readPeriodFilter(params: URLSearchParams): PeriodFilter | null {
  const century = readCentury(params.get("century"));
  if (century !== null) return { century };
  const from = readYear(params.get("from"));
  const to = readYear(params.get("to"));
  if (from === null && to === null) return null;
  if (from !== null && to !== null && from > to) return null;
  return { from, to };
}

/** The filter's query parameters, in the order the site writes them. */
export function periodFilterParams(filter: PeriodFilter | null): [string, string][] {
  if (!filter) return [];
  if ("century" in filter) return [["century", String(filter.century)]];
  return [
    ...(filter.from !== null ? [["from", String(filter.from)] as [string, string]] : []),
    ...(filter.to !== null ? [["to", String(filter.to)] as [string, string]] : []),
  ];
}

const FIRST_KEY = momentKey({ year: -PERIOD_YEAR_LIMIT, month: 0, day: 0 });
const LAST_KEY = momentKey({ year: PERIOD_YEAR_LIMIT, month: 12, day: 31 });

/** The sort keys a filter covers, first and last. */
export function periodFilterKeys(filter: PeriodFilter): { first: number; last: number } {
  if ("century" in filter) {
    const [first, last] = centuryKeys(filter.century);
    return { first, last };
  }
  return {
    first: filter.from === null ? FIRST_KEY : astronomicalOf(filter.from) * 10_000,
    last: filter.to === null ? LAST_KEY : astronomicalOf(filter.to) * 10_000 + 1231,
  };
}

/** The filter in words: "9. storočie", "od roku 500 pred Kr. do roku 476". */
export function periodFilterLabel(filter: PeriodFilter): string {
  if ("century" in filter) return centuryLabel(filter.century);
  const year = (y: number) => `roku ${yearWords(astronomicalOf(y))}`;
  return [filter.from !== null && `od ${year(filter.from)}`, filter.to !== null && `do ${year(filter.to)}`].filter(Boolean).join(" ");
}

/** The sort keys a period covers, first and last (the last day of its last year when no day is said). */
export function periodKeys(period: Period): { first: number; last: number } {
  const to = (period.end ?? period.start).to;
  return { first: momentKey(period.start.from), last: to.month === 0 ? momentKey({ year: to.year, month: 12, day: 31 }) : momentKey(to) };
}
