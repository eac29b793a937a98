import { vitePlugin as remix } from "@remix-run/dev";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { configDefaults } from "vitest/config";
import { defineConfig } from "vite";
import { CHEAP_PASSWORD_HASHES } from "./tests/support/accounts-env";
import { BalancedShards } from "./tests/support/balanced-shards";
import { SERVERS_OF_THEIR_OWN } from "./vitest.servers.config";

declare module "@remix-run/node" {
  interface Future {
    v3_singleFetch: true;
  }
}

const app = fileURLToPath(new URL("./app", import.meta.url));
// Unit tests that touch models get a database of their own, never ./data.
const unitDir = process.env.VITEST ? mkdtempSync(path.join(tmpdir(), "dejiny-unit-")) : "";

export default defineConfig({
  resolve: { alias: { "~": app } },
  server: { port: 3000 },
  optimizeDeps: { exclude: ["@node-rs/bcrypt", "better-sqlite3", "sharp"] },
  build: { target: "es2020" },
  plugins: [
    !process.env.VITEST &&
      remix({
        // A route's server-side helpers sit beside it as <route>.server.ts.
        ignoredRouteFiles: ["**/*.server.ts", "**/.*"],
        future: {
          v3_fetcherPersist: true,
          v3_relativeSplatPath: true,
          v3_throwAbortReason: true,
          v3_singleFetch: true,
          v3_lazyRouteDiscovery: true,
        },
      }),
  ],
  test: {
    include: ["tests/unit/**/*.test.ts", "tests/integration/**/*.test.ts"],
    // Run beside these by `npm test` (vitest.servers.config.ts); `vitest run <file>` still finds them here.
    exclude: [...configDefaults.exclude, ...(process.env.DEJINY_SIDE_BY_SIDE ? SERVERS_OF_THEIR_OWN : [])],
    globalSetup: ["tests/integration/global-setup.ts"],
    env: { DATABASE_PATH: path.join(unitDir, "unit.db"), UPLOADS_DIR: path.join(unitDir, "uploads"), DEMO_CONTENT: "off", ...CHEAP_PASSWORD_HASHES },
    // The integration files share one server and compare its pages with its database: one file at a time.
    // `npm test` runs two halves side by side (--shard), each with a server of its own, split by how long their files take.
    fileParallelism: false,
    sequence: { sequencer: BalancedShards },
    // One module graph for all the files of a run (a fifth less CPU than a fresh one per file): no file may leave
    // a fake timer, a mock or a global changed behind it.
    isolate: false,
    // Some start commands (backup, restore, npm run admin): on a busy machine each may take seconds to start.
    // A test that runs a dozen of them (npm run admin's every command) needs minutes when the cores are shared four ways.
    testTimeout: 180_000,
    hookTimeout: 180_000,
  },
});
