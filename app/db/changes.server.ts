import Database from "better-sqlite3";
import { env } from "~/config/env.server";
import "./connection.server"; // opened (and migrated) first, so page_data exists

/**
 * Whether anything a page shows has changed, whoever wrote it: this
 * process, `npm run admin`, a restore, or sqlite3 by hand.
 *
 * A connection of its own that never writes: SQLite's `PRAGMA data_version`
 * on it changes whenever another connection commits, which costs a
 * microsecond to ask. Only then is page_data's stamp read; triggers give it
 * a new value on every change to posts, their tags or their authors'
 * names (drizzle/0004_page_data_triggers.sql), and not on the writes pages
 * do not show (sessions, rate limits).
 */
const watcher = new Database(env.databasePath, { readonly: true });
const dataVersion = watcher.prepare("PRAGMA data_version").pluck();
const readStamp = watcher.prepare("SELECT stamp FROM page_data WHERE id = 1").pluck();

let seenVersion: unknown;
let stamp: unknown;

/** A value that differs whenever the data pages are built from differs. */
export function pageDataStamp(): unknown {
  const version = dataVersion.get();
  if (version !== seenVersion) {
    seenVersion = version;
    stamp = readStamp.get();
  }
  return stamp;
}

export function closeWatcher(): void {
  watcher.close();
}
