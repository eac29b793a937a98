import net from "node:net";
import { describe, expect, inject, it } from "vitest";

const base = inject("baseUrl");

/** One connection, its requests sent one after another; each answer's head, or "closed" if the server closed it first. */
function connection() {
  const { hostname, port } = new URL(base);
  const socket = net.connect(Number(port), hostname);
  let received = "";
  let closed = false;
  socket.on("data", (chunk) => (received += chunk.toString("latin1")));
  socket.on("close", () => (closed = true));
  socket.on("error", () => {});
  return {
    async get(path: string): Promise<string> {
      received = "";
      if (!closed) socket.write(`GET ${path} HTTP/1.1\r\nHost: ${hostname}\r\nConnection: keep-alive\r\n\r\n`);
      for (let waited = 0; waited < 10_000 && !closed && !/\r\n\r\n/.test(received); waited += 20) await new Promise((r) => setTimeout(r, 20));
      return closed && received === "" ? "closed" : received.split("\r\n\r\n")[0];
    },
    close: () => socket.destroy(),
  };
}

describe("a kept-alive connection", () => {
  // A proxy in front (deploy/: nginx and Caddy keep idle connections 55 s) must close first, or a request it
  // sends as the app closes gets no answer.
  it("is kept open 65 s, longer than the proxies keep theirs, and says so", { timeout: 30_000 }, async () => {
    const client = connection();
    try {
      const first = await client.get("/healthz");
      expect(first).toMatch(/^HTTP\/1\.1 200/);
      expect(first).toMatch(/\r\nKeep-Alive: timeout=65(\r\n|$)/i);
      // Past Node's own 5 s, the same connection still answers.
      await new Promise((r) => setTimeout(r, 6_000));
      expect(await client.get("/healthz")).toMatch(/^HTTP\/1\.1 200/);
    } finally {
      client.close();
    }
  });
});
