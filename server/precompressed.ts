import express, { type RequestHandler } from "express";
import { existsSync, readdirSync } from "node:fs";
import { pickEncoding, type Encoding } from "./encodings";

const SUFFIXES: Partial<Record<Encoding, string>> = { br: ".br", gzip: ".gz" };

/**
 * The built assets as compressed once at build time (scripts/compress-assets.js,
 * brotli at quality 11 and gzip at level 9, in `dir`), for a client that
 * accepts one of them; any other request goes on to the plain files. The same
 * headers as the plain file compressed on the fly (its type, Vary,
 * Cache-Control), the file's own ETag and Last-Modified, 304s and ranges of
 * the compressed bytes (serve-static). Which files there are is read once:
 * a request costs no stat() to find out.
 */
export function precompressedAssets(dir: string, options: { maxAge: string; immutable: boolean }): RequestHandler {
  // None when the build made none (`remix vite:build` alone): the plain files, compressed on the fly.
  const files = new Set(existsSync(dir) ? readdirSync(dir) : []);
  const serveFile = express.static(dir, { ...options, redirect: false });
  return (req, res, next) => {
    const name = req.path.slice(1);
    const offered = (Object.keys(SUFFIXES) as Encoding[]).filter((encoding) => files.has(`${name}${SUFFIXES[encoding]}`));
    if (offered.length === 0) return next();
    res.vary("Accept-Encoding");
    const encoding = pickEncoding(req.headers["accept-encoding"], offered);
    if (encoding === null) return next();
    const { url } = req;
    // The plain file's type as serve-static writes it (it would take the suffix's), and how it is sent.
    const type = express.static.mime.lookup(name);
    const charset = express.static.mime.charsets.lookup(type, "");
    res.setHeader("Content-Type", charset ? `${type}; charset=${charset}` : type);
    res.setHeader("Content-Encoding", encoding);
    req.url = `/${name}${SUFFIXES[encoding]}`;
    serveFile(req, res, () => {
      // Gone since the start (a rebuild under a running server): the plain file, as before.
      res.removeHeader("Content-Encoding");
      res.removeHeader("Content-Type");
      req.url = url;
      next();
    });
  };
}
