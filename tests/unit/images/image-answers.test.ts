import { createServer, request, type IncomingMessage, type ServerResponse } from "node:http";
import { connect, type AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { heldImageAnswers, imageAnswers } from "../../../server/images";
import { securityHeaders } from "../../../server/security";

// An image held in memory is answered at once with headers prepared once
// (heldImageAnswers); any other the full way (imageAnswers). Both give the
// same answer, and both let go of a reader that stops reading.
const NAME = "AAAAAAAAAAAAAAAA-400.webp";
const IDLE_MS = 300;
// More than the sockets' buffers take: the rest waits in the server for the reader.
const bytes = Buffer.alloc(64 * 1024 * 1024, 7);
const file = { key: NAME.slice(0, 16), bytes, modified: new Date("2026-11-27T10:00:00Z"), etag: `W/"${bytes.length.toString(16)}-1"` };
const security = securityHeaders("nonce", { https: true });

const held = heldImageAnswers({ heldImage: (name) => (name === NAME ? file : undefined) }, security, { idleMs: IDLE_MS });
const full = imageAnswers(
  { openImage: async (name) => (name === NAME ? { body: file.bytes, size: bytes.length, modified: file.modified, etag: file.etag } : null), storageFault: () => null },
  { idleMs: IDLE_MS },
);

/** When each response's connection closed, in ms after its request came. */
const ends: { path: string; after: number }[] = [];
const server = createServer((req: IncomingMessage, res: ServerResponse) => {
  const started = performance.now();
  res.on("close", () => ends.push({ path: req.url!, after: performance.now() - started }));
  if (req.url!.startsWith("/held") && held(req, res, NAME)) return;
  // The full path sets the security headers first, as server/index.ts does for every answer.
  for (const [header, value] of Object.entries(security)) res.setHeader(header, value);
  void full(req, res, NAME);
});
let port = 0;
beforeAll(() => new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => ((port = (server.address() as AddressInfo).port), resolve()))));
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

type Answer = { status: number; headers: IncomingMessage["headers"]; length: number };
function ask(path: string, method = "GET", headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    request({ port, path, method, headers, agent: false }, (response) => {
      let length = 0;
      response.on("data", (chunk: Buffer) => (length += chunk.length));
      response.on("end", () => resolve({ status: response.statusCode!, headers: response.headers, length }));
    })
      .on("error", reject)
      .end();
  });
}
const withoutDate = ({ date: _date, ...headers }: Answer["headers"]) => headers;

describe("an image held in memory", () => {
  it("gets the answer the full path gives: headers, 200, 304 and HEAD", async () => {
    const cases: [string, Record<string, string>][] = [
      ["GET", {}],
      ["HEAD", {}],
      ["GET", { "If-None-Match": file.etag }],
      ["HEAD", { "If-None-Match": file.etag }],
      ["GET", { "If-Modified-Since": file.modified.toUTCString() }],
      ["GET", { "If-None-Match": file.etag, "Cache-Control": "no-cache" }],
      ["GET", { "If-None-Match": 'W/"0-0"' }],
    ];
    for (const [method, headers] of cases) {
      const [fromMemory, fullWay] = [await ask("/held", method, headers), await ask("/full", method, headers)];
      expect(withoutDate(fromMemory.headers)).toEqual(withoutDate(fullWay.headers));
      expect([fromMemory.status, fromMemory.length]).toEqual([fullWay.status, fullWay.length]);
    }
    const answer = await ask("/held");
    expect([answer.status, answer.length, answer.headers["content-security-policy"], answer.headers["strict-transport-security"]]).toEqual([
      200,
      bytes.length,
      "default-src 'none'; sandbox",
      "max-age=31536000; includeSubDomains",
    ]);
  });

  it("lets go of a reader that stops reading, as the full path does", async () => {
    // Addresses of their own: the first test's answers may close only now.
    const paths = ["/held?idle", "/full?idle"];
    for (const path of paths) {
      const socket = connect(port, "127.0.0.1");
      socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`);
      socket.once("data", () => socket.pause()); // the first bytes, then nothing more is read (the kernel's buffers fill)
      await new Promise((resolve) => setTimeout(resolve, IDLE_MS * 10));
      socket.destroy();
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
    for (const path of paths) {
      // Closed by the server, not when the reader went away (Node checks a socket's idle time late, up to twice the limit; a busy machine, later still).
      const { after } = ends.find((end) => end.path === path)!;
      expect(after, path).toBeGreaterThanOrEqual(IDLE_MS - 20);
      expect(after, path).toBeLessThan(IDLE_MS * 6);
    }
  });
});
