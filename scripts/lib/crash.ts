import Database from "better-sqlite3";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { registerUser, type Client } from "./client";
import { imageStoreEnv, startLocalS3 } from "./local-s3";
import { publish } from "./publish";
import { startServer, type RunningServer } from "./server";

const VARIANTS = [400, 800, 1200].flatMap((w) => [`${w}.jpg`, `${w}.webp`]);

/** Where the server under test keeps its images: the settings that say so, and how to list the files. */
export type ImageFiles = { env: Record<string, string>; list: (server: RunningServer) => Promise<string[]> };

/** The default: the server's uploads folder. */
const FOLDER: ImageFiles = { env: {}, list: async (server) => (existsSync(server.uploadsDir) ? readdirSync(server.uploadsDir) : []) };

/** Below the limit of new articles per account and hour (docs/limits-and-security.md, "Limits"). */
const ARTICLES_PER_ACCOUNT = 10;

export type CrashReport = { rounds: number; acknowledged: number; attempted: number; orphansRemoved: number };

/**
 * Kill the server with SIGKILL at random moments while a writer publishes
 * articles with images, `rounds` times. After each kill: the database passes
 * integrity_check and holds every acknowledged article with all its image
 * files; after each restart no image file is left that nothing refers to.
 * Throws on the first broken promise.
 */
export async function crashRounds(rounds: number, log: (line: string) => void = () => {}, images: ImageFiles = FOLDER): Promise<CrashReport> {
  const dir = mkdtempSync(path.join(tmpdir(), "dejiny-crash-"));
  // Each writer's account comes from an address of its own (X-Forwarded-For), as
  // different people would: the limits on registrations per address allow it.
  const env = { DEMO_CONTENT: "off", SESSION_SECRET: "crash-test-secret-".padEnd(40, "x"), TRUST_PROXY: "true", ...images.env };
  const acknowledged = new Map<string, string>();
  let attempted = 0;
  let orphansRemoved = 0;
  let server: RunningServer | undefined;
  try {
    for (let round = 1; round <= rounds; round++) {
      server = await startServer(env, dir);
      orphansRemoved += Number(server.output().match(/Removed the files of (\d+) images/)?.[1] ?? 0);
      await expectNoOrphans(server, images);

      let writing = true;
      const writer = async (lane: number) => {
        let client: Client | undefined;
        for (let i = 0; writing; i++) {
          // A new account every ARTICLES_PER_ACCOUNT articles: an account may publish only so many an hour.
          if (i % ARTICLES_PER_ACCOUNT === 0) client = await registerUser(server!.url).then(({ client }) => client, () => client);
          attempted++;
          const id = await publish(client!, `Kolo ${round}, pisár ${lane}, článok ${i}`).catch(() => null);
          // Only what the server answered 303 for counts as acknowledged.
          if (id) acknowledged.set(id, `round ${round}`);
        }
      };
      const writers = [0, 1, 2].map(writer);
      // Once writes are flowing (the first upload loads the image and sanitiser code), kill at a random moment.
      const before = acknowledged.size;
      for (let waited = 0; acknowledged.size === before && waited < 15_000; waited += 20) await new Promise((r) => setTimeout(r, 20));
      await new Promise((r) => setTimeout(r, Math.random() * 1000));
      const exited = new Promise((r) => server!.child.once("exit", r));
      server.child.kill("SIGKILL");
      await exited;
      writing = false;
      await Promise.all(writers);
      await checkAfterCrash(server, acknowledged, images);
      log(`round ${round}: killed; ${acknowledged.size} acknowledged articles all present, integrity ok`);
    }
    // One last start: the clean-up after the last crash.
    server = await startServer(env, dir);
    await expectNoOrphans(server, images);
    await server.stop();
    return { rounds, acknowledged: acknowledged.size, attempted, orphansRemoved };
  } finally {
    if (server?.child.exitCode === null) server.child.kill("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  }
}

/** crashRounds with the images in a bucket of a local S3-compatible server (s3rver) instead of the folder. */
export async function crashRoundsInBucket(rounds: number, log: (line: string) => void = () => {}): Promise<CrashReport> {
  const folder = mkdtempSync(path.join(tmpdir(), "dejiny-crash-s3-"));
  const s3 = await startLocalS3(folder, ["dejiny"]);
  try {
    return await crashRounds(rounds, log, {
      env: imageStoreEnv(s3, "dejiny", "images"),
      list: async () => (await s3.keys("dejiny", "images/")).map((key) => key.slice("images/".length)),
    });
  } finally {
    await s3.close();
    rmSync(folder, { recursive: true, force: true });
  }
}

async function checkAfterCrash(server: RunningServer, acknowledged: Map<string, string>, images: ImageFiles) {
  const files = new Set(await images.list(server));
  const db = new Database(server.databasePath);
  try {
    const integrity = db.pragma("integrity_check", { simple: true });
    if (integrity !== "ok") throw new Error(`integrity_check after SIGKILL: ${integrity}`);
    const rows = db.prepare("SELECT id, image FROM posts").all() as { id: string; image: string }[];
    const keys = new Map(rows.map((r) => [r.id, r.image]));
    for (const [id, when] of acknowledged) {
      const key = keys.get(id);
      if (!key) throw new Error(`acknowledged article ${id} (${when}) is missing after SIGKILL`);
      for (const variant of VARIANTS) {
        if (!files.has(`${key}-${variant}`)) throw new Error(`image file ${key}-${variant} of article ${id} is missing`);
      }
    }
  } finally {
    db.close();
  }
}

async function expectNoOrphans(server: RunningServer, images: ImageFiles) {
  const db = new Database(server.databasePath, { readonly: true });
  const keys = new Set(
    (db.prepare("SELECT image AS key FROM posts UNION SELECT key FROM pending_images").all() as { key: string }[]).map((r) => r.key),
  );
  db.close();
  const files = await images.list(server);
  const orphans = files.filter((name) => !keys.has(name.slice(0, 16)));
  if (orphans.length > 0) throw new Error(`orphan image files after restart: ${orphans.join(", ")}`);
}
