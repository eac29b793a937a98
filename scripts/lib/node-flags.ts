import { readFileSync } from "node:fs";

const config = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")).config;

/**
 * How the server runs (package.json "config", used by `npm start` and by
 * the image's start command, scripts/serve.sh), so that it fits a 256 MB container: V8 flags
 * for a small heap, and one malloc arena (image work runs on many threads,
 * and glibc would otherwise keep freed memory in a pool per thread). Tests
 * and scripts start the server the same way.
 */
export const NODE_FLAGS: string[] = config.nodeFlags.split(" ");
export const SERVER_ENV: Record<string, string> = Object.fromEntries(config.serverEnv.split(" ").map((pair: string) => pair.split("=")));
