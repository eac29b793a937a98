import type { LoaderFunctionArgs } from "@remix-run/node";
import { conditionalResponse } from "~/services/http-cache.server";
import { publicLogFeed } from "~/services/public-log.server";

/** The public moderation log as an Atom feed, for those who watch it; 304 when the reader has it. */
export async function loader({ request }: LoaderFunctionArgs) {
  const feed = publicLogFeed();
  return conditionalResponse(request, {
    body: feed.body,
    etag: feed.etag,
    lastModified: feed.lastModified,
    contentType: "application/atom+xml; charset=utf-8",
    // The same for everyone, as the site's feed.
    cacheControl: "public, max-age=300",
  });
}
