import net from "node:net";

/** An HTTP/1.1 request written by hand on its own socket, to send a body as slowly, as fast or as long as an attacker would. */
export type RawRequest = {
  socket: net.Socket;
  /** The first answer, once it has arrived whole (status 0: the connection closed without one). */
  answer: Promise<RawAnswer>;
  /** Resolves when the connection has closed, with the milliseconds since it opened. */
  closed: Promise<number>;
  /** Send up to `total` bytes of junk as fast as the connection takes them, until the server closes it; resolves with the bytes that left this side. */
  flood: (total: number) => Promise<number>;
  /** Send one byte every `everyMs` until the server closes the connection. */
  trickle: (everyMs: number) => void;
};

export type RawAnswer = { status: number; headers: Record<string, string>; text: string; afterMs: number };

/**
 * Open a connection to `base` and send the request line and headers
 * (Host is added), then `body` if given. The rest of the body is the
 * caller's to send (flood, trickle) or to leave out.
 */
export function rawRequest(base: string, method: string, path: string, headers: Record<string, string>, body?: Buffer | string): RawRequest {
  const url = new URL(base);
  const socket = net.connect(Number(url.port), url.hostname);
  socket.on("error", () => {});
  const opened = performance.now();
  const head = Object.entries({ Host: url.host, ...headers })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join("");
  socket.write(`${method} ${path} HTTP/1.1\r\n${head}\r\n`);
  if (body !== undefined) socket.write(body);

  let received = Buffer.alloc(0);
  const closed = new Promise<number>((resolve) => socket.on("close", () => resolve(performance.now() - opened)));
  const answer = new Promise<RawAnswer>((resolve) => {
    const whole = () => {
      const end = received.indexOf("\r\n\r\n");
      if (end === -1) return undefined;
      const [statusLine, ...lines] = received.subarray(0, end).toString("latin1").split("\r\n");
      const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(":")).toLowerCase(), line.slice(line.indexOf(":") + 1).trim()]));
      const content = headers["transfer-encoding"] === "chunked" ? dechunked(received.subarray(end + 4)) : received.subarray(end + 4, end + 4 + Number(headers["content-length"] ?? 0));
      if (!content || content.length < Number(headers["content-length"] ?? 0)) return undefined;
      return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(statusLine)?.[1] ?? 0), headers, text: content.toString("utf8"), afterMs: performance.now() - opened };
    };
    socket.on("data", (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const done = whole();
      if (done) resolve(done);
    });
    socket.on("close", () => resolve(whole() ?? { status: 0, headers: {}, text: "", afterMs: performance.now() - opened }));
  });

  return {
    socket,
    answer,
    closed,
    flood(total) {
      const chunk = Buffer.alloc(64 * 1024, 0x41);
      let queued = 0;
      const pump = () => {
        while (queued < total && !socket.destroyed && socket.write(chunk)) queued += chunk.length;
      };
      socket.on("drain", pump);
      pump();
      // What left this side: the server's kernel took it, whether or not the server read it.
      return closed.then(() => socket.bytesWritten);
    },
    trickle(everyMs) {
      const timer = setInterval(() => (socket.destroyed ? clearInterval(timer) : socket.write("A")), everyMs);
      socket.on("close", () => clearInterval(timer));
    },
  };
}

/** A chunked body decoded, or undefined until its last chunk has arrived. */
function dechunked(raw: Buffer): Buffer | undefined {
  const chunks: Buffer[] = [];
  for (let at = 0; ; ) {
    const lineEnd = raw.indexOf("\r\n", at);
    if (lineEnd === -1) return undefined;
    const size = Number.parseInt(raw.subarray(at, lineEnd).toString("latin1"), 16);
    if (size === 0) return Buffer.concat(chunks);
    if (raw.length < lineEnd + 2 + size + 2) return undefined;
    chunks.push(raw.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
}

/** A multipart body: text fields, then optionally a file field. */
export function multipartBody(boundary: string, fields: [string, string][], file?: { name: string; filename: string; type: string; bytes: Buffer }): Buffer {
  const parts: Buffer[] = fields.map(([name, value]) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  if (file) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${file.name}"; filename="${file.filename}"\r\nContent-Type: ${file.type}\r\n\r\n`));
    parts.push(file.bytes, Buffer.from("\r\n"));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(parts);
}
