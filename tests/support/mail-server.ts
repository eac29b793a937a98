import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";
import { startResendStandIn } from "../../scripts/lib/resend-stand-in";
import { startServer, type RunningServer } from "../../scripts/lib/server";
import { sharedServerEnv } from "./accounts-env";

/**
 * A built server of a test file's own, mailing through a Resend stand-in the
 * test can take down, on a data folder that outlives a restart (`restart()`:
 * what was queued is still there). Started before the file's tests, removed
 * after them.
 */
export function serverWithMail(name: string, env: Record<string, string> = {}) {
  const running = {} as { server: RunningServer; standIn: Awaited<ReturnType<typeof startResendStandIn>>; dataDir: string };
  const start = () => startServer({ ...sharedServerEnv(running.standIn.url), ...env }, running.dataDir);
  beforeAll(async () => {
    running.standIn = await startResendStandIn();
    running.dataDir = mkdtempSync(path.join(tmpdir(), `dejiny-${name}-`));
    running.server = await start();
  });
  afterAll(async () => {
    await running.server?.stop();
    await running.standIn?.close();
    if (running.dataDir) rmSync(running.dataDir, { recursive: true, force: true });
  });
  return {
    get server() {
      return running.server;
    },
    get standIn() {
      return running.standIn;
    },
    stop: () => running.server.stop(),
    /** Start it again on the same data (a new port), after stop(). */
    async start() {
      running.server = await start();
    },
    /** Stop the server and start it again on the same data (a new port). */
    async restart() {
      await running.server.stop();
      running.server = await start();
    },
  };
}

/** Wait for `check` to give a value (every 100 ms), or fail after `timeoutMs` saying what was awaited. */
export async function until<T>(what: string, check: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
