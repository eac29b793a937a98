const TIME_ZONE = "Europe/Bratislava";
const dateFormat = new Intl.DateTimeFormat("sk-SK", { dateStyle: "long", timeZone: TIME_ZONE });
const dateTimeFormat = new Intl.DateTimeFormat("sk-SK", { dateStyle: "medium", timeStyle: "short", timeZone: TIME_ZONE });

/** "23. novembra 2026" */
export function formatDate(ms: number): string {
  return dateFormat.format(ms);
}

/** "23. 11. 2026 14:05" */
export function formatDateTime(ms: number): string {
  return dateTimeFormat.format(ms);
}

export function isoTime(ms: number): string {
  return new Date(ms).toISOString();
}
