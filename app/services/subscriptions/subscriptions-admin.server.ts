import { TAGS } from "~/lib/tags";
import { recentMailings } from "~/models/subscription-mailings.server";
import { confirmedSubscribers, countFollowers, countSubscribers } from "~/models/subscriptions.server";

/** What /admin/odber shows of subscriptions, and the operator's export: only admins see who subscribes. */

/** How many mailings /admin/odber lists. */
const MAILINGS_SHOWN = 20;

/** How many subscriptions are confirmed: what /admin says of them, beside the outbox. */
export function confirmedSubscriptions(): number {
  return countSubscribers().reduce((n, c) => n + (c.status === "confirmed" ? c.n : 0), 0);
}

export function subscriptionsOverview() {
  const counts = countSubscribers();
  const sum = (status: string, frequency?: string) => counts.filter((c) => c.status === status && (!frequency || c.frequency === frequency)).reduce((n, c) => n + c.n, 0);
  const followers = countFollowers();
  const perTag = new Map(followers.tags.map((t) => [t.tag, t.n]));
  return {
    confirmed: { instant: sum("confirmed", "instant"), weekly: sum("confirmed", "weekly") },
    pending: sum("pending"),
    // Every tag, in the list's order; the centuries someone follows.
    tags: TAGS.map((tag) => ({ tag, n: perTag.get(tag) ?? 0 })),
    centuries: followers.centuries,
    mailings: recentMailings(MAILINGS_SHOWN),
  };
}

/** A spreadsheet cell: quoted, and never read as a formula (a value starting with =, +, - or @ gets a leading '). */
function cell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return `"${safe.replace(/"/g, '""')}"`;
}

const CSV_HEADER = ["e-mail", "frekvencia", "štítky", "storočia", "súhlas z formulára", "súhlas", "potvrdené"];

/** The confirmed subscribers as CSV, made as it is read (the list may be long; the memory stays that of a thousand rows). */
export function subscribersCsv(): ReadableStream<Uint8Array> {
  const rows = confirmedSubscribers();
  const encoder = new TextEncoder();
  const iso = (ms: number | null) => (ms === null ? "" : new Date(ms).toISOString());
  return new ReadableStream({
    start(controller) {
      controller.enqueue(encoder.encode(`\ufeff${CSV_HEADER.map(cell).join(",")}\r\n`));
    },
    pull(controller) {
      let chunk = "";
      for (let i = 0; i < 500; i++) {
        const next = rows.next();
        if (next.done) {
          if (chunk) controller.enqueue(encoder.encode(chunk));
          controller.close();
          return;
        }
        const s = next.value;
        chunk += `${[s.email, s.frequency, s.tags.join(" | "), s.centuries.join(" | "), s.consentSource, iso(s.consentAt), iso(s.confirmedAt)].map(cell).join(",")}\r\n`;
      }
      controller.enqueue(encoder.encode(chunk));
    },
  });
}
