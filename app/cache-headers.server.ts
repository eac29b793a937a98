import { pageCacheControl } from "~/lib/cache-control";
import { retryAfter } from "~/services/platform/concurrency.server";
import { hasSessionCookie } from "~/services/platform/session.server";

/** The cache headers of every document and data answer of the app (entry.server.tsx; a search's data, search-results.server.tsx). */
export function setCacheHeaders(request: Request, status: number, headers: Headers) {
  // A route without a `headers` export (or a thrown answer) drops its Retry-After from the document: every 429, 503 and 507 says when to come back.
  if (!headers.has("Retry-After")) for (const [name, value] of Object.entries(retryAfter(status))) headers.set(name, value);
  const signedIn = hasSessionCookie(request);
  headers.set("Cache-Control", pageCacheControl({ signedIn, method: request.method, status, routeSays: headers.get("Cache-Control") }));
  // A page kept by the browser is for the reader it was made for.
  headers.append("Vary", "Cookie");
}
