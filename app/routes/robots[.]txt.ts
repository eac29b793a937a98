import type { LoaderFunctionArgs } from "@remix-run/node";
import { conditionalResponse } from "~/services/http-cache.server";
import { robotsTxt } from "~/services/sitemap.server";

export async function loader({ request }: LoaderFunctionArgs) {
  return conditionalResponse(request, { body: robotsTxt(), lastModified: null, contentType: "text/plain; charset=utf-8", cacheControl: "public, max-age=86400" });
}
