// npm test's Vitest part. First two runs side by side: the files that share
// one server, one at a time (vite.config.ts), and the files that start
// servers of their own, two at a time (vitest.servers.config.ts). Then, alone,
// the files that time or weigh a server under load (TIMED_ALONE there).
// Each line says which run it comes from; any failure fails the whole.
//   node scripts/test-side-by-side.js
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";

const vitest = "node_modules/.bin/vitest";

/** Run Vitest with `args` (and `env`), each output line prefixed with `name`; resolves to its exit code. */
function run(name, args, env = {}) {
  return new Promise((resolve) => {
    const child = spawn(vitest, ["run", ...args], { env: { ...process.env, DEJINY_SIDE_BY_SIDE: "1", ...env }, stdio: ["ignore", "pipe", "pipe"] });
    for (const stream of [child.stdout, child.stderr]) createInterface({ input: stream }).on("line", (line) => console.log(`[${name}] ${line}`));
    child.on("exit", (code) => resolve(code ?? 1));
  });
}

const sideBySide = await Promise.all([run("shared", []), run("own-server", ["-c", "vitest.servers.config.ts"])]);
const alone = await run("timed-alone", ["-c", "vitest.servers.config.ts"], { DEJINY_TIMED_ALONE: "1" });
process.exit(Math.max(...sideBySide, alone));
