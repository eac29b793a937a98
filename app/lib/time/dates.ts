const TIME_ZONE = "Europe/Bratislava";
const dateFormat = new Intl.DateTimeFormat("sk-SK", { dateStyle: "long", timeZone: TIME_ZONE });
const dateTimeFormat = new Intl.DateTimeFormat("sk-SK", { dateStyle: "medium", timeStyle: "short", timeZone: TIME_ZONE });

/** "23. novembra 2026" */
export function formatDate(ms: number): string {
  return dateFormat.format(ms);
}

/** "23. 11. 2026, 14:05" */
export function formatDateTime(ms: number): string {
  return dateTimeFormat.format(ms);
}

const shortDateFormat = new Intl.DateTimeFormat("sk-SK", { dateStyle: "medium", timeZone: TIME_ZONE });
const timeFormat = new Intl.DateTimeFormat("sk-SK", { timeStyle: "short", timeZone: TIME_ZONE });

/** "23. 11. 2026 o 14:05": in a line whose parts are already parted by commas or " · ". */
export function formatDateAtTime(ms: number): string {
  return `${shortDateFormat.format(ms)} o ${timeFormat.format(ms)}`;
}

export function isoTime(ms: number): string {
  return new Date(ms).toISOString();
}

const monthFormat = new Intl.DateTimeFormat("sk-SK", { month: "long", year: "numeric", timeZone: TIME_ZONE });
const zoneParts = new Intl.DateTimeFormat("en-US", { timeZone: TIME_ZONE, hourCycle: "h23", year: "numeric", month: "numeric", day: "numeric", hour: "numeric", minute: "numeric", second: "numeric" });

/** "november 2026" (the month `ms` falls in, in the site's time zone). */
export function formatMonth(ms: number): string {
  return monthFormat.format(ms);
}

/** The site's time zone's wall clock at `ms`, as if it were UTC; minus `ms`, the zone's offset then. */
function wallClock(ms: number): { year: number; month: number; offset: number } {
  const part = Object.fromEntries(zoneParts.formatToParts(ms).map((p) => [p.type, Number(p.value)]));
  const asUtc = Date.UTC(part.year, part.month - 1, part.day, part.hour, part.minute, part.second);
  return { year: part.year, month: part.month - 1, offset: asUtc - Math.floor(ms / 1000) * 1000 };
}

/**
 * The months up to the one `now` is in, newest first, each as the time range
 * [from, to) of the site's time zone (Europe/Bratislava: a month begins at
 * its local midnight, whether in summer or winter time).
 */
export function recentMonths(now: number, count: number): { from: number; to: number }[] {
  const { year, month } = wallClock(now);
  // Summer time never starts or ends on the first of a month: the offset at UTC midnight is the offset at local midnight.
  const start = (n: number) => {
    const utcMidnight = Date.UTC(year, month - n, 1);
    return utcMidnight - wallClock(utcMidnight).offset;
  };
  return Array.from({ length: count }, (_, n) => ({ from: start(n), to: start(n - 1) }));
}

const dayParts = new Intl.DateTimeFormat("en-US", { timeZone: TIME_ZONE, month: "numeric", day: "numeric" });

/** The last minute dayOfYear was asked about, and its day: the page cache asks on every request for the landing page. */
let lastMinute = { minute: NaN, day: 0 };

/** The day of the year `ms` falls on in the site's time zone, as month × 100 + day (829 for 29 August): "Na dnešný deň". */
export function dayOfYear(ms: number): number {
  // A day in the site's zone starts on a whole minute, so one minute has one day.
  const minute = Math.floor(ms / 60_000);
  if (minute !== lastMinute.minute) {
    const part = Object.fromEntries(dayParts.formatToParts(ms).map((p) => [p.type, Number(p.value)]));
    lastMinute = { minute, day: part.month * 100 + part.day };
  }
  return lastMinute.day;
}

const dateParts = new Intl.DateTimeFormat("en-US", { timeZone: TIME_ZONE, year: "numeric", month: "numeric", day: "numeric" });
const DAY_MS = 86_400_000;

/** The last minute siteDay was asked about, and its day: asked for every article read. */
let lastSiteDay = { minute: NaN, day: 0 };

/**
 * The date `ms` falls on in the site's time zone (Europe/Bratislava, as the
 * pages show dates), as a whole number of days since 1970-01-01: the day's
 * count of reads is kept under it (`post_reads.day`; SQLite writes it out
 * with `date(day * 86400, 'unixepoch')`).
 */
export function siteDay(ms: number): number {
  // A day in the site's zone starts on a whole minute, so one minute has one day.
  const minute = Math.floor(ms / 60_000);
  if (minute !== lastSiteDay.minute) {
    const part = Object.fromEntries(dateParts.formatToParts(ms).map((p) => [p.type, Number(p.value)]));
    lastSiteDay = { minute, day: Date.UTC(part.year, part.month - 1, part.day) / DAY_MS };
  }
  return lastSiteDay.day;
}
