// Child processes that print "listening on http://…" once they accept requests
// (the app's server, build/http/index.js, and the ceiling server), and clean-up on exit or Ctrl-C.
import { spawn } from "node:child_process";
import { rmSync } from "node:fs";

// Indexing 100,000 articles for search before listening took over a minute on a busy shared machine.
const STARTUP_TIMEOUT_MS = 180_000;
const STOP_TIMEOUT_MS = 10_000;
const LOG_TAIL_CHARS = 20_000;

/**
 * Spawn `node <args>` and resolve once it prints its address.
 * Returns { url, pid, stop() }.
 */
export function startListeningProcess(args, { cwd, env }) {
  const child = spawn(process.execPath, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
  // Only the tail: the server logs a line per request, millions in a long run.
  let log = "";
  const keep = (chunk) => (log = (log + chunk).slice(-LOG_TAIL_CHARS));
  child.stdout.on("data", keep);
  child.stderr.on("data", keep);

  let stopping = false;
  child.once("exit", (code, signal) => {
    if (!stopping) console.error(`\n${args[0]} exited unexpectedly (${signal ?? code}); its last output:\n${log}`);
  });

  // SIGTERM lets the server finish open requests and close the database; SIGKILL if it hangs.
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    stopping = true;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), STOP_TIMEOUT_MS);
    await exited;
    clearTimeout(timer);
  };

  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`${args[0]} did not start in ${STARTUP_TIMEOUT_MS / 1000} s:\n${log}`));
    }, STARTUP_TIMEOUT_MS);
    const onExit = (code) => {
      clearTimeout(timer);
      reject(new Error(`${args[0]} exited with ${code} before listening:\n${log}`));
    };
    const onData = () => {
      const match = log.match(/listening on (http:\/\/\S+)/);
      if (!match) return;
      clearTimeout(timer);
      child.stdout.off("data", onData);
      child.off("exit", onExit);
      resolve({ url: match[1], pid: child.pid, stop });
    };
    child.stdout.on("data", onData);
    child.once("exit", onExit);
  });
}

const cleanups = [];

/** Run `task` on normal exit of `runAll()` or on Ctrl-C, last registered first. */
export function onCleanup(task) {
  cleanups.push(task);
}

export function removeOnCleanup(dir, keep) {
  onCleanup(() => {
    if (keep) console.log(`kept ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  });
}

async function runCleanups() {
  while (cleanups.length > 0) {
    try {
      await cleanups.pop()();
    } catch (error) {
      console.error("clean-up failed:", error);
    }
  }
}

/** Run `main`, then the clean-ups whatever happened; a failure or Ctrl-C exits non-zero. */
export async function runAll(main) {
  process.once("SIGINT", () => void runCleanups().then(() => process.exit(130)));
  try {
    await main();
  } catch (error) {
    console.error(error);
    process.exitCode = 1;
  } finally {
    await runCleanups();
  }
}
