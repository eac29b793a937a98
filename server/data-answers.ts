import type { AppLoadContext } from "@remix-run/node";
import type { IncomingMessage, ServerResponse } from "node:http";
import { brotliCompressSync, constants, deflateSync, gzipSync } from "node:zlib";
import { pickEncoding, type Encoding } from "./encodings";

/**
 * Remix's data requests (`GET /….data`, what a page with JavaScript asks for
 * when it navigates: a search as the reader types) answered without Express.
 * Through Express the answer was streamed through the compression
 * middleware, which made a zlib stream for each response and flushed it
 * after every chunk: a quarter of a new search's cost, for 3 KB of data.
 * Here the app's answer is read whole (a data answer is small: this app
 * defers nothing) and compressed at once, as the middleware would have
 * chosen: the same status, headers and (uncompressed) body.
 */

/** What the compression middleware compressed (text and JSON types); a data answer is text/x-script. */
const COMPRESSIBLE = /^(?:text\/|application\/(?:json|javascript|x-javascript)\b)/i;
/** The middleware's threshold: a body this short is sent as it is. */
const THRESHOLD = 1024;
// The middleware's encodings, its preference first (brotli at its quality 4).
const ENCODERS: Record<Encoding, (body: Buffer) => Buffer> = {
  br: (body) => brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } }),
  gzip: (body) => gzipSync(body),
  deflate: (body) => deflateSync(body),
};

type Options = {
  /** Renders the app's answer, as the Remix handler does. */
  render: (request: Request, context: AppLoadContext) => Promise<Response>;
  publicUrl: string;
  /** Whether the client address comes from the proxy's X-Forwarded-For (as Express's `trust proxy` 1). */
  trustProxy: boolean;
  /** A search's data, answered as Remix's handler would without it (app/search-results.server.tsx); null for any other request. */
  searchData?: (request: Request, context: AppLoadContext) => Promise<Response | null>;
};

/** A data request of the app (GET or HEAD of a `.data` address), which `serve` answers. */
export function isDataRequest(method: string, url: string): boolean {
  if (method !== "GET" && method !== "HEAD") return false;
  const query = url.indexOf("?");
  return (query === -1 ? url : url.slice(0, query)).endsWith(".data");
}

export function createDataAnswers({ render, publicUrl, trustProxy, searchData }: Options) {
  return async function serve(req: IncomingMessage, res: ServerResponse, cspNonce: string): Promise<void> {
    const aborted = new AbortController();
    res.on("close", () => {
      if (!res.writableFinished) aborted.abort();
    });
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (Array.isArray(value)) for (const one of value) headers.append(name, one);
      else if (value !== undefined) headers.set(name, value);
    }
    const request = new Request(new URL(req.url!, publicUrl), { method: req.method, headers, signal: aborted.signal });
    const context = { clientAddress: clientAddress(req, trustProxy), cspNonce };
    const response = (searchData && (await searchData(request, context))) ?? (await render(request, context));
    const body = Buffer.from(await response.arrayBuffer());
    res.statusCode = response.status;
    if (response.statusText) res.statusMessage = response.statusText;
    for (const [name, value] of response.headers) if (name !== "set-cookie") res.setHeader(name, name === "content-type" ? withCharset(value) : value);
    const cookies = response.headers.getSetCookie();
    if (cookies.length > 0) res.setHeader("Set-Cookie", cookies);
    const compress = compressible(response.headers);
    if (compress) {
      const vary = response.headers.get("vary");
      res.setHeader("Vary", vary ? `${vary}, Accept-Encoding` : "Accept-Encoding");
    }
    const encoding = compress && body.length >= THRESHOLD && req.method !== "HEAD" ? pickEncoding(req.headers["accept-encoding"]) : null;
    const sent = encoding ? ENCODERS[encoding](body) : body;
    if (encoding) res.setHeader("Content-Encoding", encoding);
    res.setHeader("Content-Length", sent.length);
    res.end(req.method === "HEAD" ? undefined : sent);
  };
}

/** A text type names its charset, as Express's res.set wrote it (text/x-script; charset=utf-8). */
function withCharset(contentType: string): string {
  return /^text\/[^;]+$/i.test(contentType.trim()) ? `${contentType}; charset=utf-8` : contentType;
}

function compressible(headers: Headers): boolean {
  return COMPRESSIBLE.test(headers.get("content-type") ?? "") && !/\bno-transform\b/i.test(headers.get("cache-control") ?? "");
}

/** The client's address as Express gave it: the socket's, or behind a trusted proxy the last X-Forwarded-For entry. */
export function clientAddress(req: IncomingMessage, trustProxy: boolean): string {
  const forwarded = trustProxy ? String(req.headers["x-forwarded-for"] ?? "").split(",").at(-1)?.trim() : "";
  return forwarded || req.socket.remoteAddress || "unknown";
}
