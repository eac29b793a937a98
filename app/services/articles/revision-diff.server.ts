import { createRequire } from "node:module";
import type { FieldDiff } from "~/lib/revisions";
import { BusyError } from "~/services/platform/concurrency.server";
import { createWorkerPool } from "~/services/platform/worker-pool.server";

/**
 * Word diffs of two versions of an article's texts (jsdiff's diffWords: a
 * word or a punctuation mark is a token). The cost of a diff grows with the
 * text's length times the number of changes, and anyone may ask for one, so
 * each comparison is capped twice: at MAX_EDIT_LENGTH changed tokens per
 * field, and at DIFF_BUDGET_MS for all its fields together. Over either cap a
 * field is answered with only its two sizes (the page then says so plainly).
 *
 * The diff runs in one worker thread, never on the event loop that serves
 * every reader: a stream of costly comparisons takes at most one core, waits
 * its turn up to MAX_WAITING, and beyond that is answered "busy" at once.
 */

/**
 * The most tokens added plus removed one field's diff may find (a rewritten
 * paragraph of 200 words is about 400). Two unrelated 30,000-character texts
 * reach it after about 50 ms here; at 1,000 it took 150 ms, unbounded 1 s.
 */
export const MAX_EDIT_LENGTH = 500;

/** The most one comparison (title, text and sources) may take on a slow or busy machine; what is left after it is "too large". */
export const DIFF_BUDGET_MS = 250;

/** Comparisons waiting for the worker beyond the one it runs; more are "busy" (about 2 s of work at the cap). */
const MAX_WAITING = 8;

/** What a version of an article says, as plain text (newlines kept). */
export type VersionTexts = { title: string; text: string; sources: string };

type Fields = Record<keyof VersionTexts, FieldDiff>;
type Job = { from: VersionTexts; to: VersionTexts; budgetMs: number };

// The worker's source is JavaScript of its own (functions do not cross to a worker); it is the only copy of the diffing.
const differ = createWorkerPool<Job, Fields>({
  source: `
    const { diffWords } = require(workerData.diff);
    const field = (from, to, deadline) => {
      const timeout = deadline - Date.now();
      const changes = timeout > 0 ? diffWords(from, to, { maxEditLength: workerData.maxEditLength, timeout }) : undefined;
      if (!changes) return { tooLarge: { from: from.length, to: to.length } };
      return { parts: changes.map(({ value, added, removed }) => ({ value, added: Boolean(added), removed: Boolean(removed) })) };
    };
    return ({ from, to, budgetMs }) => {
      const deadline = Date.now() + budgetMs;
      return { title: field(from.title, to.title, deadline), text: field(from.text, to.text, deadline), sources: field(from.sources, to.sources, deadline) };
    };`,
  workerData: { diff: createRequire(import.meta.url).resolve("diff"), maxEditLength: MAX_EDIT_LENGTH },
  size: 1,
  // A hard stop well past the budget (a new worker's start-up included): diffWords checks its own timeout only between steps.
  timeoutMs: 2_000,
  idleMs: 60_000,
  resourceLimits: { maxOldGenerationSizeMb: 16, maxYoungGenerationSizeMb: 4 },
});

const sizesOnly = (from: VersionTexts, to: VersionTexts): Fields => ({
  title: { tooLarge: { from: from.title.length, to: to.title.length } },
  text: { tooLarge: { from: from.text.length, to: to.text.length } },
  sources: { tooLarge: { from: from.sources.length, to: to.sources.length } },
});

/**
 * Comparisons already made, by the two revisions' keys: revisions never
 * change (but for moderation's erasing, which is in the key), so a
 * comparison is worked out once and then answered from here, however many
 * ask for it. Bounded by the size of the results (JSON), least recently used
 * out first.
 */
const DONE_MAX_BYTES = 4 * 1024 * 1024;
const done = new Map<string, { fields: Fields; bytes: number }>();
let doneBytes = 0;
/** Comparisons being worked out: a second request for one waits for the same result. */
const running = new Map<string, Promise<Fields>>();
/** Comparisons each client has waiting or running: one at a time, so no client fills the queue. */
const perClient = new Map<string, number>();
const MAX_PER_CLIENT = 1;

function remember(key: string, fields: Fields): void {
  const bytes = JSON.stringify(fields).length;
  if (bytes > DONE_MAX_BYTES / 4) return;
  done.set(key, { fields, bytes });
  doneBytes += bytes;
  for (const [oldest, entry] of done) {
    if (doneBytes <= DONE_MAX_BYTES) break;
    done.delete(oldest);
    doneBytes -= entry.bytes;
  }
}

/**
 * Two versions' title, text and sources compared word by word, within one
 * DIFF_BUDGET_MS for all three; `key` names the pair (the same key, the same
 * texts; none for texts that are not revisions), `client` who asks. A comparison made before is answered at once.
 * A worker that fails or runs past its hard stop answers with the sizes only
 * (not kept: a quieter moment may do better); a client with a comparison
 * already waiting, or too many waiting, rejects with BusyError.
 */
export async function diffVersions(from: VersionTexts, to: VersionTexts, { key, client }: { key?: string; client: string }, budgetMs = DIFF_BUDGET_MS): Promise<Fields> {
  const kept = key === undefined ? undefined : done.get(key);
  if (kept) {
    done.delete(key!);
    done.set(key!, kept);
    return kept.fields;
  }
  const shared = key === undefined ? undefined : running.get(key);
  if (shared) return shared;
  const mine = perClient.get(client) ?? 0;
  if (mine >= MAX_PER_CLIENT || differ.load.waiting >= MAX_WAITING) throw new BusyError("revision diff");
  perClient.set(client, mine + 1);
  const job = differ
    .run({ from, to, budgetMs })
    .then((fields) => {
      if (key !== undefined) remember(key, fields);
      return fields;
    })
    .catch((error: unknown) => {
      console.error("Could not compare two revisions", error);
      return sizesOnly(from, to);
    })
    .finally(() => {
      if (key !== undefined) running.delete(key);
      const left = (perClient.get(client) ?? 1) - 1;
      if (left > 0) perClient.set(client, left);
      else perClient.delete(client);
    });
  if (key !== undefined) running.set(key, job);
  return job;
}
