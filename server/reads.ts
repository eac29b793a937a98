import { isbot } from "isbot";
import type { IncomingMessage } from "node:http";

/**
 * Which answered requests are reads of an article (docs/reading.md#reads),
 * judged when the answer has gone, on every path alike: a kept page, a
 * page rendered by the app, a data request. A read is a GET of an
 * article's own address, `/posts/:id` (the list's `tag`, `limit`, … kept
 * in its query), or of its data as a navigation with JavaScript asks for it
 * (`/posts/:id.data`, its `_routes` naming the article's route), answered
 * 200, by a browser that is not a bot and not fetching ahead. Not the edit
 * form (`edit`), a HEAD, a 304, a missing or hidden article (a 404), nor
 * the data a page asks for again after a form sent from it (its Referer is
 * the article itself). Which reader it was (its author, an admin) is the
 * app's to judge (noteRead).
 */

const ARTICLE = /^\/posts\/([\w-]+)(\.data)?(?:\?(.*))?$/s;
const ARTICLE_ROUTE = "routes/posts.$postId";

/** The article a request read, or null when it is not a read. O(1): a regex, a few headers, a remembered User-Agent. */
export function articleRead(req: IncomingMessage, url: string, status: number): string | null {
  if (status !== 200 || req.method !== "GET" || !url.startsWith("/posts/")) return null;
  const match = ARTICLE.exec(url);
  if (!match) return null;
  const [, postId, data, query] = match;
  const { headers } = req;
  if (fetchedAhead(headers)) return null;
  if (query !== undefined) {
    const params = new URLSearchParams(query);
    if (params.has("edit")) return null;
    // A data request for other routes' loaders only (none this app sends for an article's address) reads nothing.
    const routes = params.get("_routes");
    if (data && routes !== null && !routes.split(",").includes(ARTICLE_ROUTE)) return null;
  }
  if (data && askedAgain(headers.referer, postId)) return null;
  return isBot(headers["user-agent"]) ? null : postId;
}

/** A prefetch or prerender (a browser's, a speculation rule's, a `<link rel="prefetch">`'s): nobody has read it yet. */
function fetchedAhead(headers: IncomingMessage["headers"]): boolean {
  return headers["sec-purpose"] !== undefined || headers.purpose !== undefined || headers["x-purpose"] !== undefined || headers["x-moz"] === "prefetch";
}

/** The article's data asked for from its own page: a revalidation after a form sent from it, not a new read. */
function askedAgain(referer: string | undefined, postId: string): boolean {
  if (!referer) return false;
  try {
    return new URL(referer).pathname === `/posts/${postId}`;
  } catch {
    return false;
  }
}

/** Text browsers are readers (docs/reading.md), though isbot takes `w3m/0.5.3`, a bare name and version, for a crawler. */
const TEXT_BROWSER = /^w3m\//;
/** User-Agents judged lately: isbot's pattern costs about 4 µs a test, a Map lookup a fraction of that. */
const judged = new Map<string, boolean>();
const JUDGED_MAX = 500;
const JUDGED_LENGTH_MAX = 512;

function isBot(userAgent = ""): boolean {
  const seen = judged.get(userAgent);
  if (seen !== undefined) return seen;
  const bot = isbot(userAgent) && !TEXT_BROWSER.test(userAgent);
  if (userAgent.length <= JUDGED_LENGTH_MAX) {
    // Made-up agents by the thousand start the memory over, never grow it.
    if (judged.size >= JUDGED_MAX) judged.clear();
    judged.set(userAgent, bot);
  }
  return bot;
}
