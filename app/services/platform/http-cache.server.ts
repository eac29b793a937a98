import { createHash } from "node:crypto";

/** A strong validator of a body: the same bytes, the same tag. */
export function etagOf(body: string): string {
  return `"${createHash("sha256").update(body).digest("base64url").slice(0, 22)}"`;
}

/** Whether the request's validators say the reader already has this version (RFC 9110, 13.2.2: If-None-Match wins). */
function notModified(request: Request, etag: string, lastModified: Date | null): boolean {
  const ifNoneMatch = request.headers.get("if-none-match");
  if (ifNoneMatch !== null) {
    return ifNoneMatch.trim() === "*" || ifNoneMatch.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag);
  }
  const ifModifiedSince = Date.parse(request.headers.get("if-modified-since") ?? "");
  // HTTP dates have whole seconds.
  return lastModified !== null && !Number.isNaN(ifModifiedSince) && Math.floor(lastModified.getTime() / 1000) * 1000 <= ifModifiedSince;
}

type Document = { body: string; contentType: string; cacheControl: string; lastModified: Date | null; etag?: string };

/**
 * A text document (a feed, the sitemap) with its validators, or 304 without
 * a body when the reader's copy is current: a returning reader or feed
 * reader on a slow line downloads nothing twice.
 */
export function conditionalResponse(request: Request, { body, contentType, cacheControl, lastModified, etag = etagOf(body) }: Document): Response {
  const headers = new Headers({ ETag: etag, "Cache-Control": cacheControl });
  if (lastModified) headers.set("Last-Modified", lastModified.toUTCString());
  if (notModified(request, etag, lastModified)) return new Response(null, { status: 304, headers });
  headers.set("Content-Type", contentType);
  return new Response(request.method === "HEAD" ? null : body, { headers });
}
