import { createRequire } from "node:module";
import type { FieldDiff } from "~/lib/revisions";
import { BusyError } from "./concurrency.server";
import { createWorkerPool } from "./worker-pool.server";

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
 * Two versions' title, text and sources compared word by word, within one
 * DIFF_BUDGET_MS for all three. A worker that fails or runs past its hard stop
 * answers with the sizes only; too many waiting rejects with BusyError.
 */
export async function diffVersions(from: VersionTexts, to: VersionTexts, budgetMs = DIFF_BUDGET_MS): Promise<Fields> {
  if (differ.load.waiting >= MAX_WAITING) throw new BusyError("revision diff");
  return differ.run({ from, to, budgetMs }).catch((error: unknown) => {
    console.error("Could not compare two revisions", error);
    return sizesOnly(from, to);
  });
}
