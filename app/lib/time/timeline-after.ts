/**
 * Where a page of the timeline starts when it follows another: after an
 * article (`/timeline?after=<period sort key>.<id>`, the "Ďalej v čase"
 * link). Read by the route and by the page cache, which keeps such a page
 * under the spelling the link writes.
 */

const AFTER = /^(-?\d{1,12})\.([\w-]{1,40})$/;

/** The place an `after` parameter names, or null. */
export function readTimelineAfter(value: string | null): { start: number; id: string } | null {
  const match = value === null ? null : AFTER.exec(value);
  return match ? { start: Number(match[1]), id: match[2] } : null;
}

/** The `after` parameter of the page that follows an entry. */
export function timelineAfterParam(entry: { periodStart: number; id: string }): string {
  return `${entry.periodStart}.${entry.id}`;
}
