import type Database from "better-sqlite3";
import { lstat, opendir, readFile } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { isImageKey, VARIANT_FILE } from "~/lib/images";
import { copyImageKeys, copyIntegrity, copyPostCount, openCopy } from "~/models/backup-copy.server";

/** What `npm run backup` writes last, and restore reads first. */
export const manifestSchema = z.object({
  createdAt: z.iso.datetime(),
  posts: z.number().int().nonnegative(),
  images: z.number().int().nonnegative(),
  missingImages: z.array(z.string().refine(isImageKey)),
});
export type Manifest = z.infer<typeof manifestSchema>;

/** Far above any real manifest (its list of images deleted while the backup ran takes 19 bytes a key); the parsed JSON stays within a few MB: a larger one is not read. */
const MANIFEST_MAX_BYTES = 1024 * 1024;
/** Problems and skipped names reported, at most: a crafted backup may hold millions. */
const REPORTED = 10;

export type CheckedBackup =
  | { ok: true; copy: Database.Database; keys: Set<string>; skipped: string[]; skippedCount: number }
  | { ok: false; problems: string[] };

/** Bounded lists of what was found, with how many in all. */
class Findings {
  problems: string[] = [];
  problemCount = 0;
  skipped: string[] = [];
  skippedCount = 0;
  problem(text: string) {
    if (this.problemCount++ < REPORTED) this.problems.push(text);
  }
  skip(name: string) {
    if (this.skippedCount++ < REPORTED) this.skipped.push(JSON.stringify(name.slice(0, 80)));
  }
  refusal(): CheckedBackup {
    const more = this.problemCount - this.problems.length;
    return { ok: false, problems: more > 0 ? [...this.problems, `… and ${more} more`] : this.problems };
  }
}

const describe = (value: unknown) => (typeof value === "string" ? JSON.stringify(value.slice(0, 80)) : Buffer.isBuffer(value) ? "(a blob)" : `(${String(value)})`);

/** The kind of entry at a path, without following a link: null when there is none. */
async function kindOf(file: string): Promise<"file" | "folder" | "other" | null> {
  const stat = await lstat(file).catch((error: NodeJS.ErrnoException) => (error.code === "ENOENT" ? null : Promise.reject(error)));
  return !stat ? null : stat.isFile() ? "file" : stat.isDirectory() ? "folder" : "other";
}

/**
 * The image files in the backup's uploads/, counted; each one a regular
 * file (a link to a secret would be copied into the site and served).
 * Other names are never copied (restore copies only the variants of the
 * database's keys), and are skipped: a desktop browsing the folder leaves
 * `.DS_Store` or `Thumbs.db` there.
 */
async function countImageFiles(uploads: string, findings: Findings): Promise<number> {
  const kind = await kindOf(uploads);
  if (kind === null) return 0;
  if (kind !== "folder") {
    findings.problem("uploads is not a folder (a symbolic link or something else).");
    return 0;
  }
  let count = 0;
  for await (const entry of await opendir(uploads)) {
    if (!VARIANT_FILE.test(entry.name)) findings.skip(entry.name);
    else if ((await kindOf(path.join(uploads, entry.name))) !== "file") findings.problem(`uploads/${entry.name} is not a regular file (a symbolic link or something else).`);
    else count++;
  }
  return count;
}

async function readManifest(file: string, findings: Findings): Promise<Manifest | null> {
  if ((await lstat(file)).size > MANIFEST_MAX_BYTES) {
    findings.problem(`manifest.json is larger than ${MANIFEST_MAX_BYTES} bytes: not the manifest a backup writes.`);
    return null;
  }
  let json: unknown;
  try {
    json = JSON.parse(await readFile(file, "utf8"));
  } catch {
    findings.problem("manifest.json is not JSON.");
    return null;
  }
  const manifest = manifestSchema.safeParse(json);
  if (!manifest.success) findings.problem(`manifest.json is not the manifest a backup writes (${manifest.error.issues[0].path.join(".") || "its shape"}).`);
  return manifest.success ? manifest.data : null;
}

/** Every key the database names must be a key of this site's shape; the articles' and pending uploads' are the ones to copy. */
function imageKeysOf(copy: Database.Database, findings: Findings): Set<string> {
  const keys = new Set<string>();
  for (const { where, key } of copyImageKeys(copy)) {
    if (!isImageKey(key)) findings.problem(`${where} ${describe(key)} is not an image key of this site.`);
    else if (where !== "loose_images.key") keys.add(key);
  }
  return keys;
}

/**
 * Check a backup folder before restore replaces anything, trusting nothing
 * in it: a backup may come from elsewhere (a move, a bucket others can
 * write). Its database and manifest must be regular files (no link to the
 * site's own database or a secret), the manifest the one a backup writes
 * and agreeing with what the folder holds, the database whole and every
 * image key it names of the site's shape (`../x` would name a file outside
 * the image folder, to write, serve or delete). On success the database
 * copy is open, for restore to read and close.
 */
export async function checkBackup(folder: string): Promise<CheckedBackup> {
  const findings = new Findings();
  const databaseFile = path.join(folder, "dejiny.db");
  const manifestFile = path.join(folder, "manifest.json");
  const [database, manifestKind] = [await kindOf(databaseFile), await kindOf(manifestFile)];
  if (database === null) return { ok: false, problems: [`${databaseFile} does not exist.`] };
  if (manifestKind === null) return { ok: false, problems: [`${folder} has no manifest.json: that backup did not finish.`] };
  if (database !== "file") findings.problem("dejiny.db is not a regular file (a symbolic link or something else).");
  if (manifestKind !== "file") findings.problem("manifest.json is not a regular file (a symbolic link or something else).");
  if (findings.problemCount > 0) return findings.refusal();

  const manifest = await readManifest(manifestFile, findings);
  const images = await countImageFiles(path.join(folder, "uploads"), findings);
  if (manifest && manifest.images !== images) findings.problem(`manifest.json counts ${manifest.images} image files, uploads/ holds ${images}.`);

  let copy: Database.Database | undefined;
  try {
    copy = openCopy(databaseFile);
    const integrity = copyIntegrity(copy);
    if (integrity !== "ok") {
      findings.problem(`The backup's database is damaged (integrity_check: ${integrity.slice(0, 200)}).`);
    } else {
      const posts = copyPostCount(copy);
      if (manifest && manifest.posts !== posts) findings.problem(`manifest.json counts ${manifest.posts} articles, the database holds ${posts}.`);
      const keys = imageKeysOf(copy, findings);
      if (findings.problemCount === 0) return { ok: true, copy, keys, skipped: findings.skipped, skippedCount: findings.skippedCount };
    }
  } catch (error) {
    // Not an SQLite file, or not this site's (no such table).
    findings.problem(`dejiny.db is not a database of this site (${(error as Error).message}).`);
  }
  copy?.close();
  return findings.refusal();
}
