import type { Conflict, ConflictInput } from "~/lib/conflicts";
import { sqlite } from "~/db/connection.server";

/** The conflicts table's SQL (~/services/articles/conflicts.server has the rules). */
export const conflictQueries = {
  all: "SELECT id, name, summary, tags, period, period_first AS periodFirst, period_last AS periodLast, position FROM conflicts ORDER BY position, id",
  // An entry's background: readable articles in its period (one range of posts_period_idx), with one of its tags when it names any.
  background: `
  SELECT p.id, p.title, p.period FROM posts p
  WHERE p.period_start BETWEEN :first AND :last AND p.hidden_at IS NULL
    AND (:anyTag = 0 OR EXISTS (SELECT 1 FROM post_tags t WHERE t.post_id = p.id AND t.tag IN (SELECT value FROM json_each(:tags))))
  ORDER BY p.period_start, p.id LIMIT :limit`,
};

type Row = Omit<Conflict, "tags"> & { tags: string };
const all = sqlite.prepare<[], Row>(conflictQueries.all);
const background = sqlite.prepare<{ first: number; last: number; anyTag: number; tags: string; limit: number }, { id: string; title: string; period: string }>(
  conflictQueries.background,
);
const count = sqlite.prepare<[], number>("SELECT count(*) FROM conflicts").pluck();
const insert = sqlite.prepare<ConflictInput & { tagsJson: string; now: number }>(
  "INSERT INTO conflicts (name, summary, tags, period, period_first, period_last, position, updated_at) VALUES (:name, :summary, :tagsJson, :period, :periodFirst, :periodLast, :position, :now)",
);
const update = sqlite.prepare<ConflictInput & { id: number; tagsJson: string; now: number }>(
  "UPDATE conflicts SET name = :name, summary = :summary, tags = :tagsJson, period = :period, period_first = :periodFirst, period_last = :periodLast, position = :position, updated_at = :now WHERE id = :id",
);
const remove = sqlite.prepare<[number], { name: string }>("DELETE FROM conflicts WHERE id = ? RETURNING name");
const byId = sqlite.prepare<[number], { name: string }>("SELECT name FROM conflicts WHERE id = ?");

export function listConflicts(): Conflict[] {
  return all.all().map((row) => ({ ...row, tags: JSON.parse(row.tags) as string[] }));
}

export function countConflicts(): number {
  return count.get() ?? 0;
}

export function conflictName(id: number): string | undefined {
  return byId.get(id)?.name;
}

/** The background articles of an entry, oldest first: in its period (all time without one), with one of its tags (any without). */
export function backgroundArticles(range: { first: number; last: number }, tags: string[], limit: number) {
  return background.all({ ...range, anyTag: tags.length > 0 ? 1 : 0, tags: JSON.stringify(tags), limit });
}

export function insertConflict(entry: ConflictInput): number {
  return Number(insert.run({ ...entry, tagsJson: JSON.stringify(entry.tags), now: Date.now() }).lastInsertRowid);
}

export function updateConflict(id: number, entry: ConflictInput): boolean {
  return update.run({ ...entry, id, tagsJson: JSON.stringify(entry.tags), now: Date.now() }).changes === 1;
}

/** Delete an entry; its name, or undefined when it was gone. */
export function deleteConflict(id: number): string | undefined {
  return remove.get(id)?.name;
}
