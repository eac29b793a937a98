import { access, statfs } from "node:fs/promises";
import path from "node:path";
import { env } from "~/config/env.server";

/**
 * The free space of each data volume, against its margin (MIN_FREE_SPACE_MB):
 * one of /healthz's checks (operations/health.server.ts), and what uploads
 * ask before taking a file (`lowOnSpace`, synchronous, from the last look).
 * Like every health check it is cached for a few seconds and time-limited
 * (`healthCheck`), so it costs nothing most of the time and never hangs.
 */

const FRESH_MS = 5_000;
const CHECK_TIMEOUT_MS = 2_000;
const MB = 1024 * 1024;

/** A promise's result kept `FRESH_MS`; asked again after that (the old answer meanwhile is not used: health must be current). */
function cached<T>(work: () => Promise<T>): () => Promise<T> {
  let last: { at: number; value: Promise<T> } | undefined;
  return () => {
    if (!last || Date.now() - last.at > FRESH_MS) last = { at: Date.now(), value: work() };
    return last.value;
  };
}

/** `work`'s problem (null when fine), or "no answer in 2 s". */
async function limited(work: () => Promise<string | null>): Promise<string | null> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`no answer in ${CHECK_TIMEOUT_MS / 1000} s`), CHECK_TIMEOUT_MS).unref();
  });
  const problem = work().catch((error: unknown) => (error instanceof Error ? ((error as NodeJS.ErrnoException).code ?? error.message) : String(error)));
  return Promise.race([problem, late]).finally(() => clearTimeout(timer));
}

/** A health check: `work`'s problem (null when fine), cached `FRESH_MS` and limited to `CHECK_TIMEOUT_MS`. */
export function healthCheck(work: () => Promise<string | null>): () => Promise<string | null> {
  return cached(() => limited(work));
}

/** The volumes the site writes to, by what it keeps there (the image folder only when images are not in a bucket). */
const volumes = (): [string, string][] => [["database", env.dataDir], ...(env.imageBucket ? [] : ([["images", env.uploadsDir]] as [string, string][]))];

/** The folder, or the nearest of its parents that exists (a new site has no image folder until its first upload). */
async function nearestFolder(folder: string): Promise<string> {
  for (let at = path.resolve(folder); ; at = path.dirname(at)) {
    const exists = await access(at).then(() => true, () => false);
    if (exists || at === path.dirname(at)) return at;
  }
}

let lastFreeSpace: { what: string; free: number }[] = [];

/** The volumes short of their margin, in words (null when none is): /healthz's `disk` check. */
export const freeSpaceProblem = healthCheck(async () => {
  const found = await Promise.all(
    volumes().map(async ([what, folder]) => {
      const { bavail, bsize } = await statfs(await nearestFolder(folder));
      return { what, free: bavail * bsize };
    }),
  );
  lastFreeSpace = found;
  const low = found.filter(({ free }) => free < env.minFreeSpace);
  return low.length === 0 ? null : low.map(({ what, free }) => `${Math.floor(free / MB)} MB free for the ${what} (at least ${env.minFreeSpace / MB} MB needed)`).join("; ");
});

/**
 * Whether a large write (an upload) should be refused now for lack of space,
 * from the last look at the volumes (taken again in the background when it
 * is older than a few seconds): no cost on the request's path.
 */
export function lowOnSpace(): boolean {
  void freeSpaceProblem();
  return lastFreeSpace.some(({ free }) => free < env.minFreeSpace);
}
