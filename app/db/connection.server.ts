import Database from "better-sqlite3";
import { sql, type SQL } from "drizzle-orm";
import { drizzle } from "drizzle-orm/better-sqlite3";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import { readMigrationFiles } from "drizzle-orm/migrator";
import { existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import * as schema from "~/db/schema.server";
import { env, EnvError } from "~/config/env.server";
import { projectPath } from "~/config/paths.server";
import { nameSkeletons } from "~/lib/name-skeleton.server";
import { periodWords } from "~/lib/period-words";
import { foldForSearch } from "~/lib/search";

const MIGRATIONS = projectPath("drizzle");

function openDatabase(file: string) {
  const sqlite = env.readOnly ? openCopy(file) : openPrimary(file);
  // FULL, not NORMAL: a write the site has acknowledged must survive a power
  // cut, not only a crash of the process. Writes are rare, so the cost is small.
  sqlite.pragma("synchronous = FULL");
  sqlite.pragma("foreign_keys = ON");
  // Also what Litestream asks for: its checkpoints hold the write lock for a moment.
  sqlite.pragma("busy_timeout = 5000");
  // Under Litestream only Litestream checkpoints (its documented advice): it
  // copies the WAL to the replica before moving it into the database, and a
  // checkpoint of ours in between could make it miss frames and start over
  // with a full snapshot. SQLite's checkpoint when the last connection closes
  // is Litestream's too: its own connection stays open until its last sync.
  if (env.litestreamReplicating) {
    sqlite.pragma("wal_autocheckpoint = 0");
    preparedAgainOnSchemaChange(sqlite);
  }
  // Diacritics-insensitive search: the users' search_text (the admin's list of accounts) is made with it.
  sqlite.function("fold", { deterministic: true }, (text) => (typeof text === "string" ? foldForSearch(text) : text));
  // What a name looks like: migrations 0011 and 0013 fill users.name_skeleton(_cased) with these for older accounts.
  sqlite.function("name_skeleton", { deterministic: true }, (text) => (typeof text === "string" ? nameSkeletons(text).folded : text));
  sqlite.function("name_skeleton_cased", { deterministic: true }, (text) => (typeof text === "string" ? nameSkeletons(text).cased : text));
  // An article's time as words of the search index: migration 0021 gives older articles theirs with it.
  sqlite.function("period_words", { deterministic: true }, (key) => (typeof key === "number" ? periodWords(key).join(" ") : ""));
  const db = drizzle(sqlite, { schema });
  if (env.readOnly) refuseOlderSchema(sqlite, file);
  else migrate(db, { migrationsFolder: MIGRATIONS });
  return { sqlite, db };
}

/**
 * Litestream adds its bookkeeping tables when it starts, beside the site's
 * first start on a new database: a statement the models prepare just then can
 * fail with SQLITE_SCHEMA (an FTS5 table's constructor does not prepare again
 * as SQLite otherwise does, and the server stopped at its start). Prepared
 * again, it reads the new schema.
 */
function preparedAgainOnSchemaChange(sqlite: Database.Database): void {
  const prepare = sqlite.prepare.bind(sqlite);
  sqlite.prepare = ((source: string) => {
    try {
      return prepare(source);
    } catch (error) {
      if ((error as { code?: string }).code !== "SQLITE_SCHEMA") throw error;
      return prepare(source);
    }
  }) as typeof sqlite.prepare;
}

function openPrimary(file: string) {
  mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new Database(file);
  sqlite.pragma("journal_mode = WAL");
  return sqlite;
}

/**
 * A replica's copy (READ_ONLY): SQLite refuses every write on this
 * connection, so nothing the site does can change the copy. A reader of a
 * WAL database still keeps the WAL index (the -shm file) beside it, so its
 * folder must be writable. A missing file is a mistake, never a new database.
 */
function openCopy(file: string) {
  if (!existsSync(file)) throw new EnvError(`READ_ONLY is on, but there is no database at ${file}: restore a copy there first (litestream restore).`);
  return new Database(file, { readonly: true, fileMustExist: true });
}

/** A copy cannot be migrated: one made before this version's migrations is refused, as drizzle's migrate() would have applied them. */
function refuseOlderSchema(sqlite: Database.Database, file: string) {
  const hasTable = sqlite.prepare("SELECT 1 FROM sqlite_master WHERE name = '__drizzle_migrations'").get();
  const last = hasTable ? Number(sqlite.prepare("SELECT max(created_at) FROM __drizzle_migrations").pluck().get() ?? 0) : 0;
  const missing = readMigrationFiles({ migrationsFolder: MIGRATIONS }).filter((migration) => migration.folderMillis > last).length;
  if (missing > 0) {
    throw new EnvError(
      `READ_ONLY is on, but the database at ${file} lacks ${missing} of this version's migrations: restore a newer copy once the primary, which migrates at its start, runs this version.`,
    );
  }
}

const opened = openDatabase(env.databasePath);

/** The raw better-sqlite3 handle, for pragmas, backups and health checks. */
export const sqlite = opened.sqlite;
/** The Drizzle database every model uses. */
export const db = opened.db;

/** Bring the database's schema up to this version of the code (after a restore put an older one in place). */
export function migrateDatabase(): void {
  migrate(db, { migrationsFolder: MIGRATIONS });
}

/**
 * Run `work` in one transaction (a savepoint inside another): the models'
 * writes in it happen together or not at all. It takes the write lock as it
 * begins (BEGIN IMMEDIATE), so that another process's write (`npm run admin`,
 * Litestream) is waited for (busy_timeout); a transaction that read first
 * would instead fail at once with SQLITE_BUSY when such a write came between
 * its read and its write.
 */
export function inTransaction<T>(work: () => T): T {
  return sqlite.transaction(work).immediate();
}

/** How many rows of `table` match `where` (Drizzle's $count is asynchronous only). */
export function countRows(table: SQLiteTable, where?: SQL): number {
  return db.select({ n: sql<number>`count(*)` }).from(table).where(where).get()!.n;
}
