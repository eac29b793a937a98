import { randomBytes } from "node:crypto";
import type { RevisionContent, RevisionHiding, RevisionInfo, RevisionPart } from "~/lib/revisions";
import { sqlite } from "~/db/connection.server";

/**
 * An article's revisions (the `revisions` table). Only the posts model
 * records them, inside its own writes: a revision is a copy of the
 * article's row as that write left it, so no caller can record a state the
 * article never had.
 */

// An erased name stays erased, whatever the account is called now.
const editorName = "CASE WHEN r.erased_at IS NOT NULL AND r.editor_hidden_at IS NOT NULL THEN '' ELSE coalesce(u.display_name, r.editor_name) END AS editorName";
const hidingColumns = "r.text_hidden_at AS textHiddenAt, r.summary_hidden_at AS summaryHiddenAt, r.editor_hidden_at AS editorHiddenAt, r.erased_at AS erasedAt";

type HidingColumns = { textHiddenAt: number | null; summaryHiddenAt: number | null; editorHiddenAt: number | null; erasedAt: number | null };

function hidingOf({ textHiddenAt, summaryHiddenAt, editorHiddenAt, erasedAt }: HidingColumns): RevisionHiding {
  return { text: textHiddenAt !== null, summary: summaryHiddenAt !== null, editor: editorHiddenAt !== null, erased: erasedAt !== null };
}

/** The SQL of this module, exported for tests/unit/articles/query-plans.test.ts: each is index lookups and ranges only. */
export const revisionQueries = {
  // The article as it is now (its tags in the author's order), numbered after its last revision.
  insert: `
  INSERT INTO revisions (id, post_id, number, title, content, content_source, sources, tags, image, image_width, image_height, editor_id, editor_name, created_at, summary, size, period)
  SELECT :id, p.id,
    (SELECT coalesce(max(r.number), 0) + 1 FROM revisions r WHERE r.post_id = p.id),
    p.title, p.content, p.content_source, p.sources,
    (SELECT json_group_array(t.tag ORDER BY t.rowid) FROM post_tags t WHERE t.post_id = p.id),
    p.image, p.image_width, p.image_height, u.id, u.display_name, p.updated_at, :summary, length(p.title) + length(p.content), p.period
  FROM posts p JOIN users u ON u.id = :editorId
  WHERE p.id = :postId`,
  // Newest first by revisions_post_number_idx; one row more than shown, the revision before the page's last, for its change.
  page: `
  SELECT r.id, r.number, ${editorName}, r.created_at AS createdAt, r.summary, r.size, ${hidingColumns}
  FROM revisions r LEFT JOIN users u ON u.id = r.editor_id
  WHERE r.post_id = :postId
  ORDER BY r.number DESC
  LIMIT :limit + 1 OFFSET :offset`,
  // One revision by its key, only if it is this article's: another article's revision is not found.
  one: `
  SELECT r.id, r.number, ${editorName}, r.created_at AS createdAt, r.summary,
    r.title, r.content, r.content_source AS contentSource, r.sources, r.tags, r.image, r.image_width AS imageWidth, r.image_height AS imageHeight,
    r.period, r.editor_id AS editorId, ${hidingColumns}
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

const historyImages = sqlite.prepare<[string], number>("SELECT count(DISTINCT image) FROM revisions WHERE post_id = ?").pluck();

/** How many images an article's history has (its current one among them). */
export function countHistoryImages(postId: string): number {
  return historyImages.get(postId) ?? 0;
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

type PageRow = Omit<RevisionEntry, "change" | "hidden"> & HidingColumns & { size: number };
const revisionsPage = sqlite.prepare<{ postId: string; limit: number; offset: number }, PageRow>(revisionQueries.page);

/** A page of an article's revisions, newest first, each with its size change (hidden parts included: the caller shows them to admins only). */
export function listRevisions(postId: string, page: { offset: number; limit: number }): RevisionEntry[] {
  const rows = revisionsPage.all({ postId, ...page });
  return rows.slice(0, page.limit).map(({ size, textHiddenAt, summaryHiddenAt, editorHiddenAt, erasedAt, ...row }, i) => ({
    ...row,
    hidden: hidingOf({ textHiddenAt, summaryHiddenAt, editorHiddenAt, erasedAt }),
    change: size - (rows[i + 1]?.size ?? 0),
  }));
}

/**
 * A revision whole, with who saved it (NULL once the account is gone or the
 * name erased) and its text as written (NULL when saved before Markdown).
 */
export type StoredRevision = RevisionContent & { editorId: string | null; contentSource: string | null };
type RevisionRow = Omit<StoredRevision, "sources" | "tags" | "hidden"> & HidingColumns & { sources: string; tags: string };
const revisionById = sqlite.prepare<{ id: string; postId: string }, RevisionRow>(revisionQueries.one);

/** A revision of this article, whole (hidden parts included: the caller decides who reads them); undefined for any other id. */
export function getRevision(postId: string, id: string): StoredRevision | undefined {
  const row = revisionById.get({ id, postId });
  if (!row) return undefined;
  const { textHiddenAt, summaryHiddenAt, editorHiddenAt, erasedAt, ...rest } = row;
  return { ...rest, hidden: hidingOf({ textHiddenAt, summaryHiddenAt, editorHiddenAt, erasedAt }), sources: JSON.parse(row.sources) as RevisionContent["sources"], tags: JSON.parse(row.tags) as string[] };
}

const PART_COLUMNS: Record<RevisionPart, string> = { text: "text_hidden_at", summary: "summary_hidden_at", editor: "editor_hidden_at" };

/** Hide (a time) or show again (null) these parts of revisions of one article; erased parts stay hidden. How many rows changed. */
export function setRevisionsHidden(postId: string, ids: string[], parts: RevisionPart[], at: number | null): number {
  if (ids.length === 0 || parts.length === 0) return 0;
  const set = parts.map((part) => `${PART_COLUMNS[part]} = ${at === null ? "NULL" : "coalesce(" + PART_COLUMNS[part] + ", :at)"}`).join(", ");
  const statement = sqlite.prepare(`UPDATE revisions SET ${set} WHERE post_id = :postId AND erased_at IS NULL AND id IN (SELECT value FROM json_each(:ids))`);
  return statement.run({ postId, ids: JSON.stringify(ids), ...(at === null ? {} : { at }) }).changes;
}

/**
 * Erase for good these parts of revisions (hiding them too): the text's
 * fields, the summary, the editor's name and link to the account. The row
 * stays (its number, date and size) and says it was erased.
 */
export function eraseRevisionParts(postId: string, ids: string[], parts: RevisionPart[], at: number): number {
  const erase: Record<RevisionPart, string> = {
    text: "title = '', content = '', content_source = NULL, sources = '[]', period = '', text_hidden_at = coalesce(text_hidden_at, :at)",
    summary: "summary = '', summary_hidden_at = coalesce(summary_hidden_at, :at)",
    editor: "editor_name = '', editor_id = NULL, editor_hidden_at = coalesce(editor_hidden_at, :at)",
  };
  const set = [...parts.map((part) => erase[part]), "erased_at = :at"].join(", ");
  return sqlite.prepare(`UPDATE revisions SET ${set} WHERE post_id = :postId AND id IN (SELECT value FROM json_each(:ids))`).run({ postId, at, ids: JSON.stringify(ids) }).changes;
}
