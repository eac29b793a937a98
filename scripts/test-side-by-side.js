// npm test's Vitest part, in two runs side by side: the files that share one
// server, one at a time (vite.config.ts), and the files that start servers of
// their own, two at a time (vitest.servers.config.ts). Each line says which
// run it comes from; the exit code is the worse of the two.
//   node scripts/test-side-by-side.js
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";

const vitest = "node_modules/.bin/vitest";
const runs = {
  shared: [vitest, ["run"]],
  "own-server": [vitest, ["run", "-c", "vitest.servers.config.ts"]],
};

const codes = await Promise.all(
  Object.entries(runs).map(
    ([name, [command, args]]) =>
      new Promise((resolve) => {
        const child = spawn(command, args, { env: { ...process.env, DEJINY_SIDE_BY_SIDE: "1" }, stdio: ["ignore", "pipe", "pipe"] });
        for (const stream of [child.stdout, child.stderr]) {
          createInterface({ input: stream }).on("line", (line) => console.log(`[${name}] ${line}`));
        }
        child.on("exit", (code) => resolve(code ?? 1));
      }),
  ),
);
process.exit(Math.max(...codes));
