import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { NODE_FLAGS, SERVER_ENV } from "./node-flags";

const root = fileURLToPath(new URL("../../", import.meta.url));

export type RunningServer = {
  url: string;
  dataDir: string;
  databasePath: string;
  uploadsDir: string;
  child: ChildProcess;
  output: () => string;
  stop: () => Promise<void>;
};

/**
 * Start the built server (`node build/http/index.js`, as `npm start` does)
 * on a free port, with its database and images in a fresh temporary folder.
 * `startCommand`: through the image's start command (scripts/serve.sh, which
 * runs Litestream when asked to), in a process group of its own, so that one
 * signal to `-child.pid` reaches Litestream and the server together.
 * PASSWORD_HASH_COST passes through from this process (the test configs
 * lower it; scripts that time the server leave it as the site has it).
 */
export async function startServer(extraEnv: Record<string, string> = {}, dataDir?: string, { startCommand = false } = {}): Promise<RunningServer> {
  const dir = dataDir ?? mkdtempSync(path.join(tmpdir(), "dejiny-test-"));
  const databasePath = path.join(dir, "data", "dejiny.db");
  const uploadsDir = path.join(dir, "uploads");
  const [command, args]: [string, string[]] = startCommand ? ["sh", ["scripts/serve.sh"]] : [process.execPath, [...NODE_FLAGS, "build/http/index.js"]];
  const child = spawn(command, args, {
    cwd: root,
    detached: startCommand,
    env: {
      PATH: process.env.PATH,
      ...SERVER_ENV,
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: "0",
      DATABASE_PATH: databasePath,
      UPLOADS_DIR: uploadsDir,
      ...(process.env.PASSWORD_HASH_COST ? { PASSWORD_HASH_COST: process.env.PASSWORD_HASH_COST } : {}),
      ...extraEnv,
    } as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  child.stdout!.on("data", (chunk) => (log += chunk));
  child.stderr!.on("data", (chunk) => (log += chunk));

  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start in 60 s:\n${log}`)), 60_000);
    const onData = () => {
      const match = log.match(/listening on (http:\/\/\S+)/);
      if (match) {
        clearTimeout(timer);
        child.stdout!.off("data", onData);
        resolve(match[1]);
      }
    };
    child.stdout!.on("data", onData);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code} before listening:\n${log}`));
    });
  });

  return {
    url,
    dataDir: dir,
    databasePath,
    uploadsDir,
    child,
    output: () => log,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGTERM");
        await exited;
      }
      if (!dataDir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Run `node build/http/index.js` to its exit and return what it printed (for start-up errors). */
export function runServerExpectingExit(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...NODE_FLAGS, "build/http/index.js"], { cwd: root, env: { PATH: process.env.PATH, ...env } as unknown as NodeJS.ProcessEnv });
    let output = "";
    child.stdout.on("data", (c) => (output += c));
    child.stderr.on("data", (c) => (output += c));
    const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}
