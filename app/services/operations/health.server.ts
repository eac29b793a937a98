import { constants } from "node:fs";
import { access } from "node:fs/promises";
import { env } from "~/config/env.server";
import { sqlite } from "~/db/connection.server";
import { imageStore } from "~/services/images/image-store.server";
import { freeSpaceProblem, healthCheck } from "~/services/platform/free-space.server";

/**
 * Whether the site can take writes: the database answers and may be
 * written, each data volume has its margin of free space (MIN_FREE_SPACE_MB:
 * platform/free-space.server.ts, which uploads ask too), and the image store
 * can be written. Every check is cached for a few seconds and time-limited
 * (`healthCheck`), so /healthz costs nothing most of the time and a hanging
 * bucket never makes it hang.
 */

const databaseProblem = healthCheck(async () => {
  sqlite.prepare("SELECT 1").get();
  if (env.readOnly) return null;
  // SQLite writes the file and, beside it, its journal and WAL.
  await access(env.databasePath, constants.W_OK);
  await access(env.dataDir, constants.W_OK);
  return null;
});

const imageStoreProblem = healthCheck(async () => (await (await imageStore()).check(), null));

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
