import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { env } from "~/config/env.server";
import { inTransaction } from "~/db/connection.server";

/**
 * A transaction takes the write lock as it begins: another process's write
 * is waited for before it reads, rather than coming between its read and its
 * write (which fails at once with SQLITE_BUSY, whatever the busy timeout).
 */
describe("inTransaction", () => {
  it("holds the write lock from its start, before it has written anything", () => {
    const other = new Database(env.databasePath, { fileMustExist: true });
    other.pragma("busy_timeout = 0");
    try {
      inTransaction(() => {
        expect(() => other.exec("BEGIN IMMEDIATE")).toThrow(/database is locked/);
      });
      // Free once it has ended.
      other.exec("BEGIN IMMEDIATE; COMMIT");
    } finally {
      other.close();
    }
  });
});
