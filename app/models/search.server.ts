import { contentToText } from "~/lib/text/content-text";
import { periodWords } from "~/lib/period-words";
import { EXCERPT_SEARCH_LENGTH, tagToken, type SearchQueries } from "~/lib/search";
import type { PostCard } from "~/lib/types";
import { sqlite } from "~/db/connection.server";

// FTS5 queries are written in SQL: Drizzle does not know virtual tables.
// Newest first (the index's keys follow the articles' age), and lazy: it stops after `limit` matches.
// Of the titles (post_title_search, migration 0020) or of the whole text (post_search).
const newestMatches = (index: "post_title_search" | "post_search") =>
  sqlite.prepare<{ match: string; limit: number }, number>(`SELECT rowid FROM ${index} WHERE ${index} MATCH :match ORDER BY rowid DESC LIMIT :limit`).pluck();
const inTitles = newestMatches("post_title_search");
const inTexts = newestMatches("post_search");
// Only the beginning of each text: the excerpt is looked for there, and a hit costs no more however long its article.
const cardsOfTexts = sqlite.prepare<{ ids: string; length: number }, PostCard & { textId: number; body: string }>(
  `SELECT t.id AS textId, substr(t.body, 1, :length) AS body, p.id, p.title, p.excerpt, p.image, p.image_width AS imageWidth, p.image_height AS imageHeight, p.period
   FROM post_texts t JOIN posts p ON p.id = t.post_id
   WHERE t.id IN (SELECT value FROM json_each(:ids)) AND p.hidden_at IS NULL`,
);

export type SearchHit = PostCard & { body: string };

/** How many hidden articles among its matches a search looks past to fill its page; behind more, the page is short. */
const HIDDEN_LOOKED_PAST = 100;

/**
 * The first `limit` readable articles a search finds (~/lib/search
 * searchQueries): those with the words in the title, newest first, then
 * those with them in the text. Each query stops at the rows it is asked
 * for, so a word most articles have costs no more than a rare one. Hidden
 * articles are in the index too and take places among the matches: while
 * they leave the page short and more matches may follow, more are asked for
 * (four times as many, up to HIDDEN_LOOKED_PAST more than `limit`).
 */
export function searchPosts({ inTitle, inText, limit }: SearchQueries & { limit: number }): SearchHit[] {
  for (let asked = limit; ; asked = Math.min(asked * 4, limit + HIDDEN_LOOKED_PAST)) {
    const ids = newestMatchesOf({ inTitle, inText }, asked);
    const hits = new Map(cardsOfTexts.all({ ids: JSON.stringify(ids), length: EXCERPT_SEARCH_LENGTH }).map(({ textId, ...hit }) => [textId, hit]));
    const found = ids.flatMap((id) => hits.get(id) ?? []);
    if (found.length >= limit || ids.length < asked || asked >= limit + HIDDEN_LOOKED_PAST) return found.slice(0, limit);
  }
}

/** The search rows of the first `limit` matches, the title's first. */
function newestMatchesOf({ inTitle, inText }: SearchQueries, limit: number): number[] {
  const ids = inTitles.all({ match: inTitle, limit });
  // Fewer than `limit` are all the title's matches, and the text's include them: its first `limit` without them are the rest.
  if (ids.length < limit) {
    const found = new Set(ids);
    for (const id of inTexts.all({ match: inText, limit })) if (!found.has(id) && ids.length < limit) ids.push(id);
  }
  return ids;
}

/** The search row of a post, as post_texts stores it: its tags and the time of its period as words nobody types (~/lib/search tagToken, ~/lib/period-words). */
export function searchTextOf(post: { title: string; content: string; tags: string[]; periodStart: number | null }) {
  return { title: post.title, body: contentToText(post.content), tags: [...post.tags.map(tagToken), ...periodWords(post.periodStart)].join(" ") };
}

const BATCH = 500;
// Oldest first, by the index posts_created_at_idx (created_at, id): one index range per batch.
const unindexedPosts = sqlite.prepare<{ at: number; id: string; limit: number }, { createdAt: number; id: string; title: string; content: string; periodStart: number | null }>(
  `SELECT p.created_at AS createdAt, p.id, p.title, p.content, p.period_start AS periodStart FROM posts p
   WHERE (p.created_at, p.id) > (:at, :id) AND NOT EXISTS (SELECT 1 FROM post_texts t WHERE t.post_id = p.id)
   ORDER BY p.created_at, p.id LIMIT :limit`,
);
const tagsOfPosts = sqlite.prepare<[string], { postId: string; tag: string }>(
  "SELECT post_id AS postId, tag FROM post_tags WHERE post_id IN (SELECT value FROM json_each(?))",
);
const insertText = sqlite.prepare<{ postId: string; title: string; body: string; tags: string }>(
  "INSERT INTO post_texts (post_id, title, body, tags) VALUES (:postId, :title, :body, :tags)",
);
// Every post has at most one search row (post_texts.post_id is unique and follows posts): equal counts mean none is missing.
const allIndexed = sqlite.prepare<[], number>("SELECT (SELECT count(*) FROM posts) = (SELECT count(*) FROM post_texts)").pluck();

/**
 * Give every post without a search row its row (and so a place in the
 * index): all posts of a database made before search existed (migration
 * 0006), a restored older backup, or posts written by another program.
 * In batches, oldest first, so that the index's keys follow the posts' age
 * (the search's "newest first") and memory stays small however many there
 * are; after more than one batch, the index's segments are merged.
 */
export function indexMissingPosts(): number {
  if (allIndexed.get()) return 0;
  let indexed = 0;
  for (let after = { at: -1, id: "" }; ; ) {
    const batch = unindexedPosts.all({ ...after, limit: BATCH });
    if (batch.length === 0) {
      if (indexed > BATCH) mergeSearchIndex();
      return indexed;
    }
    const tags = new Map(batch.map((post) => [post.id, [] as string[]]));
    for (const row of tagsOfPosts.all(JSON.stringify([...tags.keys()]))) tags.get(row.postId)!.push(row.tag);
    sqlite.transaction(() => {
      for (const post of batch) insertText.run({ postId: post.id, ...searchTextOf({ ...post, tags: tags.get(post.id)! }) });
    }).immediate();
    indexed += batch.length;
    const last = batch[batch.length - 1];
    after = { at: last.createdAt, id: last.id };
  }
}

/**
 * Merge each index's segments into one. Indexing many articles at once leaves
 * many segments, and every search reads each of them: merged, a search at
 * 100,000 articles takes half the time (0.26 ms instead of 0.58). About a
 * second at 100,000 articles; the next writes add small segments again,
 * which FTS5's automerge keeps in hand.
 */
export function mergeSearchIndex(): void {
  sqlite.prepare("INSERT INTO post_search (post_search) VALUES ('optimize')").run();
  sqlite.prepare("INSERT INTO post_title_search (post_title_search) VALUES ('optimize')").run();
}
