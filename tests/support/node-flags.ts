import { readFileSync } from "node:fs";

/**
 * The V8 flags the server runs with (package.json "config.nodeFlags", used by
 * `npm start` and repeated in the Dockerfile): a small heap, so it fits a
 * 256 MB container. Tests and scripts start the server the same way.
 */
export const NODE_FLAGS: string[] = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")).config.nodeFlags.split(" ");
