import Database from "better-sqlite3";

/**
 * A copy of the database that is not the site's own (a backup's), opened
 * read-only: what backup and restore ask of it. Restore asks before it
 * trusts it, so every value is read as SQLite holds it (any type).
 */
export function openCopy(file: string): Database.Database {
  return new Database(file, { readonly: true, fileMustExist: true });
}

/** "ok", or what SQLite found damaged. */
export function copyIntegrity(copy: Database.Database): string {
  return String(copy.pragma("integrity_check", { simple: true }));
}

export function copyPostCount(copy: Database.Database): number {
  return copy.prepare("SELECT count(*) FROM posts").pluck().get() as number;
}

export type NamedImageKey = { where: "posts.image" | "revisions.image" | "pending_images.key" | "drafts.image_key" | "loose_images.key"; key: unknown };

/**
 * Every image key the copy names, one row at a time: its articles', (from
 * migration 0014 on) their old revisions', its pending uploads', (from 0015
 * on) its drafts' and (from 0009 on) its loose images'.
 */
export function* copyImageKeys(copy: Database.Database): Generator<NamedImageKey> {
  const has = (table: string) => copy.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(table) !== undefined;
  const rows = copy.prepare(
    "SELECT 'posts.image' AS \"where\", image AS key FROM posts UNION ALL SELECT 'pending_images.key', key FROM pending_images" +
      (has("revisions") ? " UNION ALL SELECT DISTINCT 'revisions.image', image FROM revisions" : "") +
      (has("drafts") ? " UNION ALL SELECT 'drafts.image_key', image_key FROM drafts WHERE image_key IS NOT NULL" : "") +
      (has("loose_images") ? " UNION ALL SELECT 'loose_images.key', key FROM loose_images" : ""),
  );
  yield* rows.iterate() as IterableIterator<NamedImageKey>;
}
