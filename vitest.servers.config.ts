import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import { CHEAP_PASSWORD_HASHES } from "./tests/support/accounts-env";

/**
 * The integration files that start servers of their own (to stop, fill, cut
 * off or restart them): they need neither the shared server of
 * vite.config.ts nor one file at a time, so `npm test` runs them, three at
 * a time, beside the shared ones (scripts/test.js). Those that
 * time or weigh a server under load (TIMED_ALONE) run afterwards, alone:
 * beside other work, their bounds would measure the neighbours.
 */
export const SERVERS_OF_THEIR_OWN = [
  "accounts/lockout",
  "articles/cache-invalidation",
  "articles/history-load",
  "articles/reads",
  "articles/search-pages",
  "images/image-memory",
  "moderation/hidden-articles",
  "moderation/moderation",
  "operations/caddy",
  "operations/crash",
  "operations/faults",
  "operations/full-disk",
  "operations/graceful-stop",
  "operations/mail-outbox",
  "operations/nginx",
  "operations/operations",
  "operations/production",
  "operations/read-only",
  "operations/replication",
  "operations/upgrade",
  "security/busy-answers",
  "security/hardening",
  "security/slow-bodies",
  "subscriptions/mailings",
  "subscriptions/provider-events",
  "subscriptions/subscription-links",
].map((name) => `tests/integration/${name}.test.ts`);

export const TIMED_ALONE = ["security/hardening", "articles/history-load", "images/image-memory"].map((name) => `tests/integration/${name}.test.ts`);

const timed = Boolean(process.env.DEJINY_TIMED_ALONE);

export default defineConfig({
  resolve: { alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) } },
  test: {
    include: timed ? TIMED_ALONE : SERVERS_OF_THEIR_OWN.filter((file) => !TIMED_ALONE.includes(file)),
    // The servers these files start hash passwords cheaply, unless a file says otherwise (hardening times password work).
    env: CHEAP_PASSWORD_HASHES,
    maxWorkers: timed ? 1 : 3,
    minWorkers: 1,
    // These start servers and commands of their own: on a busy machine each start may take seconds.
    // A test that runs a dozen of them (npm run admin's every command) needs minutes when the cores are shared four ways.
    testTimeout: 180_000,
    hookTimeout: 180_000,
  },
});
