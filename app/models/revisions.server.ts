import { randomBytes } from "node:crypto";
import type { RevisionContent, RevisionInfo } from "~/lib/revisions";
import { sqlite } from "~/db/connection.server";

/**
 * An article's revisions (the `revisions` table). Only the posts model
 * records them, inside its own writes: a revision is a copy of the
 * article's row as that write left it, so no caller can record a state the
 * article never had.
 */

/** The SQL of this module, exported for tests/unit/query-plans.test.ts: each is index lookups and ranges only. */
export const revisionQueries = {
  // The article as it is now (its tags in the author's order), numbered after its last revision.
  insert: `
  INSERT INTO revisions (id, post_id, number, title, content, sources, tags, image, editor_id, editor_name, created_at, summary, size, period)
  SELECT :id, p.id,
    (SELECT coalesce(max(r.number), 0) + 1 FROM revisions r WHERE r.post_id = p.id),
    p.title, p.content, p.sources,
    (SELECT json_group_array(t.tag ORDER BY t.rowid) FROM post_tags t WHERE t.post_id = p.id),
    p.image, u.id, u.display_name, p.updated_at, :summary, length(p.title) + length(p.content), p.period
  FROM posts p JOIN users u ON u.id = :editorId
  WHERE p.id = :postId`,
  // Newest first by revisions_post_number_idx; one row more than shown, the revision before the page's last, for its change.
  page: `
  SELECT r.id, r.number, coalesce(u.display_name, r.editor_name) AS editorName, r.created_at AS createdAt, r.summary, r.size
  FROM revisions r LEFT JOIN users u ON u.id = r.editor_id
  WHERE r.post_id = :postId
  ORDER BY r.number DESC
  LIMIT :limit + 1 OFFSET :offset`,
  // One revision by its key, only if it is this article's: another article's revision is not found.
  one: `
  SELECT r.id, r.number, coalesce(u.display_name, r.editor_name) AS editorName, r.created_at AS createdAt, r.summary,
    r.title, r.content, r.sources, r.tags, r.image, r.period
  FROM revisions r LEFT JOIN users u ON u.id = r.editor_id
  WHERE r.id = :id AND r.post_id = :postId`,
};

const insertRevision = sqlite.prepare<{ id: string; postId: string; editorId: string; summary: string }>(revisionQueries.insert);

/** Record the article's current state as its next revision, saved by `editorId`. Call it inside the transaction that wrote the article. */
export function recordRevision(postId: string, editorId: string, summary = ""): void {
  const { changes } = insertRevision.run({ id: randomBytes(9).toString("base64url"), postId, editorId, summary });
  // A missing article or editor would leave an edit without its record: undo the write instead.
  if (changes !== 1) throw new Error(`No revision recorded for post ${postId}`);
}

const lastNumber = sqlite.prepare<[string], number | null>("SELECT max(number) FROM revisions WHERE post_id = ?").pluck();

/** How many revisions an article has (numbers run 1, 2, … without gaps: revisions are removed only with their article). */
export function countRevisions(postId: string): number {
  return lastNumber.get(postId) ?? 0;
}

export type RevisionEntry = RevisionInfo & {
  /** Characters added (+) or removed (−) against the revision before it; the first against nothing. */
  change: number;
};

const revisionsPage = sqlite.prepare<{ postId: string; limit: number; offset: number }, Omit<RevisionEntry, "change"> & { size: number }>(revisionQueries.page);

/** A page of an article's revisions, newest first, each with its size change. */
export function listRevisions(postId: string, page: { offset: number; limit: number }): RevisionEntry[] {
  const rows = revisionsPage.all({ postId, ...page });
  return rows.slice(0, page.limit).map(({ size, ...row }, i) => ({ ...row, change: size - (rows[i + 1]?.size ?? 0) }));
}

type RevisionRow = Omit<RevisionContent, "sources" | "tags"> & { sources: string; tags: string };
const revisionById = sqlite.prepare<{ id: string; postId: string }, RevisionRow>(revisionQueries.one);

/** A revision of this article, whole; undefined for any other id. */
export function getRevision(postId: string, id: string): RevisionContent | undefined {
  const row = revisionById.get({ id, postId });
  return row && { ...row, sources: JSON.parse(row.sources) as RevisionContent["sources"], tags: JSON.parse(row.tags) as string[] };
}
