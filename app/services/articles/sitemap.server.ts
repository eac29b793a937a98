import { env } from "~/config/env.server";
import { escapeXml } from "~/lib/xml";
import { siteChangedAt } from "~/models/meta.server";
import { countPosts, listPostChanges } from "~/models/posts.server";

/** Addresses in one sitemap file (the protocol allows 50,000; smaller files cost each request less). */
export const SITEMAP_PAGE_SIZE = 10_000;

/** The reader's own pages, first in the first file. */
export const SITE_PAGES = ["/", "/posts", "/timeline", "/conflicts", "/moderation"];

const xml = escapeXml;
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * The sitemap: every article with its last change (and the site's own pages), or, when
 * there are more than SITEMAP_PAGE_SIZE articles, an index of numbered files
 * (/sitemap.xml?page=1, …). Null for a page that does not exist.
 */
export function sitemap(page: number | null, pageSize = SITEMAP_PAGE_SIZE): { body: string; lastModified: Date | null } | null {
  const count = countPosts();
  const pages = Math.max(1, Math.ceil(count / pageSize));
  if (page === null && pages > 1) {
    const files = Array.from({ length: pages }, (_, i) => `<sitemap><loc>${xml(`${env.publicUrl}/sitemap.xml?page=${i + 1}`)}</loc></sitemap>`);
    return { body: wrap("sitemapindex", files), lastModified: null };
  }
  const number = page ?? 1;
  if (number < 1 || number > pages) return null;
  const posts = listPostChanges({ offset: (number - 1) * pageSize, limit: pageSize });
  const urls = posts.map((post) => `<url><loc>${xml(`${env.publicUrl}/posts/${post.id}`)}</loc><lastmod>${day(post.updatedAt)}</lastmod></url>`);
  if (number === 1) urls.unshift(...SITE_PAGES.map((path) => `<url><loc>${xml(`${env.publicUrl}${path}`)}</loc></url>`));
  // The site's change time, not the newest article's: a deleted article must not move it back.
  const changedAt = siteChangedAt();
  return { body: wrap("urlset", urls), lastModified: changedAt > 0 ? new Date(changedAt) : null };
}

function wrap(root: "urlset" | "sitemapindex", items: string[]): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<${root} xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${items.join("\n")}\n</${root}>\n`;
}

/** robots.txt: the pages for readers, not the ones behind an account, and where the sitemap is. */
export function robotsTxt(): string {
  const privatePaths = ["/admin", "/account", "/create-post", "/signinsignup", "/reset-password", "/signout"];
  return ["User-agent: *", ...privatePaths.map((path) => `Disallow: ${path}`), "", `Sitemap: ${env.publicUrl}/sitemap.xml`, ""].join("\n");
}
