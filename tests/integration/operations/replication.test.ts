import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { Client, GOOD_PASSWORD, registerUser } from "../../../scripts/lib/client";
import { imageStoreEnv, startLocalS3 } from "../../../scripts/lib/local-s3";
import { NODE_FLAGS } from "../../../scripts/lib/node-flags";
import { publish } from "../../../scripts/lib/publish";
import { startServer, type RunningServer } from "../../../scripts/lib/server";
import { runBuildCommand } from "../../support/commands";
import { getPage, readDatabase } from "../../support/http";
import { replicatedIds, runStartCommand, sleep, waitForReplica } from "../../support/litestream";

const root = mkdtempSync(path.join(tmpdir(), "dejiny-replication-"));
const servers: RunningServer[] = [];
afterAll(() => {
  for (const server of servers) if (server.child.exitCode === null) server.child.kill("SIGKILL");
  rmSync(root, { recursive: true, force: true });
});

/** Resident memory of a process, in MB. */
function rssMb(pid: number): number {
  return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]) / 1024;
}

/** The processes a process has started (any of its threads may have). */
function childrenOf(pid: number): number[] {
  return readdirSync(`/proc/${pid}/task`).flatMap((task) => readFileSync(`/proc/${pid}/task/${task}/children`, "utf8").split(" ").filter(Boolean).map(Number));
}


/**
 * The disaster: articles are published through the site's forms, they reach
 * the replica, then the machine dies (SIGKILL to Litestream and the server
 * together) and the whole data folder is lost. The next start, on an empty
 * folder, restores the database from the replica before the server opens it.
 */
async function disasterRound(replica: Record<string, string>, name: string) {
  const dataDir = path.join(root, name);
  const scratch = mkdtempSync(path.join(root, `${name}-scratch-`));
  const env = { DEMO_CONTENT: "off", SESSION_SECRET: "replication-test-secret-".padEnd(40, "x"), ...replica };

  const first = await startServer(env, dataDir, { startCommand: true });
  servers.push(first);
  const litestreamPid = first.child.pid!;
  expect(readFileSync(`/proc/${litestreamPid}/cmdline`, "utf8")).toContain("litestream");
  // The web server is Litestream's child, told that Litestream checkpoints, without the replica's keys.
  const environ = readFileSync(`/proc/${childrenOf(litestreamPid)[0]}/environ`, "utf8").split("\0");
  expect(environ).toContain("LITESTREAM_REPLICATING=1");
  expect(environ.filter((line) => /^(LITESTREAM|AWS)_\w*ACCESS_KEY/.test(line))).toEqual([]);

  // Litestream's memory while the site writes: sampled every 20 ms.
  let peakRss = rssMb(litestreamPid);
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, rssMb(litestreamPid))), 20);
  const { client, email } = await registerUser(first.url);
  const acknowledged = new Map<string, string>();
  for (let i = 0; i < 6; i++) {
    const title = `Replikovaný článok ${name} ${i}`;
    const id = await publish(client, title);
    expect(id, title).toBeTruthy();
    acknowledged.set(id!, title);
  }

  // Within seconds every acknowledged article is in the replica.
  const lag = await waitForReplica(env, first.databasePath, scratch, [...acknowledged.keys()]);
  clearInterval(sampler);

  const exited = new Promise((resolve) => first.child.once("exit", resolve));
  process.kill(-litestreamPid, "SIGKILL");
  await exited;
  await sleep(200);
  rmSync(dataDir, { recursive: true, force: true });

  const second = await startServer(env, dataDir, { startCommand: true });
  servers.push(second);
  const rows = readDatabase(second.databasePath, (db) => {
    expect(db.pragma("integrity_check", { simple: true })).toBe("ok");
    return db.prepare("SELECT id, title FROM posts").all() as { id: string; title: string }[];
  });
  expect(new Map(rows.map((row) => [row.id, row.title]))).toEqual(acknowledged);
  for (const [id, title] of acknowledged) {
    const { response, html } = await getPage(`${second.url}/posts/${id}`);
    expect(response.status).toBe(200);
    expect(html).toContain(title);
  }
  // Images on the volume are lost with it: the restored articles have their rows and pages, not their
  // pictures. Images in object storage are all there.
  for (const id of acknowledged.keys()) {
    const { doc } = await getPage(`${second.url}/posts/${id}`);
    const image = await fetch(`${second.url}${doc.querySelector("article img")!.getAttribute("src")}`);
    expect(image.status).toBe(replica.IMAGE_STORE_URL ? 200 : 404);
  }
  expect(existsSync(second.uploadsDir) ? readdirSync(second.uploadsDir) : []).toEqual([]);

  // The author's account came back too, and what they publish now is replicated in turn.
  const author = new Client(second.url);
  expect((await author.post("/signinsignup", { intent: "signin", email, password: GOOD_PASSWORD })).response.status).toBe(303);
  const later = await publish(author, `Po obnove ${name}`);
  expect(later).toBeTruthy();
  await waitForReplica(env, second.databasePath, scratch, [later!]);
  const exitCode = new Promise((resolve) => second.child.once("exit", resolve));
  await second.stop();
  expect(await exitCode).toBe(0);

  console.info(`${name}: ${acknowledged.size} articles replicated within ${lag} ms; Litestream's peak RSS ${peakRss.toFixed(1)} MB`);
  return { peakRss };
}

describe("replication with Litestream (scripts/serve.sh)", () => {
  it("without LITESTREAM_REPLICA_URL runs the server as npm run serve does, with no Litestream", async () => {
    const server = await startServer({ DEMO_CONTENT: "off" }, undefined, { startCommand: true });
    servers.push(server);
    // The script has become the server itself.
    const command = readFileSync(`/proc/${server.child.pid}/cmdline`, "utf8").split("\0");
    expect(command).toEqual(["node", ...NODE_FLAGS, "build/http/index.js", ""]);
    expect((await getPage(`${server.url}/healthz`)).response.status).toBe(200);
    await server.stop();
  });

  it("refuses settings it cannot use, saying what to fix", async () => {
    const noKeys = await runStartCommand({ LITESTREAM_REPLICA_URL: "s3://dejiny/db" });
    expect(noKeys.code).toBe(1);
    expect(noKeys.output).toContain("set LITESTREAM_ACCESS_KEY_ID and LITESTREAM_SECRET_ACCESS_KEY");
    const relative = await runStartCommand({ LITESTREAM_REPLICA_URL: "file://replica" });
    expect(relative.output).toContain("must be s3://bucket/path or file:///absolute/path");
    const endpoint = await runStartCommand({ LITESTREAM_REPLICA_URL: "s3://dejiny/db", LITESTREAM_ACCESS_KEY_ID: "a", LITESTREAM_SECRET_ACCESS_KEY: "b", LITESTREAM_ENDPOINT: "minio:9000" });
    expect(endpoint.output).toContain("LITESTREAM_ENDPOINT must be the http(s):// address");
  });

  it("brings every acknowledged article back from a replica in a folder after the data folder is lost", async () => {
    const { peakRss } = await disasterRound({ LITESTREAM_REPLICA_URL: `file://${path.join(root, "replica")}` }, "file");
    expect(peakRss).toBeLessThan(64);
  });

  it("goes on replicating after npm run restore puts a backup of a site without replication in place", async () => {
    const env = { DEMO_CONTENT: "off", LITESTREAM_REPLICA_URL: `file://${path.join(root, "restore-replica")}` };
    const server = await startServer(env, path.join(root, "restore"), { startCommand: true });
    servers.push(server);
    const scratch = mkdtempSync(path.join(root, "restore-scratch-"));
    const { client } = await registerUser(server.url);
    const kept = (await publish(client, "V zálohe"))!;
    // Litestream sets up its tables once it notices the database the server made (it looks about once a second).
    const litestreamTables = () =>
      readDatabase(server.databasePath, (db) => db.prepare("SELECT count(*) FROM sqlite_master WHERE name IN ('_litestream_seq', '_litestream_lock')").pluck().get());
    for (let waited = 0; litestreamTables() !== 2; waited += 100) {
      expect(waited, "Litestream did not set up its tables").toBeLessThan(10_000);
      await sleep(100);
    }
    const backup = path.join(root, "restore-backup");
    expect((await runBuildCommand("runBackup", [backup], server)).code).toBe(0);
    // As if the backup came from a site that never ran Litestream.
    readDatabase(path.join(backup, "dejiny.db"), (db) => db.exec("DROP TABLE _litestream_seq; DROP TABLE _litestream_lock"), true);
    const dropped = (await publish(client, "Po zálohe"))!;

    const restore = await runBuildCommand("runRestore", [backup], server);
    expect(restore.code, restore.output).toBe(0);
    // Over 1,000 pages in the WAL: Litestream's next sync checkpoints, which needs its tables.
    readDatabase(server.databasePath, (db) => db.exec("CREATE TABLE padding (x); INSERT INTO padding VALUES (randomblob(5000000)); DROP TABLE padding"), true);
    const after = (await publish(client, "Po obnove zo zálohy"))!;
    await waitForReplica(env, server.databasePath, scratch, [kept, after]);
    expect((await replicatedIds(env, server.databasePath, scratch)).has(dropped)).toBe(false);
    await server.stop();
  });

  it("brings every acknowledged article back from an S3-compatible replica after the data folder is lost", async () => {
    const s3 = await startLocalS3(path.join(root, "s3-storage"), ["dejiny"]);
    try {
      const { peakRss } = await disasterRound(
        {
          LITESTREAM_REPLICA_URL: "s3://dejiny/dejiny.db",
          LITESTREAM_ENDPOINT: s3.endpoint,
          LITESTREAM_ACCESS_KEY_ID: s3.accessKeyId,
          LITESTREAM_SECRET_ACCESS_KEY: s3.secretAccessKey,
          // The images beside the replica, in the same storage.
          ...imageStoreEnv(s3, "dejiny", "images"),
        },
        "s3",
      );
      expect(peakRss).toBeLessThan(64);
    } finally {
      await s3.close();
    }
  });
});
