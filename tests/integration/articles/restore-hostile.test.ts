import { createHash } from "node:crypto";
import { cpSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { imageStoreEnv, startLocalS3 } from "../../../scripts/lib/local-s3";
import { startServer } from "../../../scripts/lib/server";
import { runBuildCommand } from "../../support/commands";
import { readDatabase } from "../../support/http";

// Backups made by someone else (a migration, a bucket others can write) and
// altered to reach outside the site's data: `npm run restore` must refuse
// them before it replaces anything, and the image store and the start-up
// clean-up must not follow a crafted key or a symbolic link anywhere.
const root = mkdtempSync(path.join(tmpdir(), "dejiny-restore-hostile-"));
const SECRET = "DEJINY_SECRET=restore-test-4b1d";
const VARIANTS = [400, 800, 1200, "thumb"].flatMap((variant) => [`${variant}.jpg`, `${variant}.webp`]);
const FOREIGN_KEY = "ZZZZZZZZZZZZZZZZ";
/** A genuine backup of the shared test site, and a site restored from it: each case alters copies of both. */
const genuine = path.join(root, "genuine");
const template = path.join(root, "template");
let key: string;

type Case = { dir: string; backup: string; site: { databasePath: string; uploadsDir: string } };
const sitePaths = (dir: string) => ({ databasePath: path.join(dir, "data", "dejiny.db"), uploadsDir: path.join(dir, "uploads") });

/** A copy of the genuine backup (`backup`) beside a copy of the restored site (`site`), a secret file next to them. */
function newCase(name: string): Case {
  const dir = path.join(root, name);
  cpSync(genuine, path.join(dir, "backup"), { recursive: true });
  cpSync(template, path.join(dir, "site"), { recursive: true });
  writeFileSync(path.join(dir, "secret.txt"), SECRET);
  return { dir, backup: path.join(dir, "backup"), site: sitePaths(path.join(dir, "site")) };
}

const alterDatabase = (file: string, sql: string) => readDatabase(file, (db) => db.exec(sql), true);

/** Every file under a folder (a link as its target), with a hash of its bytes; SQLite's -wal/-shm left out. */
function snapshot(folder: string, base = folder): Record<string, string> {
  const files: Record<string, string> = {};
  for (const name of readdirSync(folder)) {
    const file = path.join(folder, name);
    const relative = path.relative(base, file);
    const stat = lstatSync(file);
    if (stat.isSymbolicLink()) files[relative] = `-> ${readlinkSync(file)}`;
    else if (stat.isDirectory()) Object.assign(files, snapshot(file, base));
    else if (!/-(wal|shm)$/.test(name)) files[relative] = createHash("sha1").update(readFileSync(file)).digest("hex");
  }
  return files;
}

/** Restore the case's backup into its site: refused, with this problem named, and nothing beside the backup changed. */
async function expectRefused(crafted: Case, problem: string | RegExp, settings: Record<string, string> = {}) {
  const before = snapshot(crafted.dir);
  const restore = await runBuildCommand("runRestore", [crafted.backup], crafted.site, settings);
  expect(restore.code, restore.output).toBe(1);
  expect(restore.output).toContain("nothing was changed");
  expect(restore.output).toMatch(problem);
  expect(snapshot(crafted.dir)).toEqual(before);
  expect(restore.output).not.toContain(SECRET);
}

beforeAll(async () => {
  const shared = { databasePath: inject("databasePath"), uploadsDir: inject("uploadsDir") };
  const backup = await runBuildCommand("runBackup", [genuine], shared);
  expect(backup.code, backup.output).toBe(0);
  const restore = await runBuildCommand("runRestore", [genuine], sitePaths(template));
  expect(restore.code, restore.output).toBe(0);
  for (const file of readdirSync(path.join(template, "data"))) if (file.includes(".before-restore-")) rmSync(path.join(template, "data", file));
  key = readDatabase(path.join(genuine, "dejiny.db"), (db) => db.prepare("SELECT image FROM posts ORDER BY id LIMIT 1").pluck().get() as string);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("restore refuses a crafted backup and changes nothing", () => {
  it("an article whose image key leaves the folder (../escape)", async () => {
    const crafted = newCase("traversal");
    alterDatabase(path.join(crafted.backup, "dejiny.db"), `UPDATE posts SET image = '../escape' WHERE image = '${key}'`);
    // The files such a key names, where a restore following it would read them.
    for (const variant of VARIANTS) cpSync(path.join(crafted.backup, "uploads", `${key}-${variant}`), path.join(crafted.backup, `escape-${variant}`));
    await expectRefused(crafted, `posts.image "../escape" is not an image key of this site`);
    expect(existsSync(path.join(crafted.dir, "site", "escape-400.jpg"))).toBe(false);
  });

  it("a pending upload and a loose image whose keys leave the folder", async () => {
    const crafted = newCase("rows");
    writeFileSync(path.join(crafted.dir, "site", "victim-400.jpg"), "keep me");
    alterDatabase(
      path.join(crafted.backup, "dejiny.db"),
      "INSERT INTO pending_images (key, user_id, width, height, created_at) SELECT '../victim', id, 1, 1, 0 FROM users LIMIT 1;" +
        "INSERT INTO loose_images (key, since) VALUES ('../../victim', 0), (x'2e2e2f', 0)",
    );
    await expectRefused(crafted, /pending_images\.key "\.\.\/victim" is not an image key[^]*loose_images\.key "\.\.\/\.\.\/victim"[^]*loose_images\.key \(a blob\)/);
  });

  it("a symbolic link in uploads/ to a secret file outside the backup", async () => {
    const crafted = newCase("symlink");
    // A key the site does not have yet, so that a restore would copy its files.
    alterDatabase(path.join(crafted.backup, "dejiny.db"), `UPDATE posts SET image = '${FOREIGN_KEY}' WHERE image = '${key}'`);
    const uploads = path.join(crafted.backup, "uploads");
    for (const variant of VARIANTS) renameSync(path.join(uploads, `${key}-${variant}`), path.join(uploads, `${FOREIGN_KEY}-${variant}`));
    rmSync(path.join(uploads, `${FOREIGN_KEY}-400.jpg`));
    symlinkSync(path.join(crafted.dir, "secret.txt"), path.join(uploads, `${FOREIGN_KEY}-400.jpg`));
    await expectRefused(crafted, `uploads/${FOREIGN_KEY}-400.jpg is not a regular file`);
    expect(existsSync(path.join(crafted.site.uploadsDir, `${FOREIGN_KEY}-400.jpg`))).toBe(false);
  });

  it("a directory in place of an image file, a linked uploads/ folder, a linked database", async () => {
    const directory = newCase("directory");
    rmSync(path.join(directory.backup, "uploads", `${key}-800.jpg`));
    mkdirSync(path.join(directory.backup, "uploads", `${key}-800.jpg`));
    await expectRefused(directory, `uploads/${key}-800.jpg is not a regular file`);

    const linkedFolder = newCase("linked-uploads");
    renameSync(path.join(linkedFolder.backup, "uploads"), path.join(linkedFolder.dir, "elsewhere"));
    symlinkSync(path.join(linkedFolder.dir, "elsewhere"), path.join(linkedFolder.backup, "uploads"));
    await expectRefused(linkedFolder, "uploads is not a folder");

    // The site's own database (or any other) in place of the backup's.
    const linkedDatabase = newCase("linked-database");
    rmSync(path.join(linkedDatabase.backup, "dejiny.db"));
    symlinkSync(linkedDatabase.site.databasePath, path.join(linkedDatabase.backup, "dejiny.db"));
    await expectRefused(linkedDatabase, "dejiny.db is not a regular file");
  });

  it("a manifest that is not a backup's, or does not match what the backup holds", async () => {
    const manifestOf = (crafted: Case) => path.join(crafted.backup, "manifest.json");
    const read = (crafted: Case) => JSON.parse(readFileSync(manifestOf(crafted), "utf8")) as Record<string, unknown>;

    const garbage = newCase("manifest-garbage");
    writeFileSync(manifestOf(garbage), "{ not json");
    await expectRefused(garbage, "manifest.json is not JSON");

    const shape = newCase("manifest-shape");
    writeFileSync(manifestOf(shape), JSON.stringify({ ...read(shape), missingImages: ["../../etc/passwd"] }));
    await expectRefused(shape, "manifest.json is not the manifest a backup writes");

    const posts = newCase("manifest-posts");
    alterDatabase(path.join(posts.backup, "dejiny.db"), "DELETE FROM posts WHERE rowid IN (SELECT rowid FROM posts LIMIT 1)");
    await expectRefused(posts, /manifest\.json counts \d+ articles, the database holds \d+/);

    const images = newCase("manifest-images");
    cpSync(path.join(images.backup, "uploads", `${key}-400.jpg`), path.join(images.backup, "uploads", `${FOREIGN_KEY}-400.jpg`));
    await expectRefused(images, /manifest\.json counts \d+ image files, uploads\/ holds \d+/);

    const linked = newCase("manifest-link");
    renameSync(manifestOf(linked), path.join(linked.dir, "manifest.json"));
    symlinkSync(path.join(linked.dir, "manifest.json"), manifestOf(linked));
    await expectRefused(linked, "manifest.json is not a regular file");
  });

  it("into a bucket: a traversal key and a link are refused, no object written", async () => {
    const s3 = await startLocalS3(path.join(root, "s3"), ["dejiny"]);
    try {
      const settings = imageStoreEnv(s3, "dejiny", "site");
      const traversal = newCase("bucket-traversal");
      alterDatabase(path.join(traversal.backup, "dejiny.db"), `UPDATE posts SET image = '../escape' WHERE image = '${key}'`);
      for (const variant of VARIANTS) cpSync(path.join(traversal.backup, "uploads", `${key}-${variant}`), path.join(traversal.backup, `escape-${variant}`));
      await expectRefused(traversal, `posts.image "../escape" is not an image key of this site`, settings);

      const linked = newCase("bucket-symlink");
      rmSync(path.join(linked.backup, "uploads", `${key}-400.jpg`));
      symlinkSync(path.join(linked.dir, "secret.txt"), path.join(linked.backup, "uploads", `${key}-400.jpg`));
      await expectRefused(linked, `uploads/${key}-400.jpg is not a regular file`, settings);
      expect(await s3.keys("dejiny", "")).toEqual([]);
    } finally {
      await s3.close();
    }
  });
});

describe("what restore skips", () => {
  it("restores a backup with foreign files in uploads/ (a desktop's .DS_Store, a script) without copying them, and says so", async () => {
    const crafted = newCase("foreign-names");
    writeFileSync(path.join(crafted.backup, "uploads", ".DS_Store"), "finder");
    writeFileSync(path.join(crafted.backup, "uploads", "evil.sh"), "#!/bin/sh\n");
    symlinkSync(path.join(crafted.dir, "secret.txt"), path.join(crafted.backup, "uploads", "notes.txt"));
    const restore = await runBuildCommand("runRestore", [crafted.backup], crafted.site);
    expect(restore.code, restore.output).toBe(0);
    expect(restore.output).toContain('Skipped 3 files in uploads/ that are not image files of this site: ".DS_Store", "evil.sh", "notes.txt"');
    expect(readdirSync(crafted.site.uploadsDir).filter((name) => !/^[\w-]{16}-(400|800|1200|thumb)\.(jpg|webp)$/.test(name))).toEqual([]);
  });
});

describe("the running site, given crafted rows and links by other means", () => {
  it("start-up clean-up leaves files outside the folder alone, and a linked image file is never served", async () => {
    const crafted = newCase("startup");
    const siteDir = path.join(crafted.dir, "site");
    for (const victim of ["victim", "victim2"]) writeFileSync(path.join(siteDir, `${victim}-400.jpg`), "keep me");
    alterDatabase(
      crafted.site.databasePath,
      "INSERT INTO pending_images (key, user_id, width, height, created_at) SELECT '../victim', id, 1, 1, 0 FROM users LIMIT 1;" +
        "INSERT INTO loose_images (key, since) VALUES ('../victim2', 0)",
    );
    // Every variant a request for this image could reach, a link to the secret.
    for (const variant of VARIANTS) {
      rmSync(path.join(crafted.site.uploadsDir, `${key}-${variant}`));
      symlinkSync(path.join(crafted.dir, "secret.txt"), path.join(crafted.site.uploadsDir, `${key}-${variant}`));
    }
    const server = await startServer({ DEMO_CONTENT: "off" }, siteDir);
    try {
      for (const victim of ["victim", "victim2"]) expect(readFileSync(path.join(siteDir, `${victim}-400.jpg`), "utf8")).toBe("keep me");
      for (const variant of VARIANTS) {
        const response = await fetch(`${server.url}/images/${key}-${variant}`);
        expect([response.status, (await response.text()).includes(SECRET)], variant).toEqual([404, false]);
      }
      // The crafted rows are forgotten, not kept to be tried again at every start.
      // (The shared site the backup came from may hold genuine pending uploads of other tests: those stay.)
      const left = readDatabase(crafted.site.databasePath, (db) => db.prepare("SELECT key FROM pending_images UNION ALL SELECT key FROM loose_images").pluck().all());
      expect(left.filter((leftKey) => String(leftKey).includes("victim"))).toEqual([]);
      expect(server.output()).toContain('Ignored image key "../victim2"');
    } finally {
      await server.stop();
    }
  });
});
