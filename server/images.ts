// Uploaded images: only names the image store writes; never a path. Sent
// with plain node:http (no Express in the way): the canonical address of a
// file is answered before the page cache and Express are reached, and a
// file held in memory with headers prepared once (answerHeldImage).
import type { IncomingMessage, ServerResponse } from "node:http";
import { pipeline } from "node:stream/promises";
import { THUMBNAIL, VARIANT_FILE } from "~/lib/images";
import type { AppForServer } from "~/server-interface.server";
import { IMAGE_HEADERS } from "./security";

// A reader that stops reading for this long is let go: it holds a file, or memory, or a connection to the storage.
const IMAGE_READER_IDLE_MS = 30_000;
const CONTENT_TYPES: Record<string, string> = { webp: "image/webp", jpg: "image/jpeg" };
const NO_CACHE = /(?:^|,)\s*?no-cache\s*?(?:,|$)/;

/** The idle limit's answer, one function for every response (`this` is the response that timed out). */
function letGo(this: ServerResponse): void {
  this.destroy();
}

type Validators = { etag: string; lastModified: string };

/**
 * An image's own headers, after the security headers (in this order): its validators, type and
 * cache life. A hidden article's image (`private`: sent to its author or an admin) is kept by nobody.
 */
function imageHeaders(name: string, { etag, lastModified }: Validators, { immutable, private: own = false }: { immutable: boolean; private?: boolean }): [string, string][] {
  return [
    ...Object.entries(IMAGE_HEADERS),
    ["Cache-Control", own ? "private, no-store" : immutable ? "public, max-age=31536000, immutable" : "public, max-age=0"],
    ["Last-Modified", lastModified],
    ["ETag", etag],
    ["Content-Type", CONTENT_TYPES[name.slice(name.lastIndexOf(".") + 1)]],
  ];
}

/** The file a request asks for at its canonical address (`/images/<name>`, any query), or undefined: every other spelling is Express's. */
export function canonicalImageName(url: string): string | undefined {
  if (!url.startsWith("/images/")) return undefined;
  const query = url.indexOf("?");
  const name = url.slice("/images/".length, query === -1 ? undefined : query);
  return VARIANT_FILE.test(name) ? name : undefined;
}

/**
 * Whether the browser's copy is current, as Express's req.fresh decides it
 * (the `fresh` package): every If-None-Match entity tag and If-Modified-Since
 * given must agree; `Cache-Control: no-cache` asks for the file anyway.
 */
export function isFresh(headers: IncomingMessage["headers"], { etag, lastModified }: Validators): boolean {
  const noneMatch = headers["if-none-match"];
  const modifiedSince = headers["if-modified-since"];
  if (!noneMatch && !modifiedSince) return false;
  if (NO_CACHE.test(headers["cache-control"] ?? "")) return false;
  if (noneMatch && noneMatch !== "*") {
    const tags = noneMatch.split(",").map((tag) => tag.trim());
    if (!tags.some((tag) => tag === etag || `W/${tag}` === etag || tag === `W/${etag}`)) return false;
  }
  return !modifiedSince || Date.parse(lastModified) <= Date.parse(modifiedSince);
}

/**
 * Answers for `/images/<name>` (the name decoded): the file, a 304, the
 * 400 px variant standing in for a thumbnail not yet made, 404 (also a
 * hidden article's image, to anyone but its author and admins), or the
 * storage's fault (503/507). Rejects with any other error, headers unsent
 * or not, for the caller to answer.
 */
export function imageAnswers(app$: Pick<AppForServer, "openImage" | "storageFault">, { idleMs = IMAGE_READER_IDLE_MS } = {}) {
  /** Send a stored image with the headers express's sendFile gave; false when there is no such file. */
  async function sendImage(req: IncomingMessage, res: ServerResponse, name: string, { immutable }: { immutable: boolean }): Promise<boolean> {
    const file = await app$.openImage(name, req.headers.cookie);
    if (!file) return false;
    res.setTimeout(idleMs, letGo);
    const validators = { etag: file.etag, lastModified: file.modified.toUTCString() };
    for (const [header, value] of imageHeaders(name, validators, { immutable, private: file.private })) res.setHeader(header, value);
    const fresh = (req.method === "GET" || req.method === "HEAD") && isFresh(req.headers, validators);
    if (fresh || req.method === "HEAD") {
      if (!Buffer.isBuffer(file.body)) file.body.destroy();
      if (fresh) res.statusCode = 304;
      else res.setHeader("Content-Length", String(file.size));
      res.end();
      return true;
    }
    res.setHeader("Content-Length", String(file.size));
    if (Buffer.isBuffer(file.body)) {
      res.end(file.body);
      return true;
    }
    // A client that goes away closes the file (or the bucket's connection) too.
    pipeline(file.body, res).catch((error) => {
      if (error.code !== "ERR_STREAM_PREMATURE_CLOSE") console.error(`Could not send image ${name}`, error);
    });
    return true;
  }

  const plain = (res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}) => {
    res.writeHead(status, { ...headers, "Content-Type": "text/plain; charset=utf-8" });
    res.end(text);
  };

  return async function answerImage(req: IncomingMessage, res: ServerResponse, requested: string): Promise<void> {
    const name = VARIANT_FILE.exec(requested);
    try {
      if (name && (await sendImage(req, res, name[0], { immutable: true }))) return;
      // An image stored before thumbnails existed gets its thumbnail in the background after
      // an upgrade (addMissingThumbnails); meanwhile its 400 px variant stands in, not for long.
      if (name?.[2] === THUMBNAIL && (await sendImage(req, res, `${name[1]}-400.${name[3]}`, { immutable: false }))) return;
    } catch (error) {
      // The folder or the bucket failing: the browser is told to come back, the operator finds it in the log and /healthz.
      const fault = app$.storageFault(error);
      if (!fault || res.headersSent) throw error;
      console.error(`Could not read image ${requested}`, error);
      plain(res, fault.status, fault.error, fault.headers);
      return;
    }
    plain(res, 404, "Nenašlo sa.");
  };
}

/** A file's whole header lists, made once: for a 304, and for the file itself. */
export type Prepared = { notModified: string[]; ok: string[]; validators: Validators };

/** A 304 when the reader has the file, else the file (its head only, for HEAD), each in one write of its prepared headers. */
export function sendPrepared(req: IncomingMessage, res: ServerResponse, headers: Prepared, bytes: Buffer): void {
  if (isFresh(req.headers, headers.validators)) {
    res.writeHead(304, headers.notModified);
    res.end();
  } else {
    res.writeHead(200, headers.ok);
    res.end(req.method === "HEAD" ? undefined : bytes);
  }
}

/**
 * Answers GET and HEAD of `/images/<name>` (a canonical name) when the
 * folder holds that file in memory (recent-images.server.ts), at once and
 * in one write: the same headers, 304s and idle limit as imageAnswers, but
 * the header list is made once per held file (`securityHeaders`: what the
 * server gives every answer) and nothing is set one header at a time.
 * Returns false, having done nothing, when the file is not held.
 */
export function heldImageAnswers(app$: Pick<AppForServer, "heldImage">, securityHeaders: Record<string, string>, { idleMs = IMAGE_READER_IDLE_MS } = {}) {
  const prepared = new WeakMap<object, Prepared>();
  const prepare = (name: string, file: NonNullable<ReturnType<AppForServer["heldImage"]>>): Prepared => {
    const validators = { etag: file.etag, lastModified: file.modified.toUTCString() };
    const notModified = Object.entries({ ...securityHeaders, ...Object.fromEntries(imageHeaders(name, validators, { immutable: true })) }).flat();
    const ready = { notModified, ok: [...notModified, "Content-Length", String(file.bytes.length)], validators };
    prepared.set(file, ready);
    return ready;
  };
  return function answerHeldImage(req: IncomingMessage, res: ServerResponse, name: string): boolean {
    const file = app$.heldImage(name);
    if (!file) return false;
    const headers = prepared.get(file) ?? prepare(name, file);
    res.setTimeout(idleMs, letGo);
    sendPrepared(req, res, headers, file.bytes);
    return true;
  };
}
