import Database from "better-sqlite3";
import { createServer, type Server } from "node:net";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { registerUser } from "../../../scripts/lib/client";
import { imageStoreEnv, startLocalS3, type LocalS3 } from "../../../scripts/lib/local-s3";
import { publish } from "../../../scripts/lib/publish";
import { startServer, type RunningServer } from "../../../scripts/lib/server";
import { runBuildCommand } from "../../support/commands";
import { getPage, readDatabase } from "../../support/http";

// The same site with its images in a bucket of a local S3-compatible server
// (s3rver), through the real AWS SDK: IMAGE_STORE_URL=s3://dejiny/site.
const root = mkdtempSync(path.join(tmpdir(), "dejiny-bucket-"));
const BUCKET = "dejiny";
const VARIANTS = [400, 800, 1200, "thumb"].flatMap((variant) => [`${variant}.jpg`, `${variant}.webp`]);
let s3: LocalS3;
let site: RunningServer;
let settings: Record<string, string>;
const servers: RunningServer[] = [];

const start = async (env: Record<string, string>, dir: string) => {
  const server = await startServer({ SESSION_SECRET: "bucket-test-secret-".padEnd(40, "x"), ...env }, dir);
  servers.push(server);
  return server;
};
const imageKeys = (server: RunningServer) => readDatabase(server.databasePath, (db) => db.prepare("SELECT image FROM posts").pluck().all() as string[]);
const objectsOf = (keys: string[], folder: string) => keys.flatMap((key) => VARIANTS.map((variant) => `${folder}/${key}-${variant}`)).sort();
const IMAGE_HEADERS = ["content-type", "cache-control", "content-security-policy", "content-disposition", "x-content-type-options"];

beforeAll(async () => {
  s3 = await startLocalS3(path.join(root, "s3"), [BUCKET]);
  settings = imageStoreEnv(s3, BUCKET, "site");
  site = await start({ DEMO_CONTENT: "on", ...settings }, path.join(root, "site"));
});
afterAll(async () => {
  for (const server of servers) await server.stop();
  await s3.close();
  rmSync(root, { recursive: true, force: true });
});

describe("images in S3-compatible object storage", () => {
  it("keeps every variant of the demo articles' images in the bucket, none on the volume", async () => {
    const keys = imageKeys(site);
    expect(keys.length).toBeGreaterThan(0);
    expect(await s3.keys(BUCKET, "site/")).toEqual(objectsOf(keys, "site"));
    expect(existsSync(site.uploadsDir) ? readdirSync(site.uploadsDir) : []).toEqual([]);
    // Typed and cached as the site serves them, for a public bucket or a CDN in front of it.
    const head = await s3.client.send(new (await import("@aws-sdk/client-s3")).HeadObjectCommand({ Bucket: BUCKET, Key: `site/${keys[0]}-800.webp` }));
    expect(head).toMatchObject({ ContentType: "image/webp", CacheControl: "public, max-age=31536000, immutable" });
  });

  it("serves them at the same addresses, with the same headers, as from the folder", async () => {
    const folderSite = inject("baseUrl");
    const firstImage = async (base: string) => (await getPage(`${base}/posts`)).doc.querySelector(".card img")!.getAttribute("src")!;
    const [fromFolder, fromBucket] = await Promise.all([fetch(`${folderSite}${await firstImage(folderSite)}`), fetch(`${site.url}${await firstImage(site.url)}`)]);
    const src = await firstImage(site.url);
    expect(src).toMatch(/^\/images\/[\w-]{16}-\d+\.(jpg|webp)$/);
    expect(fromBucket.status).toBe(200);
    for (const name of IMAGE_HEADERS) expect(fromBucket.headers.get(name), name).toBe(fromFolder.headers.get(name));
    for (const name of ["etag", "last-modified"]) expect(fromBucket.headers.get(name), name).toBeTruthy();
    const bytes = Buffer.from(await fromBucket.arrayBuffer());
    expect(bytes.equals((await s3.get(BUCKET, `site/${src.slice("/images/".length)}`))!)).toBe(true);
    expect(fromBucket.headers.get("content-length")).toBe(String(bytes.length));

    // Conditional requests and HEAD, as browsers and proxies send them (fetch adds `no-cache`, which forbids a 304, unless told otherwise).
    const again = await fetch(`${site.url}${src}`, { headers: { "If-None-Match": fromBucket.headers.get("etag")!, "Cache-Control": "max-age=0" } });
    expect(again.status).toBe(304);
    const head = await fetch(`${site.url}${src}`, { method: "HEAD" });
    expect([head.status, head.headers.get("content-length"), (await head.arrayBuffer()).byteLength]).toEqual([200, String(bytes.length), 0]);
    expect((await fetch(`${site.url}/images/AAAAAAAAAAAAAAAA-400.jpg`)).status).toBe(404);
  });

  it("stands the 400 px variant in for a thumbnail not made yet, without caching it", async () => {
    const [key] = imageKeys(site);
    const thumbnail = (await s3.get(BUCKET, `site/${key}-thumb.webp`))!;
    await s3.remove(BUCKET, `site/${key}-thumb.webp`);
    try {
      const response = await fetch(`${site.url}/images/${key}-thumb.webp`);
      expect(response.status).toBe(200);
      expect(response.headers.get("cache-control")).toBe("public, max-age=0");
      expect(Buffer.from(await response.arrayBuffer()).equals((await s3.get(BUCKET, `site/${key}-400.webp`))!)).toBe(true);
    } finally {
      await s3.put(BUCKET, `site/${key}-thumb.webp`, thumbnail);
    }
  });

  it("makes missing thumbnails at the first start that finds them, and later starts ask the bucket nothing about them", async () => {
    const [key] = imageKeys(site);
    const thumbnail = `site/${key}-thumb.jpg`;
    const flag = () => readDatabase(site.databasePath, (db) => db.prepare("SELECT value FROM app_meta WHERE key = 'thumbnails_complete'").pluck().get());
    expect(flag()).toBeTruthy();
    const restart = async () => {
      await site.stop();
      site = await start({ DEMO_CONTENT: "on", ...settings }, site.dataDir);
    };
    // As after an upgrade from a version without thumbnails.
    await s3.remove(BUCKET, thumbnail);
    readDatabase(site.databasePath, (db) => db.exec("DELETE FROM app_meta WHERE key = 'thumbnails_complete'"), true);
    await restart();
    for (let waited = 0; !flag(); waited += 100) {
      expect(waited, "the thumbnails were not made").toBeLessThan(10_000);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const made = (await s3.get(BUCKET, thumbnail))!;
    expect(made).not.toBeNull();
    // Once recorded, a thumbnail gone missing is not looked for again (the 400 px variant stands in).
    await s3.remove(BUCKET, thumbnail);
    await restart();
    await new Promise((resolve) => setTimeout(resolve, 2_000)); // the first start made them within one
    expect(await s3.get(BUCKET, thumbnail)).toBeNull();
    expect((await fetch(`${site.url}/images/${key}-thumb.jpg`)).status).toBe(200);
    await s3.put(BUCKET, thumbnail, made);
  });

  it("writes a published article's image to the bucket and removes it with the article", async () => {
    const { client } = await registerUser(site.url);
    const id = (await publish(client, "Článok s obrázkom v úložisku"))!;
    expect(id).toBeTruthy();
    const key = readDatabase(site.databasePath, (db) => db.prepare("SELECT image FROM posts WHERE id = ?").pluck().get(id) as string);
    expect(await s3.keys(BUCKET, `site/${key}`)).toEqual(objectsOf([key], "site"));
    const { doc } = await getPage(`${site.url}/posts/${id}`);
    expect((await fetch(`${site.url}${doc.querySelector("article img")!.getAttribute("src")}`)).status).toBe(200);

    const { response } = await client.post(`/posts/${id}`, { intent: "delete", confirm: "yes" });
    expect(response.status).toBe(303);
    expect(await s3.keys(BUCKET, `site/${key}`)).toEqual([]);
  });

  it("removes at start-up the files of an upload it was writing when it died, and no object it did not write", async () => {
    // An upload the process died in: its key marked loose, its files (some of them) written, no row.
    const interrupted = "Interrupted00000";
    readDatabase(site.databasePath, (db) => db.prepare("INSERT INTO loose_images (key, since) VALUES (?, ?)").run(interrupted, Date.now()), true);
    const written = objectsOf([interrupted], "site").slice(0, 3);
    // Never this site's: another site's in the same folder, say, or one whose database was lost.
    const others = ["site/Unknown000000000-400.jpg", "site/older/AAAAAAAAAAAAAAAA-400.jpg", "other-site/AAAAAAAAAAAAAAAA-400.jpg", "site/README.txt"];
    for (const key of [...written, ...others]) await s3.put(BUCKET, key, "x");
    await site.stop();
    site = await start({ DEMO_CONTENT: "on", ...settings }, site.dataDir);
    expect(site.output()).toContain("Removed the files of 1 images that no article refers to");
    const left = new Set(await s3.keys(BUCKET));
    for (const key of written) expect(left.has(key), key).toBe(false);
    for (const key of others) expect(left.has(key), key).toBe(true);
    expect(readDatabase(site.databasePath, (db) => db.prepare("SELECT key FROM loose_images").pluck().all())).toEqual([]);
    for (const key of others) await s3.remove(BUCKET, key);
  });

  it("a new site (an empty database) on a folder full of images removes none of them", async () => {
    // E.g. a disaster restore with a mistyped replica address, started with the right image settings.
    const before = await s3.keys(BUCKET, "site/");
    const fresh = await start({ DEMO_CONTENT: "off", ...settings }, path.join(root, "fresh"));
    await fresh.stop();
    expect(await s3.keys(BUCKET, "site/")).toEqual(before);
  });

  it("a read-only replica on a copy of the database serves the same images from the bucket and never cleans it up", async () => {
    const copyDir = path.join(root, "replica");
    mkdirSync(path.join(copyDir, "data"), { recursive: true });
    const primaryDb = new Database(site.databasePath, { readonly: true });
    await primaryDb.backup(path.join(copyDir, "data", "dejiny.db"));
    primaryDb.close();
    // An upload the primary is writing: not in the copy's database, and not the replica's to remove.
    const upload = "site/PendingUpload000-800.jpg";
    await s3.put(BUCKET, upload, "x");
    const before = await s3.keys(BUCKET);
    const replica = await start({ READ_ONLY: "on", ...settings }, copyDir);
    const src = (await getPage(`${replica.url}/posts`)).doc.querySelector(".card img")!.getAttribute("src")!;
    const [fromReplica, fromPrimary] = await Promise.all([fetch(`${replica.url}${src}`), fetch(`${site.url}${src}`)]);
    expect(fromReplica.status).toBe(200);
    expect(Buffer.from(await fromReplica.arrayBuffer()).equals(Buffer.from(await fromPrimary.arrayBuffer()))).toBe(true);
    await replica.stop();
    expect(await s3.keys(BUCKET)).toEqual(before);
    await s3.remove(BUCKET, upload);
  });

  it("backs the bucket's images up into the backup's folder, and restores them into another bucket folder", async () => {
    const target = path.join(root, "backup");
    const backup = await runBuildCommand("runBackup", [target], site, settings);
    expect(backup.code, backup.output).toBe(0);
    const keys = imageKeys(site);
    expect(readdirSync(path.join(target, "uploads")).sort()).toEqual(objectsOf(keys, "x").map((name) => name.slice(2)));

    const restoredDir = path.join(root, "restored");
    const restoredSettings = imageStoreEnv(s3, BUCKET, "restored");
    const paths = { databasePath: path.join(restoredDir, "data", "dejiny.db"), uploadsDir: path.join(restoredDir, "uploads") };
    const restore = await runBuildCommand("runRestore", [target], paths, restoredSettings);
    expect(restore.code, restore.output).toBe(0);
    expect(await s3.keys(BUCKET, "restored/")).toEqual(objectsOf(keys, "restored"));
    const restored = await start({ DEMO_CONTENT: "off", ...restoredSettings }, restoredDir);
    const src = (await getPage(`${restored.url}/posts`)).doc.querySelector(".card img")!.getAttribute("src")!;
    expect((await fetch(`${restored.url}${src}`)).status).toBe(200);
  });

  it("moves a site's images from its folder into a bucket: a backup with the old settings, a restore with the new (the way docs/operations.md gives)", async () => {
    const dir = path.join(root, "moving");
    const before = await start({ DEMO_CONTENT: "on" }, dir);
    const keys = imageKeys(before);
    const backup = await runBuildCommand("runBackup", [path.join(root, "move")], before);
    expect(backup.code, backup.output).toBe(0);
    const moved = imageStoreEnv(s3, BUCKET, "moved");
    const restore = await runBuildCommand("runRestore", [path.join(root, "move")], before, moved);
    expect(restore.code, restore.output).toBe(0);
    await before.stop();
    expect(await s3.keys(BUCKET, "moved/")).toEqual(objectsOf(keys, "moved"));

    const after = await start({ DEMO_CONTENT: "on", ...moved }, dir);
    rmSync(after.uploadsDir, { recursive: true }); // served from the bucket, not from what is left on the volume
    const src = (await getPage(`${after.url}/posts`)).doc.querySelector(".card img")!.getAttribute("src")!;
    expect((await fetch(`${after.url}${src}`)).status).toBe(200);
    expect(await s3.keys(BUCKET, "moved/")).toEqual(objectsOf(keys, "moved"));
  });

  it("keeps serving pages when the storage stops answering; a picture answers 503 within seconds, a made-up name 404 at once", async () => {
    // Accepts connections and never answers: the worst a storage can do.
    const silent: Server = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const port = (silent.address() as { port: number }).port;
    try {
      await site.stop();
      const stalled = await start({ DEMO_CONTENT: "off", ...settings, IMAGE_STORE_ENDPOINT: `http://127.0.0.1:${port}` }, site.dataDir);
      const started = Date.now();
      const picture = fetch(`${stalled.url}/images/${imageKeys(site)[0]}-400.jpg`);
      const page = await fetch(`${stalled.url}/posts`);
      expect(page.status).toBe(200);
      // A name no article uses is answered without asking the storage.
      expect((await fetch(`${stalled.url}/images/AAAAAAAAAAAAAAAA-400.jpg`)).status).toBe(404);
      expect(Date.now() - started).toBeLessThan(2_000);
      // The storage's fault, not the site's: come back later (docs/operations.md, "When something fails").
      const answer = await picture;
      expect([answer.status, answer.headers.get("retry-after")]).toEqual([503, "5"]);
      expect(Date.now() - started).toBeLessThan(15_000);
      // /healthz does not hang with the storage: its check gives up after 2 s.
      const asked = Date.now();
      const health = await fetch(`${stalled.url}/healthz`);
      expect([health.status, await health.text()]).toEqual([503, "image store: no answer in 2 s\n"]);
      expect(Date.now() - asked).toBeLessThan(3_000);
    } finally {
      silent.close();
    }
  });
});
