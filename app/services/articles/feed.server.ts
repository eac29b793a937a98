import { env } from "~/config/env.server";
import { FEED_CONTENT_MAX_BYTES, FEED_LEAD_LENGTH, FEED_SIZE } from "~/lib/bounds";
import { clipText, contentToText } from "~/lib/text/content-text";
import { imageUrl } from "~/lib/images";
import { feedHref, listHref } from "~/lib/links";
import { passagesHtml, splitPassages } from "~/lib/text/passages";
import { PAGE_SIZE } from "~/lib/rules";
import { SITE_NAME, TAGLINE } from "~/lib/site";
import { LINK_REL, linkCitations, type Source } from "~/lib/sources";
import { escapeXml } from "~/lib/xml";
import { siteChangedAt } from "~/models/meta.server";
import { newestPostsWhole } from "~/models/posts.server";
import { conditionalResponse, etagOf } from "~/services/platform/http-cache.server";

const xml = escapeXml;
const atomTime = (ms: number) => new Date(ms).toISOString();

type FeedPost = ReturnType<typeof newestPostsWhole>[number];

/**
 * An entry's content as the feed sends it (HTML escaped as XML): the
 * article's image, its text (citations linked to the article page) and its
 * sources, whole when that fits FEED_CONTENT_MAX_BYTES; else the image, the
 * leading paragraphs that fit and a link to the rest, so that no article
 * makes every reader's copy of the feed large.
 */
function entryContent(post: FeedPost, url: string): string {
  const image = `<p><img src="${env.publicUrl}${imageUrl(post.image, 800, "jpg")}" alt="" width="800" height="${Math.round((800 * post.imageHeight) / post.imageWidth)}"></p>`;
  const text = linkCitations(post.content, post.sources.length).html.replaceAll('href="#', `href="${url}#`);
  const whole = xml(`${image}<div>${text}</div>${sourcesHtml(post.sources)}`);
  if (Buffer.byteLength(whole) <= FEED_CONTENT_MAX_BYTES) return whole;
  const rest = `<p><a href="${xml(url)}">Celý článok a jeho zdroje nájdete na stránke ${SITE_NAME}.</a></p>`;
  const frame = xml(`${image}<div></div>${rest}`);
  return xml(image) + xml("<div>") + leadOf(text, FEED_CONTENT_MAX_BYTES - Buffer.byteLength(frame)) + xml(`</div>${rest}`);
}

/**
 * The leading passages of an article's HTML that fit in `budget` bytes as
 * sent (escaped as XML); when not even the first does, its plain text cut
 * to FEED_LEAD_LENGTH characters.
 */
function leadOf(html: string, budget: number): string {
  const passages = splitPassages(html);
  let lead = "";
  let used = 0;
  for (const passage of passages) {
    const piece = xml(passagesHtml([passage]));
    used += Buffer.byteLength(piece);
    if (used > budget) break;
    lead += piece;
  }
  return lead || xml(`<p>${xml(clipText(contentToText(passages[0]?.html ?? ""), FEED_LEAD_LENGTH))}</p>`);
}

function sourcesHtml(sources: Source[]): string {
  if (sources.length === 0) return "";
  const items = sources.map((s) => `<li>${s.url ? `<a href="${xml(s.url)}" rel="${LINK_REL}">${xml(s.text)}</a>` : xml(s.text)}</li>`);
  return `<h2>Zdroje</h2><ol>${items.join("")}</ol>`;
}

function entry(post: FeedPost): string {
  const url = `${env.publicUrl}/posts/${post.id}`;
  return [
    "<entry>",
    `<title>${xml(post.title)}</title>`,
    `<link rel="alternate" type="text/html" href="${xml(url)}"/>`,
    `<id>${xml(url)}</id>`,
    `<published>${atomTime(post.createdAt)}</published>`,
    `<updated>${atomTime(post.updatedAt)}</updated>`,
    `<author><name>${xml(post.authorName)}</name></author>`,
    ...post.tags.map((tag) => `<category term="${xml(tag)}"/>`),
    `<summary>${xml(post.excerpt)}</summary>`,
    `<content type="html">${entryContent(post, url)}</content>`,
    "</entry>",
  ].join("");
}

export type Feed = { body: string; etag: string; lastModified: Date | null };

/** The Atom feed of the newest articles (with `tag`, of that tag's), and its validators. */
export function atomFeed(tag: string | null): Feed {
  const posts = newestPostsWhole({ tag, limit: FEED_SIZE });
  const self = `${env.publicUrl}${feedHref(tag)}`;
  // The site's change time, not the newest entry's: deleting the newest article must not move it back.
  const changedAt = siteChangedAt();
  const body = [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="sk">',
    `<title>${xml(tag ? `${SITE_NAME}: ${tag}` : SITE_NAME)}</title>`,
    `<subtitle>${xml(TAGLINE)}</subtitle>`,
    `<id>${xml(self)}</id>`,
    `<link rel="self" type="application/atom+xml" href="${xml(self)}"/>`,
    `<link rel="alternate" type="text/html" href="${xml(env.publicUrl + listHref({ tag, limit: PAGE_SIZE }))}"/>`,
    `<updated>${atomTime(changedAt)}</updated>`,
    `<icon>${xml(env.publicUrl)}/img/favicon.svg</icon>`,
    ...posts.map(entry),
    "</feed>",
  ].join("\n");
  return { body, etag: etagOf(body), lastModified: changedAt > 0 ? new Date(changedAt) : null };
}

/** A feed as its answer: the same for everyone, so any cache may keep it a few minutes; 304 when the reader has it. */
export function atomResponse(request: Request, feed: Feed): Response {
  return conditionalResponse(request, {
    body: feed.body,
    etag: feed.etag,
    lastModified: feed.lastModified,
    contentType: "application/atom+xml; charset=utf-8",
    cacheControl: "public, max-age=300",
  });
}
