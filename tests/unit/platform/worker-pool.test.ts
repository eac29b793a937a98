import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { transformWithEsbuild } from "vite";
import { afterEach, describe, expect, it } from "vitest";
import {
  createWorkerPool,
  JobFailedError,
  JobTimeoutError,
  WorkerCrashError,
  type WorkerPool,
  type WorkerPoolOptions,
} from "~/services/platform/worker-pool.server";

type TestJob = { value?: string; sleep?: number; loop?: boolean; exit?: boolean; fillHeap?: boolean; fail?: string };
type TestResult = { value?: string; threadId: number };

// A worker that does what the job says; `sleep` blocks its thread, as CPU work does.
const SOURCE = `
  const { threadId } = require("node:worker_threads");
  const blocker = new Int32Array(new SharedArrayBuffer(4));
  return (job) => {
    if (job.sleep) Atomics.wait(blocker, 0, 0, job.sleep);
    if (job.loop) for (;;);
    if (job.exit) process.exit(3);
    if (job.fillHeap) for (const heap = [];;) heap.push("x".repeat(1024) + heap.length);
    if (job.fail) throw new Error(job.fail);
    return { value: job.value, threadId };
  };`;

let lastPool: WorkerPool<TestJob, TestResult> | undefined;
afterEach(async () => {
  await lastPool?.close();
  lastPool = undefined;
});

function testPool(options: Partial<WorkerPoolOptions> = {}) {
  lastPool = createWorkerPool<TestJob, TestResult>({ source: SOURCE, size: 2, timeoutMs: 5_000, idleMs: 10_000, ...options });
  return lastPool;
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("worker pool", () => {
  it("rejects a job past its time limit and runs the next one on a fresh worker", async () => {
    const pool = testPool({ size: 1, timeoutMs: 300 });
    const first = await pool.run({ value: "a" });
    const started = performance.now();
    await expect(pool.run({ loop: true })).rejects.toBeInstanceOf(JobTimeoutError);
    expect(performance.now() - started).toBeGreaterThanOrEqual(295);
    const next = await pool.run({ value: "b" });
    expect(next.value).toBe("b");
    expect(next.threadId).not.toBe(first.threadId);
  });

  it("does not make a fast job wait for a slow one submitted before it", async () => {
    const pool = testPool();
    let slowDone = false;
    const slow = pool.run({ sleep: 2_000 }).then(() => (slowDone = true));
    expect((await pool.run({ value: "fast" })).value).toBe("fast");
    expect(slowDone).toBe(false);
    await slow;
  });

  it("loses no other job, running or waiting, when one times out", async () => {
    const pool = testPool({ timeoutMs: 500 });
    const hung = pool.run({ loop: true });
    const others = Array.from({ length: 6 }, (_, i) => pool.run({ sleep: 150, value: `job ${i}` }));
    expect(pool.load).toEqual({ workers: 2, busy: 2, waiting: 5 });
    await expect(hung).rejects.toBeInstanceOf(JobTimeoutError);
    expect((await Promise.all(others)).map((result) => result.value)).toEqual(["job 0", "job 1", "job 2", "job 3", "job 4", "job 5"]);
  });

  it("rejects only the job whose worker exits, and replaces the worker", async () => {
    const pool = testPool();
    const running = pool.run({ sleep: 300, value: "running" });
    const crash = pool.run({ exit: true });
    const waiting = pool.run({ value: "waiting" });
    await expect(crash).rejects.toBeInstanceOf(WorkerCrashError);
    await expect(crash).rejects.toThrow("exited with code 3");
    expect((await running).value).toBe("running");
    expect((await waiting).value).toBe("waiting");
  });

  it("rejects only the job whose worker runs out of memory", async () => {
    const pool = testPool({ resourceLimits: { maxOldGenerationSizeMb: 16 } });
    const running = pool.run({ sleep: 300, value: "running" });
    const filling = pool.run({ fillHeap: true });
    await expect(filling).rejects.toBeInstanceOf(WorkerCrashError);
    await expect(filling).rejects.toThrow(/memory limit/);
    expect((await running).value).toBe("running");
    expect((await pool.run({ value: "after" })).value).toBe("after");
  });

  it("rejects a job whose handler throws, and keeps its worker", async () => {
    const pool = testPool({ size: 1 });
    const before = await pool.run({});
    const failed = pool.run({ fail: "boom" });
    await expect(failed).rejects.toBeInstanceOf(JobFailedError);
    await expect(failed).rejects.not.toBeInstanceOf(WorkerCrashError);
    await expect(failed).rejects.toThrow("boom");
    expect((await pool.run({})).threadId).toBe(before.threadId);
  });

  it("ends workers after idleMs without work", async () => {
    const pool = testPool({ idleMs: 200 });
    expect(pool.load.workers).toBe(0);
    const [a] = await Promise.all([pool.run({ sleep: 50 }), pool.run({ sleep: 50 })]);
    expect(pool.load).toEqual({ workers: 2, busy: 0, waiting: 0 });
    await delay(600);
    expect(pool.load.workers).toBe(0);
    expect((await pool.run({})).threadId).not.toBe(a.threadId);
  });

  it("never ends a worker by the idle timer while its job runs", async () => {
    const pool = testPool({ size: 1, idleMs: 100 });
    const before = await pool.run({});
    const long = await pool.run({ sleep: 500, value: "long" });
    expect(long).toEqual({ value: "long", threadId: before.threadId });
  });

  it("rejects running and waiting jobs when closed", async () => {
    const pool = testPool({ size: 1 });
    const rejected = [pool.run({ sleep: 2_000 }), pool.run({})].map((job) => expect(job).rejects.toThrow("worker pool closed"));
    await pool.close();
    await Promise.all(rejected);
    await expect(pool.run({})).rejects.toBeInstanceOf(JobFailedError);
  });

  it("keeps the process alive while busy, and not once idle", async () => {
    // The pool module, built, in a process of its own that does nothing else.
    const dir = mkdtempSync(path.join(tmpdir(), "worker-pool-"));
    try {
      const file = fileURLToPath(new URL("../../../app/services/platform/worker-pool.server.ts", import.meta.url));
      const built = await transformWithEsbuild(readFileSync(file, "utf8"), file, { format: "esm" });
      writeFileSync(path.join(dir, "pool.mjs"), built.code);
      writeFileSync(
        path.join(dir, "main.mjs"),
        `import { createWorkerPool } from "./pool.mjs";
        const pool = createWorkerPool({ source: ${JSON.stringify(SOURCE)}, size: 1, timeoutMs: 5000, idleMs: 60000 });
        const log = (result) => console.log(result.value);
        // The second job goes to a worker that was idle in between.
        pool.run({ value: "first" }).then(log).then(() => pool.run({ sleep: 300, value: "second" })).then(log);`,
      );
      const started = performance.now();
      const { stdout } = await promisify(execFile)(process.execPath, [path.join(dir, "main.mjs")], { timeout: 15_000 });
      expect(stdout.split("\n")).toEqual(["first", "second", ""]);
      // Far sooner than idleMs: the idle worker did not hold the process.
      expect(performance.now() - started).toBeLessThan(10_000);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
