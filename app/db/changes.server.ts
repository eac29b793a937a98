import Database from "better-sqlite3";
import { env } from "~/config/env.server";
import { sqlite } from "./connection.server";

/**
 * Whether anything a page shows has changed, whoever wrote it: this
 * process, `npm run admin`, a restore, or sqlite3 by hand.
 *
 * A connection of its own that never writes: SQLite's `PRAGMA data_version`
 * on it changes whenever another connection commits (3.5 µs to ask). Only
 * then is page_data's stamp read; triggers give it a new value on every
 * change to posts, their tags or their authors' names
 * (drizzle/0004_page_data_triggers.sql), and not on the writes pages do not
 * show (sessions, rate limits).
 *
 * This process's own writes are seen at once through `total_changes()` of
 * its connection (0.1 µs); other processes' writes within a millisecond,
 * or at once when `fresh` is asked for (before a rendered page is kept).
 */
const watcher = new Database(env.databasePath, { readonly: true });
const dataVersion = watcher.prepare("PRAGMA data_version").pluck();
const readStamp = watcher.prepare("SELECT stamp FROM page_data WHERE id = 1").pluck();
const ownChanges = sqlite.prepare("SELECT total_changes()").pluck();
const OTHERS_CHECKED_EVERY_MS = 1;

let seenVersion: unknown;
let seenOwnChanges: unknown;
let checkedAt = -Infinity;
let stamp: unknown;

/** A value that differs whenever the data pages are built from differs. */
export function pageDataStamp({ fresh = false } = {}): unknown {
  const own = ownChanges.get();
  const now = performance.now();
  if (!fresh && own === seenOwnChanges && now - checkedAt < OTHERS_CHECKED_EVERY_MS) return stamp;
  seenOwnChanges = own;
  checkedAt = now;
  const version = dataVersion.get();
  if (version !== seenVersion) {
    seenVersion = version;
    stamp = readStamp.get();
  }
  return stamp;
}

let version = "";
let versionOwnChanges: unknown;
let versionCheckedAt = -Infinity;

/**
 * A value that differs whenever anything in the database may have changed:
 * any table, any writer (this process's at once, others' within a millisecond
 * as above, or at once when `fresh` is asked for).
 */
export function databaseVersion({ fresh = false } = {}): string {
  const own = ownChanges.get();
  const now = performance.now();
  if (!fresh && own === versionOwnChanges && now - versionCheckedAt < OTHERS_CHECKED_EVERY_MS) return version;
  versionOwnChanges = own;
  versionCheckedAt = now;
  version = `${own}:${dataVersion.get()}`;
  return version;
}

export function closeWatcher(): void {
  watcher.close();
}
