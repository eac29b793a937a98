import { describe, expect, it } from "vitest";
import { BUSY_MESSAGE, FAULT_MESSAGES } from "~/lib/rules";
import {
  ifStorageFails,
  storageFault,
  unlessStorageFails,
} from "~/services/platform/storage-fault.server";

const error = (fields: Record<string, unknown>) =>
  Object.assign(new Error("failed"), fields);

describe("storageFault", () => {
  it("answers no space with 507, a failing disk and an unreachable bucket with 503, each with Retry-After", () => {
    for (const code of ["SQLITE_FULL", "ENOSPC", "EDQUOT"])
      expect(storageFault(error({ code }))).toEqual({
        status: 507,
        error: FAULT_MESSAGES.noSpace,
        headers: { "Retry-After": "300" },
      });
    for (const code of [
      "SQLITE_IOERR",
      "SQLITE_IOERR_WRITE",
      "SQLITE_READONLY",
      "SQLITE_READONLY_DBMOVED",
      "EIO",
      "EROFS",
      "EACCES",
    ]) {
      expect(storageFault(error({ code })), code).toEqual({
        status: 503,
        error: FAULT_MESSAGES.storageFailed,
        headers: { "Retry-After": "5" },
      });
    }
    // Another connection held the database past the busy timeout: busy, the form kept, not a 500.
    for (const code of ["SQLITE_BUSY", "SQLITE_BUSY_SNAPSHOT", "SQLITE_LOCKED"]) {
      expect(storageFault(error({ code })), code).toEqual({ status: 503, error: BUSY_MESSAGE, headers: { "Retry-After": "5" } });
    }
    // The AWS SDK's errors carry $metadata: a refused connection, a timeout, the service's own 5xx.
    for (const fields of [
      { code: "ECONNREFUSED" },
      { name: "TimeoutError", code: "ETIMEDOUT" },
      { name: "InternalError", $metadata: { httpStatusCode: 503 } },
    ]) {
      expect(storageFault(error({ $metadata: {}, ...fields }))?.error).toBe(
        FAULT_MESSAGES.imageStoreDown
      );
    }
  });

  it("leaves everything else to be a bug: constraint violations, a missing object, a refused key, non-errors", () => {
    for (const fields of [
      { code: "SQLITE_CONSTRAINT_UNIQUE" },
      { code: "SQLITE_ERROR" },
      { code: "ENOENT" },
      { name: "NoSuchKey", $metadata: { httpStatusCode: 404 } },
      {},
    ]) {
      expect(storageFault(error(fields)), JSON.stringify(fields)).toBeNull();
    }
    expect(storageFault("SQLITE_FULL")).toBeNull();
    expect(storageFault(null)).toBeNull();
  });

  it("turns a fault into the caller's refusal, lets other errors through, and skips a non-essential write", async () => {
    expect(
      await ifStorageFails(
        () => {
          throw error({ code: "SQLITE_FULL" });
        },
        (fault) => fault.status
      )
    ).toBe(507);
    await expect(
      ifStorageFails(
        () => {
          throw error({ code: "SQLITE_CONSTRAINT" });
        },
        () => 0
      )
    ).rejects.toThrow("failed");
    expect(() =>
      unlessStorageFails(() => {
        throw error({ code: "SQLITE_FULL" });
      })
    ).not.toThrow();
    expect(() =>
      unlessStorageFails(() => {
        throw error({ code: "SQLITE_CONSTRAINT" });
      })
    ).toThrow("failed");
  });
});
