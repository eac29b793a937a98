import type { AppLoadContext } from "@remix-run/node";
import { bringsNotice } from "~/services/platform/notice.server";
import { renderToString } from "react-dom/server";
import { StaticRouter } from "react-router-dom/server";
import { encode } from "turbo-stream";
import { ListResults } from "~/components/list/ListResults";
import { setCacheHeaders } from "~/cache-headers.server";
import { loader as rootLoader } from "~/root";
import { loader as postsLoader } from "~/routes/posts";

/**
 * A new search without Remix's request handler, the same bytes as with it:
 * the two loaders of the list (the root's and the list's) called as Remix
 * calls them, their data encoded as Remix encodes it. Remix's handler
 * matches the routes again for each request and builds the whole router's
 * state around two function calls; a search typed with JavaScript pays it
 * for 3 KB of data, and a page sent without it for its cards.
 * tests/integration/articles/search-pages.test.ts compares both ways byte for byte.
 */

/** The loaders' data of a list's page, keyed by route as Remix keys it. */
type ListLoaderData = { root: Awaited<ReturnType<typeof rootLoader>>; "routes/posts": Awaited<ReturnType<typeof postsLoader>> };

/** The list's loaders for `request` (to an address of /posts); null when one answers otherwise (a redirect, a storage fault thrown as a response): Remix answers that. */
async function loadList(request: Request, context: AppLoadContext): Promise<ListLoaderData | null> {
  const args = { request, params: {}, context };
  try {
    const [root, posts] = await Promise.all([rootLoader(args), postsLoader(args)]);
    return { root, "routes/posts": posts };
  } catch {
    return null;
  }
}

/**
 * What a new search changes on a visitor's page of the list (server/search-pages.ts
 * puts it into a kept page of the same list): the results part of the page
 * (ListResults), rendered alone as the route renders it on the server, and
 * the loaders' data as Remix writes it into the page (its `serverHandoffStream`).
 */
export async function searchResults(url: URL, context: AppLoadContext): Promise<{ html: string; data: string } | null> {
  // A visitor's: the server asks only for theirs.
  const loaderData = await loadList(new Request(url), context);
  const data = loaderData && (await encodeAsRemix({ loaderData, actionData: null, errors: null }));
  if (!loaderData || data === null) return null;
  const { posts, next, tag, limit, q, period, terms } = loaderData["routes/posts"];
  // Server-side, nothing is loading and no article covers the list (its own route, /posts/:id, is rendered whole).
  const html = renderToString(
    <StaticRouter location={`${url.pathname}${url.search}`}>
      <ListResults posts={posts} next={next} list={{ tag, limit, q, period }} terms={terms} covered={false} loadingOther={false} loadingMore={false} onLoadMore={noop} />
    </StaticRouter>,
  );
  return { html, data };
}

/**
 * A search's data request (`GET /posts.data?q=…`, the list following what a
 * reader types with JavaScript) answered as Remix's handler answers it: the
 * loaders' results by route, its headers, and the entry's cache headers.
 * Null for anything else (another address, HEAD, `_routes`: some loaders
 * only), and when a loader answers otherwise: Remix's handler answers those.
 */
export async function searchData(request: Request, context: AppLoadContext): Promise<Response | null> {
  const url = new URL(request.url);
  if (request.method !== "GET" || url.pathname !== "/posts.data" || !url.searchParams.get("q") || url.searchParams.has("_routes")) return null;
  // The word after an action is the root loader's to take (with its Set-Cookie): Remix answers.
  if (bringsNotice(request)) return null;
  const loaderData = await loadList(new Request(new URL(`/posts${url.search}`, url), { headers: request.headers, signal: request.signal }), context);
  const body = loaderData && (await encodeAsRemix({ root: { data: loaderData.root }, "routes/posts": { data: loaderData["routes/posts"] } }));
  if (body === null) return null;
  const headers = new Headers({ "X-Remix-Response": "yes", "Content-Type": "text/x-script" });
  // As the entry's handleDataRequest.
  setCacheHeaders(request, 200, headers);
  return new Response(body, { status: 200, headers });
}

/** `value` as Remix's encodeViaTurboStream encodes it (with its plugin for class instances: nothing here is one, nor a promise or an error); null if it is not one chunk. */
async function encodeAsRemix(value: unknown): Promise<string | null> {
  const stream = encode(value, {
    postPlugins: [(value) => (value && typeof value === "object" ? ["SingleFetchClassInstance", Object.fromEntries(Object.entries(value))] : undefined), () => ["SingleFetchFallback"]],
  });
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  const chunks: string[] = [];
  for (let read = await reader.read(); !read.done; read = await reader.read()) chunks.push(decoder.decode(read.value, { stream: true }));
  return chunks.length === 1 ? chunks[0] : null;
}

function noop() {}
