import type Database from "better-sqlite3";
import { mkdir, readdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { VARIANT_FILE, variantFiles } from "~/lib/images";
import { migrateDatabase, sqlite } from "~/db/connection.server";
import { clearLooseImages } from "~/models/loose-images.server";
import { markSiteChanged } from "~/models/meta.server";
import { copyImageKeys, copyPostCount, openCopy } from "~/models/backup-copy.server";
import { referencedImageKeys } from "~/models/posts.server";
import { indexMissingPosts } from "~/models/search.server";
import { env } from "~/config/env.server";
import { checkBackup, type Manifest } from "./backup-check.server";
import { folderStore, imageStore } from "~/services/images/image-store.server";
import type { ImageStore } from "~/services/images/image-store-type.server";

type Report = { code: number; output: string };

/** Copy the files of these images from one store to another (the site's folder or bucket, a backup's folder), one file at a time; files already there are skipped. */
async function copyImages(keys: Iterable<string>, from: ImageStore, to: ImageStore): Promise<number> {
  let copied = 0;
  for (const key of keys) {
    for (const name of variantFiles(key)) {
      if (await to.has(name)) continue;
      const bytes = await from.read(name);
      if (!bytes) continue; // deleted meanwhile, or a thumbnail not made yet
      await to.write(name, bytes);
      copied++;
    }
  }
  return copied;
}

/** What a database copy holds: its number of posts and the image keys it refers to (its articles' and pending uploads'). */
function describeCopy(databaseFile: string): { posts: number; keys: Set<string> } {
  const copy = openCopy(databaseFile);
  try {
    const keys = new Set<string>();
    for (const { where, key } of copyImageKeys(copy)) if (where !== "loose_images.key") keys.add(key as string);
    return { posts: copyPostCount(copy), keys };
  } finally {
    copy.close();
  }
}

/**
 * `npm run backup -- <target>`: a consistent copy of the database (SQLite's
 * online backup, safe while the site runs) and of the images it refers to,
 * into the backup's folder, whether the site keeps them in a folder or in
 * a bucket (where a deleted article's images are deleted too). Images are
 * copied before and after the database snapshot, so every image the
 * snapshot refers to is in the copy, even if it was uploaded meanwhile.
 */
export async function runBackup(target: string | undefined): Promise<Report> {
  if (!target) return { code: 2, output: "Usage: npm run backup -- <target folder>" };
  const folder = path.resolve(target);
  const existing = await readdir(folder).catch(() => []);
  if (existing.length > 0) return { code: 1, output: `${folder} is not empty: choose a new folder for the backup.` };
  const uploads = path.join(folder, "uploads");
  const databaseFile = path.join(folder, "dejiny.db");
  const site = await imageStore();
  const copy = folderStore(uploads);
  await mkdir(uploads, { recursive: true });

  await copyImages(referencedImageKeys(), site, copy);
  await sqlite.backup(databaseFile);
  const { posts, keys } = describeCopy(databaseFile);
  // What was uploaded since the first pass.
  await copyImages(keys, site, copy);

  const present = new Set((await readdir(uploads)).map((name) => VARIANT_FILE.exec(name)?.[1]));
  const missing = [...keys].filter((key) => !present.has(key));
  const manifest: Manifest = { createdAt: new Date().toISOString(), posts, images: (await readdir(uploads)).length, missingImages: missing };
  await writeFile(path.join(folder, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  const warning = missing.length ? `\nWarning: ${missing.length} images were deleted while the backup ran: ${missing.join(", ")}` : "";
  return { code: 0, output: `Backed up ${posts} articles and ${manifest.images} image files to ${folder}.${warning}` };
}

/**
 * Write a database into the live one through SQLite's backup API: all pages
 * in one step, so the live database is locked only for that moment. A first
 * step that finds the site writing copies nothing and reports no pages:
 * wait and try again (10 s at most). False when it never got its turn.
 */
async function copyInto(source: Database.Database, target: string): Promise<boolean> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const { totalPages } = await source.backup(target, { progress: () => 0x7fffffff });
    if (totalPages > 0) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return false;
}

/**
 * Litestream's bookkeeping tables, when it replicates this database. It makes
 * them only when it starts, and its checkpoints fail without them: a restored
 * copy that lacks them gets them back.
 */
function litestreamTables(): string[] {
  return sqlite.prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND substr(name, 1, 12) = '_litestream_'").pluck().all() as string[];
}

/** A restore's refusal: what it refused, and that it changed nothing. */
function refusal(folder: string, problems: string[]): Report {
  return { code: 1, output: `Refused to restore ${folder}; nothing was changed:\n${problems.map((problem) => `  - ${problem}`).join("\n")}` };
}

/**
 * `npm run restore -- <source>`: put a backup back, with the site running
 * or stopped. The backup is checked first, whole (checkBackup): anything
 * in it that could reach outside the site's data refuses the restore
 * before anything is replaced; files in uploads/ that are not image files
 * are never copied, and are named in the report. The database is replaced
 * page by page through SQLite's backup API, in one transaction: a running
 * site goes on serving the old articles until the moment it commits, then
 * the restored ones (its page cache sees the change). The current database
 * is kept beside the restored one (suffix .before-restore-<time>) until you
 * remove it; the images stay where they are (nothing removes them), so it
 * keeps its own too. A backup without its manifest (written last) did not
 * finish, and is refused.
 */
export async function runRestore(source: string | undefined): Promise<Report> {
  if (!source) return { code: 2, output: "Usage: npm run restore -- <backup folder>" };
  const folder = path.resolve(source);
  const checked = await checkBackup(folder);
  if (!checked.ok) return refusal(folder, checked.problems);
  const { copy, keys, skipped, skippedCount } = checked;
  try {
    const suffix = `.before-restore-${new Date().toISOString().replace(/[:.]/g, "-")}`;
    await sqlite.backup(`${env.databasePath}${suffix}`);
    // The restored articles' images first, so that none is missing once the database switches.
    // The current images stay where they are: nothing removes them, so the kept database still has its own.
    const images = await copyImages(keys, folderStore(path.join(folder, "uploads")), await imageStore());
    const replication = litestreamTables();
    if (!(await copyInto(copy, env.databasePath))) {
      return { code: 1, output: "The database stayed busy for 10 s: nothing was restored. Try again in a moment." };
    }
    for (const create of replication) sqlite.exec(create.replace(/^CREATE TABLE/, "CREATE TABLE IF NOT EXISTS"));
    migrateDatabase();
    // The restored data's change time is the backup's: feeds' Last-Modified must not go back to it.
    markSiteChanged();
    // The restored marks name uploads and deletes of another moment, whose files may belong to
    // articles of the kept database: they are left alone rather than removed.
    clearLooseImages();
    indexMissingPosts();
    const foreign = skippedCount
      ? `\nSkipped ${skippedCount} files in uploads/ that are not image files of this site: ${[...skipped].sort().join(", ")}${skippedCount > skipped.length ? ", …" : ""}.`
      : "";
    return {
      code: 0,
      output:
        `Restored the database and ${images} image files from ${folder}. The previous database is kept with the suffix ${suffix}; ` +
        `the previous images stay where they were.${foreign}`,
    };
  } finally {
    copy.close();
  }
}
