import { execFile } from "node:child_process";
import { existsSync, rmSync } from "node:fs";
import path from "node:path";
import { readDatabase } from "./http";

export const LITESTREAM = "node_modules/@flydotio/litestream-linux-x64/litestream";

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** A child process's whole environment: PATH and `env`, nothing else of ours. */
export const childEnv = (env: Record<string, string>) => ({ PATH: process.env.PATH, ...env }) as unknown as NodeJS.ProcessEnv;

/** `litestream restore` of the database at `databasePath` (as scripts/litestream.yml names it with `env`) into the new file `output`; false when it failed. */
export function restoreReplica(env: Record<string, string>, databasePath: string, output: string): Promise<boolean> {
  return new Promise<boolean>((resolve) =>
    execFile(LITESTREAM, ["restore", "-config", "scripts/litestream.yml", "-o", output, databasePath], { env: childEnv({ ...env, DATABASE_PATH: databasePath }) }, (error) =>
      resolve(!error && existsSync(output)),
    ),
  );
}

/** The ids of the articles the replica holds now: what a restore would bring back. */
export async function replicatedIds(env: Record<string, string>, databasePath: string, scratch: string): Promise<Set<string>> {
  const output = path.join(scratch, `${Date.now()}-${Math.random()}.db`);
  if (!(await restoreReplica(env, databasePath, output))) return new Set();
  const ids = readDatabase(output, (db) => db.prepare("SELECT id FROM posts").pluck().all() as string[]);
  rmSync(output);
  return new Set(ids);
}

/** Wait until the replica holds all of `ids` (15 s at most); how long that took, in ms. */
export async function waitForReplica(env: Record<string, string>, databasePath: string, scratch: string, ids: string[]): Promise<number> {
  const started = Date.now();
  for (;;) {
    const replicated = await replicatedIds(env, databasePath, scratch);
    if (ids.every((id) => replicated.has(id))) return Date.now() - started;
    if (Date.now() - started > 15_000) throw new Error(`not in the replica after 15 s: ${ids.filter((id) => !replicated.has(id))}`);
    await sleep(200);
  }
}

/** `sh scripts/serve.sh` to its exit, for its configuration errors. */
export function runStartCommand(env: Record<string, string>): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile("sh", ["scripts/serve.sh"], { env: childEnv(env), timeout: 30_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code) : 0, output: `${stdout}${stderr}` }),
    );
  });
}
