import type { AppLoadContext } from "@remix-run/node";
import { renderToString } from "react-dom/server";
import { StaticRouter } from "react-router-dom/server";
import { ListResults } from "~/components/ListResults";
import { loader as rootLoader } from "~/root";
import { loader as postsLoader } from "~/routes/posts";

/** The loaders' data of a list's page, keyed by route as Remix keys it. */
export type ListLoaderData = { root: Awaited<ReturnType<typeof rootLoader>>; "routes/posts": Awaited<ReturnType<typeof postsLoader>> };

/**
 * What a new search changes on a visitor's page of the list (server/search-pages.ts
 * puts it into a kept page of the same list): the loaders' data, as Remix
 * hands it to the page, and the results part of the page (ListResults),
 * rendered alone as the route renders it on the server. Null when a loader
 * answers otherwise (a redirect, a storage fault thrown as a response): the
 * whole page is rendered then, and answers that.
 */
export async function searchResults(url: URL, context: AppLoadContext): Promise<{ loaderData: ListLoaderData; html: string } | null> {
  // Who reads is the root's question: a visitor (the server asks only for visitors' pages).
  const args = { request: new Request(url), params: {}, context };
  let loaderData: ListLoaderData;
  try {
    const [root, posts] = await Promise.all([rootLoader(args), postsLoader(args)]);
    loaderData = { root, "routes/posts": posts };
  } catch {
    return null;
  }
  const { posts, next, tag, limit, q, period, terms } = loaderData["routes/posts"];
  // Server-side, nothing is loading and no article covers the list (its own route, /posts/:id, is rendered whole).
  const html = renderToString(
    <StaticRouter location={`${url.pathname}${url.search}`}>
      <ListResults posts={posts} next={next} list={{ tag, limit, q, period }} terms={terms} covered={false} loadingOther={false} loadingMore={false} onLoadMore={noop} />
    </StaticRouter>,
  );
  return { loaderData, html };
}

function noop() {}
