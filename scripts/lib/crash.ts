import Database from "better-sqlite3";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { registerUser, type Client } from "./client";
import { publish } from "./publish";
import { startServer, type RunningServer } from "./server";

const VARIANTS = [400, 800, 1200].flatMap((w) => [`${w}.jpg`, `${w}.webp`]);

export type CrashReport = { rounds: number; acknowledged: number; attempted: number; orphansRemoved: number };

/**
 * Kill the server with SIGKILL at random moments while a writer publishes
 * articles with images, `rounds` times. After each kill: the database passes
 * integrity_check and holds every acknowledged article with all its image
 * files; after each restart no image file is left that nothing refers to.
 * Throws on the first broken promise.
 */
export async function crashRounds(rounds: number, log: (line: string) => void = () => {}): Promise<CrashReport> {
  const dir = mkdtempSync(path.join(tmpdir(), "dejiny-crash-"));
  const env = { DEMO_CONTENT: "off", SESSION_SECRET: "crash-test-secret-".padEnd(40, "x") };
  const acknowledged = new Map<string, string>();
  let attempted = 0;
  let orphansRemoved = 0;
  let client: Client | undefined;
  let server: RunningServer | undefined;
  try {
    for (let round = 1; round <= rounds; round++) {
      server = await startServer(env, dir);
      orphansRemoved += Number(server.output().match(/Removed (\d+) image files/)?.[1] ?? 0);
      expectNoOrphans(server);
      client ??= (await registerUser(server.url)).client;
      client = rebase(client, server.url);

      let writing = true;
      const writer = async (lane: number) => {
        for (let i = 0; writing; i++) {
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
      checkAfterCrash(server, acknowledged);
      log(`round ${round}: killed; ${acknowledged.size} acknowledged articles all present, integrity ok`);
    }
    // One last start: the clean-up after the last crash.
    server = await startServer(env, dir);
    expectNoOrphans(server);
    await server.stop();
    return { rounds, acknowledged: acknowledged.size, attempted, orphansRemoved };
  } finally {
    if (server?.child.exitCode === null) server.child.kill("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The same user (cookie jar) talking to the restarted server on its new port. */
function rebase(client: Client, base: string): Client {
  return Object.assign(Object.create(Object.getPrototypeOf(client)), client, { base });
}

function checkAfterCrash(server: RunningServer, acknowledged: Map<string, string>) {
  const db = new Database(server.databasePath);
  try {
    const integrity = db.pragma("integrity_check", { simple: true });
    if (integrity !== "ok") throw new Error(`integrity_check after SIGKILL: ${integrity}`);
    const rows = db.prepare("SELECT id, image FROM posts").all() as { id: string; image: string }[];
    const images = new Map(rows.map((r) => [r.id, r.image]));
    const files = new Set(readdirSync(server.uploadsDir));
    for (const [id, when] of acknowledged) {
      const key = images.get(id);
      if (!key) throw new Error(`acknowledged article ${id} (${when}) is missing after SIGKILL`);
      for (const variant of VARIANTS) {
        if (!files.has(`${key}-${variant}`)) throw new Error(`image file ${key}-${variant} of article ${id} is missing`);
      }
    }
  } finally {
    db.close();
  }
}

function expectNoOrphans(server: RunningServer) {
  const db = new Database(server.databasePath, { readonly: true });
  const keys = new Set(
    (db.prepare("SELECT image AS key FROM posts UNION SELECT key FROM pending_images").all() as { key: string }[]).map((r) => r.key),
  );
  db.close();
  const files = existsSync(server.uploadsDir) ? readdirSync(server.uploadsDir) : [];
  const orphans = files.filter((name) => !keys.has(name.slice(0, 16)));
  if (orphans.length > 0) throw new Error(`orphan image files after restart: ${orphans.join(", ")}`);
}
