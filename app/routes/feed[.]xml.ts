import type { LoaderFunctionArgs } from "@remix-run/node";
import { isTag } from "~/lib/tags";
import { atomFeed, atomResponse } from "~/services/articles/feed.server";

/** The Atom feed of the newest articles, or of one tag's (?tag=…); 304 when the reader has it. */
export async function loader({ request }: LoaderFunctionArgs) {
  const tag = new URL(request.url).searchParams.get("tag");
  if (tag !== null && !isTag(tag)) throw new Response("Tento tag nepoznáme.", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  return atomResponse(request, atomFeed(tag));
}
