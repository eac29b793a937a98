import { readFileSync, statSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { gzipSync } from "node:zlib";
import type { AppForServer } from "~/server-interface.server";
import { sendKept } from "./page-cache";

/**
 * The answers that need neither React nor Remix, given before either is
 * reached: /healthz (its checks are the app's, each cached a few seconds),
 * /robots.txt and /tags.json (fixed for the life of the process, so prepared
 * once). Through Remix and Express each cost about a millisecond, 30 times a
 * cached page. Same statuses, bodies and headers as the route and the static
 * files that answered them before.
 */

/** A body fixed for the life of the process, plain and (when that saves something) gzipped, with its headers. */
type Fixed = { plain: Buffer; gzipped: Buffer | null; contentType: string; headers: Record<string, string> };

/** robots.txt as its route answered it: a strong ETag of the body, kept a day, compressed on the fly (now once). */
function robots({ body, etag }: { body: string; etag: string }): Fixed {
  const plain = Buffer.from(body);
  return { plain, gzipped: gzipSync(plain), contentType: "text/plain; charset=utf-8", headers: { "Cache-Control": "public, max-age=86400", ETag: etag } };
}

/** The tag list as express.static sent the built file: its weak size-and-time ETag, Last-Modified, an hour's caching; under 1 KB, so never compressed. */
function tagList(file: string): Fixed {
  const { size, mtime } = statSync(file);
  const headers = { "Cache-Control": "public, max-age=3600", ETag: `W/"${size.toString(16)}-${mtime.getTime().toString(16)}"`, "Last-Modified": mtime.toUTCString() };
  return { plain: readFileSync(file), gzipped: null, contentType: "application/json; charset=UTF-8", headers };
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

  /** The address of a GET or HEAD, when it is one of these. */
  function answered(req: IncomingMessage): string | undefined {
    if (req.method !== "GET" && req.method !== "HEAD") return undefined;
    const query = req.url!.indexOf("?");
    const pathname = query === -1 ? req.url! : req.url!.slice(0, query);
    return pathname === "/healthz" || files.has(pathname) ? pathname : undefined;
  }

  return {
    /** Whether `serve` answers this request (nothing before it may: an unknown address is the page cache's 404). */
    answers: (req: IncomingMessage): boolean => answered(req) !== undefined,
    serve(req: IncomingMessage, res: ServerResponse): boolean {
      const pathname = answered(req);
      if (pathname === undefined) return false;
      if (pathname === "/healthz") {
        health(req, res).catch((error: unknown) => {
          console.error("Health check could not run", error);
          if (!res.headersSent) res.writeHead(500, { "Content-Type": "text/plain; charset=utf-8" });
          res.end("Unexpected Application Error!");
        });
        return true;
      }
      const answer = files.get(pathname)!;
      sendKept(req, res, answer, answer.headers);
      return true;
    },
  };
}
