// Request bodies cost the server only what it chooses to read. A body
// declaring more than the site ever reads is refused before any route runs
// and never read; one that grows past it anyway (no declared length) or that
// stalls is cut.
import { IncomingMessage, STATUS_CODES, type OutgoingHttpHeaders, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type { Duplex } from "node:stream";
import { BODY_MESSAGES, MAX_BODY_BYTES } from "~/lib/rules";

/** A body must bring at least MIN_BYTES_PER_WINDOW in every window of WINDOW_MS while the server waits for it. */
const WINDOW_MS = 10_000;
const MIN_BYTES_PER_WINDOW = 1024;

/** A request that counts its body's bytes as they arrive, whether or not anything reads them yet. */
export class MeteredRequest extends IncomingMessage {
  bodyBytes = 0;
  /** Since the last look: whether the server stopped taking the body (a full buffer: its reader was slow, not the client). */
  serverPaused = false;
  onBody?: (ended: boolean) => void;

  constructor(socket: Socket) {
    super(socket);
    // The parser hands over the body through push(). An own property, not a
    // method: Express swaps each request's prototype for its own.
    const push = IncomingMessage.prototype.push;
    this.push = (chunk: unknown, encoding?: BufferEncoding) => {
      if (chunk) this.bodyBytes += (chunk as Buffer).length;
      const more = push.call(this, chunk, encoding);
      if (!more) this.serverPaused = true;
      this.onBody?.(chunk === null);
      return more;
    };
  }
}

export type BodyCut = { status: 408 | 413 };

/**
 * Watch the body of a request from its start. Returns false when the request
 * was answered at once: it declares a body over MAX_BODY_BYTES (413, and the
 * connection closes, the body unread). Otherwise `cut` is told when the body
 * is cut off: it stalled (408), or, sent without a declared length, grew past
 * the limit (413). A cut request is answered, if nothing has been sent yet,
 * and its connection closed; whatever the app still writes for it goes nowhere.
 *
 * An answer given before the body has arrived (a visitor's upload, an image
 * over 2 MB) lets the rest of a declared body in and throws it away, at most
 * MAX_BODY_BYTES and only as fast as the limit above allows, so the browser
 * gets to show the answer; a body of unknown length closes the connection.
 */
export function watchBody(req: MeteredRequest, res: ServerResponse, cut: (status: BodyCut["status"]) => void): boolean {
  if (Number(req.headers["content-length"] ?? 0) > MAX_BODY_BYTES) {
    const message = Buffer.from(BODY_MESSAGES.tooLarge);
    res.writeHead(413, { "Content-Type": "text/plain; charset=utf-8", "Content-Length": message.length, Connection: "close" });
    res.end(message);
    return false;
  }
  const chunked = req.headers["transfer-encoding"] !== undefined;
  if (req.complete || !(chunked || Number(req.headers["content-length"] ?? 0) > 0)) return true;

  // Until a body of unknown length has arrived whole, the answer says the connection closes (and Node closes it once the answer is out).
  if (chunked) res.setHeader("Connection", "close");
  const socket = req.socket;
  // Progress is what the connection brings, whether the body is read or, after the answer, thrown away.
  let seen = socket.bytesRead;
  const timer = setInterval(() => {
    const arrived = socket.bytesRead - seen;
    const paused = req.serverPaused;
    seen = socket.bytesRead;
    req.serverPaused = req.readableLength >= req.readableHighWaterMark;
    if (!paused && arrived < MIN_BYTES_PER_WINDOW) stop(408);
  }, WINDOW_MS).unref();
  const stopWatching = () => {
    clearInterval(timer);
    req.onBody = undefined;
    socket.off("close", stopWatching);
  };
  socket.once("close", stopWatching);

  function stop(status: BodyCut["status"]) {
    stopWatching();
    if (res.headersSent) socket.destroy();
    else answerAndClose(socket, status, status === 408 ? BODY_MESSAGES.tooSlow : BODY_MESSAGES.tooLarge, res.getHeaders());
    cut(status);
  }
  req.onBody = (ended) => {
    if (ended) {
      stopWatching();
      // Back to what the client asked for (removing the header would also drop Node's own).
      if (chunked && !res.headersSent && res.shouldKeepAlive) res.setHeader("Connection", "keep-alive");
    } else if (req.bodyBytes > MAX_BODY_BYTES) stop(413);
  };
  // The app stopped reading the body when it answered: the rest is thrown away as it comes.
  res.once("finish", () => {
    if (req.complete) return;
    req.removeAllListeners("data");
    req.resume();
  });
  return true;
}

/**
 * Answer straight on the socket and close it, as Node answers a request that
 * ran out of time: the app may still be working on the request, and its
 * response object stays untouched (what it writes later goes nowhere).
 */
export function answerAndClose(socket: Duplex, status: number, message: string, headers: OutgoingHttpHeaders = {}): void {
  const body = Buffer.from(message);
  const all = { ...headers, "content-type": "text/plain; charset=utf-8", "content-length": String(body.length), connection: "close" };
  const head = Object.entries(all)
    .map(([name, value]) => `${name}: ${[value].flat().join(", ")}\r\n`)
    .join("");
  socket.end(Buffer.concat([Buffer.from(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${head}\r\n`), body]), () => socket.destroy());
}
