import { constants } from "node:fs";
import { access, statfs } from "node:fs/promises";
import path from "node:path";
import { env } from "~/config/env.server";
import { sqlite } from "~/db/connection.server";
import { imageStore } from "~/services/images/image-store.server";

/**
 * Whether the site can take writes: the database answers and may be
 * written, each data volume has its margin of free space (MIN_FREE_SPACE_MB),
 * and the image store can be written. Every check is cached for a few
 * seconds and time-limited, so /healthz costs nothing most of the time and
 * a hanging bucket never makes it hang; the free space is also what uploads
 * ask (`spaceProblem`, synchronous, from the last look).
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

const freeSpaceProblem = cached(() =>
  limited(async () => {
    const found = await Promise.all(
      volumes().map(async ([what, folder]) => {
        const { bavail, bsize } = await statfs(await nearestFolder(folder));
        return { what, free: bavail * bsize };
      }),
    );
    lastFreeSpace = found;
    const low = found.filter(({ free }) => free < env.minFreeSpace);
    return low.length === 0 ? null : low.map(({ what, free }) => `${Math.floor(free / MB)} MB free for the ${what} (at least ${env.minFreeSpace / MB} MB needed)`).join("; ");
  }),
);

const databaseProblem = cached(() =>
  limited(async () => {
    sqlite.prepare("SELECT 1").get();
    if (env.readOnly) return null;
    // SQLite writes the file and, beside it, its journal and WAL.
    await access(env.databasePath, constants.W_OK);
    await access(env.dataDir, constants.W_OK);
    return null;
  }),
);

const imageStoreProblem = cached(() => limited(async () => (await (await imageStore()).check(), null)));

/** One line per failing check (`disk: …`, `database: …`, `image store: …`); none when the site can take writes. */
export async function healthProblems(): Promise<string[]> {
  const checks: [string, Promise<string | null>][] = [
    ["database", databaseProblem()],
    // A replica writes nothing: its disk and its images are the primary's concern.
    ...(env.readOnly ? [] : ([["disk", freeSpaceProblem()], ["image store", imageStoreProblem()]] as [string, Promise<string | null>][])),
  ];
  const problems = await Promise.all(checks.map(async ([name, problem]) => ((await problem) ? `${name}: ${await problem}` : null)));
  return problems.filter((line): line is string => line !== null);
}

/**
 * Whether a large write (an upload) should be refused now for lack of space,
 * from the last look at the volumes (taken again in the background when it
 * is older than a few seconds): no cost on the request's path.
 */
export function lowOnSpace(): boolean {
  void freeSpaceProblem();
  return lastFreeSpace.some(({ free }) => free < env.minFreeSpace);
}
