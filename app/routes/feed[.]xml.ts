import type { LoaderFunctionArgs } from "@remix-run/node";
import { isTag } from "~/lib/tags";
import { atomFeed } from "~/services/feed.server";
import { conditionalResponse } from "~/services/http-cache.server";

/** The Atom feed of the newest articles, or of one tag's (?tag=…); 304 when the reader has it. */
export async function loader({ request }: LoaderFunctionArgs) {
  const tag = new URL(request.url).searchParams.get("tag");
  if (tag !== null && !isTag(tag)) throw new Response("Tento tag nepoznáme.", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  const feed = atomFeed(tag);
  return conditionalResponse(request, {
    body: feed.body,
    etag: feed.etag,
    lastModified: feed.lastModified,
    contentType: "application/atom+xml; charset=utf-8",
    // The same for everyone: any cache may keep it a few minutes.
    cacheControl: "public, max-age=300",
  });
}
