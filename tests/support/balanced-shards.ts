import type { TestSequencer, TestSpecification, Vitest } from "vitest/node";

/**
 * The shared-server files that take longest, with their seconds on two busy
 * cores; any other takes a few. Only the balance of `npm test`'s halves
 * depends on these figures: a stale one costs time, never a test.
 */
const LONG_FILES: Record<string, number> = {
  "tests/integration/images/image-bucket.test.ts": 55,
  "tests/integration/articles/restore-hostile.test.ts": 45,
  "tests/integration/security/hostile.test.ts": 40,
  "tests/integration/operations/backup.test.ts": 13,
  "tests/integration/accounts/email-confirmation.test.ts": 10,
  "tests/integration/moderation/moderation-loop.test.ts": 8,
  "tests/integration/articles/revisions.test.ts": 7,
};

/**
 * Splits the files between the runs of `--shard=i/n` by how long they take
 * rather than by their count (Vitest's own split): each next-longest file
 * goes to the run with the least so far. Each run keeps the order Vitest
 * gives it.
 */
export class BalancedShards implements TestSequencer {
  constructor(private readonly vitest: Vitest) {}

  async shard(files: TestSpecification[]): Promise<TestSpecification[]> {
    const { index, count } = this.vitest.config.shard!;
    const seconds = (file: TestSpecification) => LONG_FILES[this.relative(file)] ?? (this.relative(file).startsWith("tests/unit/") ? 1 : 3);
    const runs = Array.from({ length: count }, () => ({ seconds: 0, files: new Set<string>() }));
    const longestFirst = [...files].sort((a, b) => seconds(b) - seconds(a) || this.relative(a).localeCompare(this.relative(b)));
    for (const file of longestFirst) {
      const run = runs.reduce((least, next) => (next.seconds < least.seconds ? next : least));
      run.seconds += seconds(file);
      run.files.add(this.relative(file));
    }
    return files.filter((file) => runs[index - 1].files.has(this.relative(file)));
  }

  async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    return files;
  }

  private relative(file: TestSpecification): string {
    return file.moduleId.slice(this.vitest.config.root.length + 1);
  }
}
