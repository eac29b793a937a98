import express from "express";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import { ENCODINGS, pickEncoding, type Encoding } from "./encodings";
import { sendPrepared, type Prepared } from "./images";
import { contentSecurityPolicy } from "./security";

/**
 * The build's files every first view asks for, held in memory and answered
 * before Express to a plain GET or HEAD, with header lists made once:
 * - the scripts and stylesheet (`/assets/…`) as compressed once at build
 *   time (scripts/compress-assets.js: brotli at quality 11, gzip at level 9),
 *   to a client that takes one of them. Through Express the main bundle was
 *   compressed for every request at brotli's quality 4: 10 ms of CPU, and
 *   13 % more bytes for the reader;
 * - the site's own pictures (`/img/…`: the banner, the list's background),
 *   which Express read from the disk each time (0.5 ms).
 * About 0.7 MB. The same headers as express.static and the compression
 * middleware gave them (the type as serve-static writes it, Vary for what
 * is compressed, the caching, a weak ETag of the file sent and
 * Last-Modified), 304s. Anything else (a range, a query, a client that takes
 * neither encoding, a file that is not held) goes on to Express as before.
 */

type HeldFile = Prepared & { bytes: Buffer };
/** Per address, the file in each encoding it is held in ("identity": as it is). */
type Held = Map<string, Map<Encoding | "identity", HeldFile>>;

const COMPRESSED_SUFFIXES: Partial<Record<Encoding, string>> = { br: ".br", gzip: ".gz" };
/** The site's pictures: not compressed by anyone (the compression middleware leaves images alone). */
const PICTURE = /\.(?:jpe?g|webp|png)$/;
/**
 * The site's own files keep their names from release to release, so they
 * are not immutable; they change only with a new version of the site: a
 * week, then a revalidation (their ETag) at most.
 */
export const SITE_FILE_MAX_AGE_SECONDS = 7 * 24 * 3600;

type Options = {
  /** build/compressed/assets: the compressed assets. */
  compressedAssets: string;
  /** build/client/img: the site's pictures. */
  pictures: string;
  securityHeaders: Record<string, string>;
};

export function heldFileAnswers({ compressedAssets, pictures, securityHeaders }: Options) {
  const held: Held = new Map();
  function hold(address: string, encoding: Encoding | "identity", file: string, headers: Record<string, string>) {
    const bytes = readFileSync(file);
    const { mtime } = statSync(file);
    // As serve-static makes them.
    const validators = { etag: `W/"${bytes.length.toString(16)}-${mtime.getTime().toString(16)}"`, lastModified: mtime.toUTCString() };
    // No page: no script of its own to allow.
    const notModified = Object.entries({ ...securityHeaders, "Content-Security-Policy": contentSecurityPolicy([]), ...headers, "Last-Modified": validators.lastModified, ETag: validators.etag }).flat();
    const ok = [...notModified, "Content-Type", contentType(address), ...(encoding === "identity" ? [] : ["Content-Encoding", encoding]), "Content-Length", String(bytes.length)];
    if (!held.has(address)) held.set(address, new Map());
    held.get(address)!.set(encoding, { bytes, validators, ok, notModified });
  }

  // None when the build made none (`remix vite:build` alone): the plain files, compressed on the fly.
  for (const name of filesIn(compressedAssets)) {
    const encoding = ENCODINGS.find((candidate) => COMPRESSED_SUFFIXES[candidate] && name.endsWith(COMPRESSED_SUFFIXES[candidate]));
    if (!encoding) continue;
    const address = `/assets/${name.slice(0, -COMPRESSED_SUFFIXES[encoding]!.length)}`;
    hold(address, encoding, path.join(compressedAssets, name), { Vary: "Accept-Encoding", "Cache-Control": "public, max-age=31536000, immutable" });
  }
  for (const name of filesIn(pictures)) {
    if (PICTURE.test(name)) hold(`/img/${name}`, "identity", path.join(pictures, name), { "Accept-Ranges": "bytes", "Cache-Control": `public, max-age=${SITE_FILE_MAX_AGE_SECONDS}` });
  }

  /** Answers a read of a held file (in an encoding the client takes) and returns true; false for anything else. */
  return function answerHeldFile(req: IncomingMessage, res: ServerResponse): boolean {
    const files = held.get(req.url!);
    if (!files || req.headers.range !== undefined) return false;
    const encoding = files.has("identity") ? "identity" : pickEncoding(req.headers["accept-encoding"], ENCODINGS.filter((candidate) => files.has(candidate)));
    if (!encoding) return false;
    const file = files.get(encoding)!;
    sendPrepared(req, res, file, file.bytes);
    return true;
  };
}

function filesIn(dir: string): string[] {
  return existsSync(dir) ? readdirSync(dir) : [];
}

/** The type of a file as serve-static writes it (application/javascript; charset=UTF-8). */
function contentType(name: string): string {
  const type = express.static.mime.lookup(name);
  const charset = express.static.mime.charsets.lookup(type, "");
  return charset ? `${type}; charset=${charset}` : type;
}
