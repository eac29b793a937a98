import type { LoaderFunctionArgs } from "@remix-run/node";
import { atomResponse } from "~/services/articles/feed.server";
import { publicLogFeed } from "~/services/moderation/public-log.server";

/** The public moderation log as an Atom feed, for those who watch it; 304 when the reader has it. */
export async function loader({ request }: LoaderFunctionArgs) {
  return atomResponse(request, publicLogFeed());
}
