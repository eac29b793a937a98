import type { LoaderFunctionArgs } from "@remix-run/node";
import { conditionalResponse } from "~/services/platform/http-cache.server";
import { sitemap } from "~/services/articles/sitemap.server";

/** The sitemap (or, for a large site, its index and numbered files); 304 when the crawler has it. */
export async function loader({ request }: LoaderFunctionArgs) {
  const raw = new URL(request.url).searchParams.get("page");
  const page = raw === null ? null : /^[1-9]\d{0,5}$/.test(raw) ? Number(raw) : 0;
  const map = sitemap(page);
  if (!map) throw new Response("Taká stránka mapy webu neexistuje.", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  return conditionalResponse(request, { ...map, contentType: "application/xml; charset=utf-8", cacheControl: "public, max-age=3600" });
}
