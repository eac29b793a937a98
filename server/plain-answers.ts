import { readFileSync, statSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { gzipSync } from "node:zlib";
import type { AppForServer } from "~/server-interface.server";
import { acceptsGzip, matchesEtag } from "./page-cache";

/**
 * The answers that need neither React nor Remix, given before either is
 * reached: /healthz (its checks are the app's, each cached a few seconds),
 * /robots.txt and /tags.json (fixed for the life of the process, so prepared
 * once). Through Remix and Express each cost about a millisecond, 30 times a
 * cached page. Same statuses, bodies and headers as the route and the static
 * files that answered them before.
 */

/** A body fixed for the life of the process, plain and gzipped, with its validators and headers. */
type Fixed = { plain: Buffer; gzipped: Buffer | null; etag: string; lastModified: Date | null; headers: Record<string, string> };

/** Gzipped only when that saves something, as the compression middleware did (it leaves bodies under 1 KB with a length alone). */
function fixed(plain: Buffer, { etag, lastModified = null, gzip, headers }: { etag: string; lastModified?: Date | null; gzip: boolean; headers: Record<string, string> }): Fixed {
  return { plain, gzipped: gzip ? gzipSync(plain) : null, etag, lastModified, headers };
}

/** robots.txt as its route answered it: a strong ETag of the body, kept a day, compressed on the fly (now once). */
function robots({ body, etag }: { body: string; etag: string }): Fixed {
  return fixed(Buffer.from(body), { etag, gzip: true, headers: { "Cache-Control": "public, max-age=86400", "Content-Type": "text/plain; charset=utf-8" } });
}

/** The tag list as express.static sent the built file: its weak size-and-time ETag, Last-Modified, an hour's caching. */
function tagList(file: string): Fixed {
  const { size, mtime } = statSync(file);
  const etag = `W/"${size.toString(16)}-${mtime.getTime().toString(16)}"`;
  const headers = { "Cache-Control": "public, max-age=3600", "Content-Type": "application/json; charset=UTF-8" };
  return fixed(readFileSync(file), { etag, lastModified: mtime, gzip: false, headers });
}

/** Whether the reader's copy is current: If-None-Match (compared weakly) wins over If-Modified-Since (RFC 9110, 13.2.2). */
function fresh(req: IncomingMessage, { etag, lastModified }: Fixed): boolean {
  const ifNoneMatch = req.headers["if-none-match"];
  if (ifNoneMatch) return matchesEtag(ifNoneMatch, etag);
  const since = Date.parse(req.headers["if-modified-since"] ?? "");
  return lastModified !== null && !Number.isNaN(since) && Math.floor(lastModified.getTime() / 1000) * 1000 <= since;
}

function send(req: IncomingMessage, res: ServerResponse, answer: Fixed): void {
  res.setHeader("ETag", answer.etag);
  if (answer.lastModified) res.setHeader("Last-Modified", answer.lastModified.toUTCString());
  res.setHeader("Cache-Control", answer.headers["Cache-Control"]);
  // As the compression middleware said of every compressible type, compressed or not.
  res.setHeader("Vary", "Accept-Encoding");
  if (fresh(req, answer)) {
    res.statusCode = 304;
    res.end();
    return;
  }
  const gzip = answer.gzipped !== null && acceptsGzip(req.headers["accept-encoding"]);
  const body = gzip ? answer.gzipped! : answer.plain;
  res.setHeader("Content-Type", answer.headers["Content-Type"]);
  res.setHeader("Content-Length", body.length);
  if (gzip) res.setHeader("Content-Encoding", "gzip");
  res.end(req.method === "HEAD" ? undefined : body);
}

type Options = {
  app: Pick<AppForServer, "healthProblems" | "robotsTxt">;
  /** The built tag list (build/client/tags.json); none in development, where Vite serves public/. */
  tagsFile: string | null;
};

/** `serve` answers GET and HEAD of these addresses and returns true; false for anything else. */
export function createPlainAnswers({ app, tagsFile }: Options) {
  const files = new Map<string, Fixed>([["/robots.txt", robots(app.robotsTxt())]]);
  if (tagsFile) files.set("/tags.json", tagList(tagsFile));

  /** 200 "ok" while the site can take writes, otherwise 503 with one line per failing check (mail does not count: its trouble shows on /admin). */
  async function health(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const problems = await app.healthProblems();
    if (problems.length > 0) console.error(`Health check failed: ${problems.join(" | ")}`);
    const body = problems.length === 0 ? "ok" : `${problems.join("\n")}\n`;
    res.statusCode = problems.length === 0 ? 200 : 503;
    res.setHeader("Cache-Control", "no-store");
    res.setHeader("Content-Type", "text/plain; charset=utf-8");
    res.setHeader("Vary", "Accept-Encoding");
    res.setHeader("Content-Length", Buffer.byteLength(body));
    res.end(req.method === "HEAD" ? undefined : body);
  }

  return {
    serve(req: IncomingMessage, res: ServerResponse): boolean {
      if (req.method !== "GET" && req.method !== "HEAD") return false;
      const query = req.url!.indexOf("?");
      const pathname = query === -1 ? req.url! : req.url!.slice(0, query);
      if (pathname === "/healthz") {
        health(req, res).catch((error: unknown) => {
          console.error("Health check could not run", error);
          if (!res.headersSent) res.writeHead(500, { "Content-Type": "text/plain; charset=utf-8" });
          res.end("Unexpected Application Error!");
        });
        return true;
      }
      const answer = files.get(pathname);
      if (!answer) return false;
      send(req, res, answer);
      return true;
    },
  };
}
