import { and, desc, eq, isNull, sql, type SQL } from "drizzle-orm";
import { randomBytes } from "node:crypto";
import { periodColumns } from "~/lib/time/periods";
import type { Source } from "~/lib/sources";
import type { PostCard } from "~/lib/types";
import { countRows, db } from "~/db/connection.server";
import { drafts, pendingImages, posts, postTags, postTexts, revisions, users } from "~/db/schema.server";
import { closeOpenReportsOf } from "./reports.server";
import { recordRevision } from "./revisions.server";
import { searchTextOf } from "./search.server";

const cardColumns = {
  id: posts.id,
  title: posts.title,
  excerpt: posts.excerpt,
  image: posts.image,
  imageWidth: posts.imageWidth,
  imageHeight: posts.imageHeight,
  period: posts.period,
};


// The reader's queries walk an index in order and stop after `limit` rows,
// so their cost does not grow with the number of posts (tests/unit/articles/query-plans.test.ts
// fails on a full scan or a sort). Exported unprepared for that test only.
// A hidden article is skipped as the index is walked (they are few).
export const readerQueries = {
  newestPosts: db.select(cardColumns).from(posts).where(isNull(posts.hiddenAt)).orderBy(desc(posts.createdAt), posts.id).limit(sql.placeholder("limit")),
  newestPostsWithTag: db
    .select(cardColumns)
    .from(postTags)
    .innerJoin(posts, eq(posts.id, postTags.postId))
    .where(and(eq(postTags.tag, sql.placeholder("tag")), isNull(posts.hiddenAt)))
    .orderBy(desc(postTags.createdAt), postTags.postId)
    .limit(sql.placeholder("limit")),
  postById: db
    .select({
      id: posts.id,
      title: posts.title,
      content: posts.content,
      sources: posts.sources,
      excerpt: posts.excerpt,
      image: posts.image,
      imageWidth: posts.imageWidth,
      imageHeight: posts.imageHeight,
      authorId: posts.authorId,
      authorName: users.displayName,
      createdAt: posts.createdAt,
      updatedAt: posts.updatedAt,
      hiddenAt: posts.hiddenAt,
      period: posts.period,
      periodStart: posts.periodStart,
    })
    .from(posts)
    .innerJoin(users, eq(users.id, posts.authorId))
    .where(eq(posts.id, sql.placeholder("id"))),
  // In the order the author chose them (the order they were inserted).
  tagsOfPost: db.select({ tag: postTags.tag }).from(postTags).where(eq(postTags.postId, sql.placeholder("id"))).orderBy(sql`rowid`),
};

const newestPosts = readerQueries.newestPosts.prepare();
const newestPostsWithTag = readerQueries.newestPostsWithTag.prepare();

/** The newest `limit` posts (optionally with a tag), and the id of the one after them. */
export function listPosts({ tag, limit }: { tag: string | null; limit: number }): { posts: PostCard[]; next: string | null } {
  // One row more than shown: the first of the next page (null when there is none), which tells
  // whether "Načítaj viac" has anything to load and where it lands.
  const rows = tag ? newestPostsWithTag.all({ tag, limit: limit + 1 }) : newestPosts.all({ limit: limit + 1 });
  return { posts: rows.slice(0, limit), next: rows[limit]?.id ?? null };
}

const postById = readerQueries.postById.prepare();
const tagsOfPost = readerQueries.tagsOfPost.prepare();

export function getPost(id: string) {
  const post = postById.get({ id });
  if (!post) return undefined;
  return { ...post, tags: tagsOfPost.all({ id }).map((row) => row.tag) };
}

const contentSourceById = db.select({ source: posts.contentSource }).from(posts).where(eq(posts.id, sql.placeholder("id"))).prepare();

/** The text as its author wrote it, for the edit form (null for an article last saved before Markdown); never sent to readers. */
export function getContentSource(id: string): string | null {
  return contentSourceById.get({ id })?.source ?? null;
}

const postHiddenAt = db.select({ hiddenAt: posts.hiddenAt }).from(posts).where(eq(posts.id, sql.placeholder("id"))).prepare();

/** The newest `limit` posts whole (optionally with a tag), newest first: for the feeds. */
export function newestPostsWhole({ tag, limit }: { tag: string | null; limit: number }) {
  return listPosts({ tag, limit }).posts.flatMap((card) => getPost(card.id) ?? []);
}

// Newest first by posts_created_at_idx: a page of the sitemap is one index range.
const sitemapPage = db
  .select({ id: posts.id, updatedAt: posts.updatedAt })
  .from(posts)
  .where(isNull(posts.hiddenAt))
  .orderBy(desc(posts.createdAt), posts.id)
  .limit(sql.placeholder("limit"))
  .offset(sql.placeholder("offset"))
  .prepare();

/** Every post's id and last change, a page at a time (for the sitemap). */
export function listPostChanges(page: { offset: number; limit: number }): { id: string; updatedAt: number }[] {
  return sitemapPage.all(page);
}

/** Whether an article exists, and whether it is hidden (one primary-key lookup: the page cache asks it on every miss). */
export function postState(id: string): "shown" | "hidden" | "missing" {
  const row = postHiddenAt.get({ id });
  return !row ? "missing" : row.hiddenAt === null ? "shown" : "hidden";
}

export function countPosts(): number {
  return db.select({ n: sql<number>`count(*)` }).from(posts).get()?.n ?? 0;
}

export type NewPost = {
  title: string;
  /** Already sanitised stored content. */
  content: string;
  /** The text as its author wrote it (Markdown), which `content` was made from; none for content written as HTML (the bench's, a test's). */
  contentSource?: string | null;
  excerpt: string;
  image: { key: string; width: number; height: number };
  authorId: string;
  tags: string[];
  /** None when left out. */
  sources?: Source[];
  /** The period as typed, checked (~/lib/time/periods); none when left out. */
  period?: string;
  createdAt?: number;
};

/** Insert a post, its tags and its revision 1 (by its author) in one transaction; returns the new id. */
export function insertPost(post: NewPost): string {
  const id = randomBytes(9).toString("base64url");
  const createdAt = post.createdAt ?? Date.now();
  const period = periodColumns(post.period ?? "");
  db.transaction((tx) => {
    tx.insert(posts)
      .values({
        id,
        title: post.title,
        content: post.content,
        contentSource: post.contentSource ?? null,
        sources: post.sources ?? [],
        excerpt: post.excerpt,
        image: post.image.key,
        imageWidth: post.image.width,
        imageHeight: post.image.height,
        authorId: post.authorId,
        createdAt,
        updatedAt: createdAt,
        ...period,
      })
      .run();
    for (const tag of post.tags) tx.insert(postTags).values({ postId: id, tag, createdAt }).run();
    tx.insert(postTexts).values({ postId: id, ...searchTextOf({ ...post, periodStart: period.periodStart }) }).run();
    recordRevision(id, post.authorId);
  }, { behavior: "immediate" });
  return id;
}

/** Insert a post that uses a pending image, and forget that image's pending row, in one transaction; undefined when the row is gone. */
export function insertPostFromPending(post: NewPost): string | undefined {
  return db.transaction(() => {
    const removed = db.delete(pendingImages).where(eq(pendingImages.key, post.image.key)).run().changes;
    // The hourly clean-up took it (and is deleting its files) since the form was read.
    if (removed !== 1) return undefined;
    return insertPost(post);
  }, { behavior: "immediate" });
}

/**
 * Save an article's new text (and tags and image, when given) as its next revision, by
 * `edit.editorId`, in one transaction (`edit.at`: when, now unless said; the
 * demo's history is earlier).
 */
export function updatePost(
  id: string,
  {
    tags: newTags,
    image,
    ...change
  }: { title: string; content: string; contentSource?: string | null; sources: Source[]; excerpt: string; period?: string; tags?: string[]; image?: { key: string; width: number; height: number } },
  edit: { editorId: string; summary: string; at?: number },
): void {
  db.transaction((tx) => {
    const { periodStart, createdAt } = tx
      .update(posts)
      // A change without a period keeps the article's.
      // Content without its source was written as HTML: the old source no longer made it.
      .set({
        ...change,
        contentSource: change.contentSource ?? null,
        ...(change.period !== undefined && periodColumns(change.period)),
        ...(image && { image: image.key, imageWidth: image.width, imageHeight: image.height }),
        updatedAt: edit.at ?? Date.now(),
      })
      .where(eq(posts.id, id))
      .returning({ periodStart: posts.periodStart, createdAt: posts.createdAt })
      .get()!;
    if (newTags) {
      // In the author's order; dated as the article, so it keeps its place in each tag's list.
      tx.delete(postTags).where(eq(postTags.postId, id)).run();
      for (const tag of newTags) tx.insert(postTags).values({ postId: id, tag, createdAt }).run();
    }
    const tags = newTags ?? tx.select({ tag: postTags.tag }).from(postTags).where(eq(postTags.postId, id)).all().map((row) => row.tag);
    tx.update(postTexts)
      .set(searchTextOf({ ...change, tags, periodStart }))
      .where(eq(postTexts.postId, id))
      .run();
    recordRevision(id, edit.editorId, edit.summary);
  }, { behavior: "immediate" });
}

/** Hide an article from everyone but its author and admins, or show it again (null). */
export function setPostHidden(id: string, hiddenAt: number | null): boolean {
  return db.update(posts).set({ hiddenAt }).where(eq(posts.id, id)).run().changes > 0;
}

/** The images of these posts' histories (their current ones among them), each once. */
function historyImagesOf(postIds: SQL | string[]): string[] {
  const ids = Array.isArray(postIds) ? sql`(${sql.join(postIds.map((id) => sql`${id}`), sql`, `)})` : postIds;
  return db
    .selectDistinct({ image: revisions.image })
    .from(revisions)
    .where(sql`${revisions.postId} IN ${ids}`)
    .all()
    .map((row) => row.image);
}

/**
 * Delete a post (its tags and history go with it; its open reports close
 * first, while they still name it); returns the keys of every image it or
 * its history had, to remove the files. Call it in a transaction.
 */
export function deletePost(id: string): string[] {
  closeOpenReportsOf([id]);
  const images = historyImagesOf([id]);
  const current = db.delete(posts).where(eq(posts.id, id)).returning({ image: posts.image }).get()?.image;
  if (current === undefined) return [];
  return images.includes(current) ? images : [...images, current];
}

/** Delete every post of an author (their tags and histories go with them; their open reports close); returns their and their histories' image keys, to remove the files. Call it in a transaction. */
export function deletePostsOf(authorId: string): string[] {
  const theirs = sql`(SELECT ${posts.id} FROM ${posts} WHERE ${posts.authorId} = ${authorId})`;
  // Before the rows go: their reports' post_id becomes NULL with them.
  closeOpenReportsOf(theirs);
  const images = historyImagesOf(theirs);
  const current = db
    .delete(posts)
    .where(eq(posts.authorId, authorId))
    .returning({ image: posts.image })
    .all()
    .map((row) => row.image);
  return [...new Set([...images, ...current])];
}

// An author's articles walk posts_author_created_at_idx (tests/unit/articles/query-plans.test.ts).
export const authorQueries = {
  postsOfAuthor: db
    .select({ id: posts.id, title: posts.title, createdAt: posts.createdAt, updatedAt: posts.updatedAt, hiddenAt: posts.hiddenAt })
    .from(posts)
    .where(eq(posts.authorId, sql.placeholder("authorId")))
    .orderBy(desc(posts.createdAt))
    .limit(sql.placeholder("limit"))
    .offset(sql.placeholder("offset")),
};
const postsOfAuthor = authorQueries.postsOfAuthor.prepare();

export type AuthoredPost = { id: string; title: string; createdAt: number; updatedAt: number; hiddenAt: number | null };

export function countPostsOf(authorId: string): number {
  return countRows(posts, eq(posts.authorId, authorId));
}

/** A page of an author's posts, newest first (posts_author_created_at_idx). */
export function listPostsOf(authorId: string, page: { offset: number; limit: number }): AuthoredPost[] {
  return postsOfAuthor.all({ authorId, ...page });
}

/** Asked for every image /images/ sends: each must be one index lookup. */
export const imageQueries = {
  postWithImage: db.select({ authorId: posts.authorId, hiddenAt: posts.hiddenAt }).from(posts).where(eq(posts.image, sql.placeholder("key"))).limit(1),
  pendingImage: db.select({ key: pendingImages.key }).from(pendingImages).where(eq(pendingImages.key, sql.placeholder("key"))),
  draftWithImage: db.select({ id: drafts.id }).from(drafts).where(eq(drafts.imageKey, sql.placeholder("key"))).limit(1),
  // An image an article had before: its history still shows it (revisions_image_idx).
  revisionWithImage: db
    .select({ authorId: posts.authorId, hiddenAt: posts.hiddenAt })
    .from(revisions)
    .innerJoin(posts, eq(posts.id, revisions.postId))
    .where(eq(revisions.image, sql.placeholder("key")))
    .limit(1),
};
const postWithImage = imageQueries.postWithImage.prepare();
const pendingImage = imageQueries.pendingImage.prepare();
const draftWithImage = imageQueries.draftWithImage.prepare();
const revisionWithImage = imageQueries.revisionWithImage.prepare();

/**
 * Who may be sent an image: anyone (a shown article's, a draft's or a
 * pending upload's: their keys are random and shown only to whom they
 * concern), a hidden article's author and admins only (`authorId`), or
 * nobody (a key nothing uses).
 */
export type ImageAudience = "everyone" | { authorId: string } | "nobody";

export function imageAudience(key: string): ImageAudience {
  const post = postWithImage.get({ key }) ?? revisionWithImage.get({ key });
  if (post) return post.hiddenAt === null ? "everyone" : { authorId: post.authorId };
  return pendingImage.get({ key }) !== undefined || draftWithImage.get({ key }) !== undefined ? "everyone" : "nobody";
}

/** Whether an image key is in use, by a post or its history, a pending upload or a draft. */
export function imageKeyInUse(key: string): boolean {
  return imageAudience(key) !== "nobody";
}

/** Every image key in use: by a post or its history, a pending upload or a draft. */
export function referencedImageKeys(): Set<string> {
  const posted = db.select({ key: posts.image }).from(posts).all();
  const revised = db.selectDistinct({ key: revisions.image }).from(revisions).all();
  const pending = db.select({ key: pendingImages.key }).from(pendingImages).all();
  const drafted = db.select({ key: drafts.imageKey }).from(drafts).where(sql`${drafts.imageKey} IS NOT NULL`).all();
  return new Set([...posted, ...revised, ...pending, ...drafted].flatMap((row) => row.key ?? []));
}
