// npm test: everything, in four steps, side by side where two cores allow.
//   1. typecheck, lint and build, side by side;
//   2. the Vitest files that share one server (one at a time, vite.config.ts),
//      in two halves each with a server of its own, beside those that start
//      servers of their own (three at a time, vitest.servers.config.ts): most
//      of these wait (on timers, slow clients, proxies' caches), so the cores
//      have room for all three;
//   3. alone, the files that time or weigh a server under load (TIMED_ALONE
//      in vitest.servers.config.ts): beside other work they would measure it;
//   4. the browser tests (playwright.config.ts, two browsers at a time).
// The browser tests beside step 2 saved little (the cores were the limit)
// and made waits of other tests run out.
// Each line says which run it comes from; any failure fails the whole, and a
// failed step stops the steps after it.
//   node scripts/test.js
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";

/** Run `command` with `args` (and `env`), each output line prefixed with `name`; resolves to its exit code. */
function run(name, command, args, env = {}) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    for (const stream of [child.stdout, child.stderr]) createInterface({ input: stream }).on("line", (line) => console.log(`[${name}] ${line}`));
    child.on("exit", (code) => {
      console.log(`[${name}] finished with ${code} in ${Math.round((Date.now() - started) / 1000)} s`);
      resolve(code ?? 1);
    });
  });
}

const npm = (script) => ["npm", ["run", "--silent", script]];
const vitest = (...args) => ["node_modules/.bin/vitest", ["run", ...args]];

async function step(runs) {
  const codes = await Promise.all(runs.map(([name, [command, args], env]) => run(name, command, args, env)));
  return Math.max(...codes);
}

const started = Date.now();
const sideBySide = { DEJINY_SIDE_BY_SIDE: "1" };
let code = await step([
  ["typecheck", npm("typecheck")],
  ["lint", npm("lint")],
  ["build", npm("build")],
]);
if (code === 0) {
  code = await step([
    ["shared 1/2", vitest("--shard=1/2"), sideBySide],
    ["shared 2/2", vitest("--shard=2/2"), sideBySide],
    ["own-server", vitest("-c", "vitest.servers.config.ts"), sideBySide],
  ]);
}
if (code === 0) code = await step([["timed-alone", vitest("-c", "vitest.servers.config.ts"), { ...sideBySide, DEJINY_TIMED_ALONE: "1" }]]);
if (code === 0) code = await step([["browser", ["node_modules/.bin/playwright", ["test"]]]]);
console.log(`npm test ${code === 0 ? "passed" : "failed"} in ${Math.round((Date.now() - started) / 1000)} s`);
process.exit(code);
