import { describe, expect, it } from "vitest";
import { logLine } from "../../../server/log";

// The request log's line is written out by hand: it must be the JSON the object would give, byte for byte.
const asJson = (entry: Parameters<typeof logLine>[0], time: string, path: string) =>
  `${JSON.stringify({
    time,
    method: entry.method,
    path,
    status: entry.status,
    ms: Math.round(entry.ms * 10) / 10,
    ...(entry.userId ? { user: entry.userId } : {}),
    ...(entry.bodyRead !== undefined ? { bodyRead: entry.bodyRead } : {}),
  })}\n`;

describe("a request's log line", () => {
  it("is the JSON of its fields, secrets in the query blanked", () => {
    const cases: [Parameters<typeof logLine>[0], string][] = [
      [{ method: "GET", url: "/images/AAAAAAAAAAAAAAAA-400.webp", status: 200, ms: 0.04, userId: null }, "/images/AAAAAAAAAAAAAAAA-400.webp"],
      [{ method: "HEAD", url: "/posts?tag=Dejiny%20Slovenska&page=2", status: 304, ms: 12.3456, userId: "u1" }, "/posts?tag=Dejiny%20Slovenska&page=2"],
      [{ method: "POST", url: "/reset-password?token=abc&x=1", status: 303, ms: 0, userId: null, bodyRead: 0 }, "/reset-password?token=[redacted]&x=1"],
      [{ method: "GET", url: "/a?PassWord=x&token=y", status: 400, ms: 1e-9, userId: null }, "/a?PassWord=[redacted]&token=[redacted]"],
      [{ method: "GET", url: '/q"\\\u0001\u007f\u00e9\u2028/ž', status: 404, ms: 123456.789, userId: 'a"b\\c', bodyRead: 1048576 }, '/q"\\\u0001\u007f\u00e9\u2028/ž'],
      [{ method: "-", url: "-", status: 408, ms: 0, userId: null }, "-"],
    ];
    for (const [entry, path] of cases) {
      const line = logLine(entry);
      const { time } = JSON.parse(line) as { time: string };
      expect(Math.abs(Date.parse(time) - Date.now())).toBeLessThan(1000);
      expect(line).toBe(asJson(entry, time, path));
    }
  });
});
