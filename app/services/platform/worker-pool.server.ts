import { Worker, type ResourceLimits } from "node:worker_threads";

/** A job gave no result; `cause` says why when it is known. Every error a pool rejects with is one of these. */
export class JobFailedError extends Error {
  override name = "JobFailedError";
}

/** A job ran past the pool's time limit; its worker was stopped. */
export class JobTimeoutError extends JobFailedError {
  override name = "JobTimeoutError";
  constructor(readonly timeoutMs: number) {
    super(`job took longer than ${timeoutMs} ms`);
  }
}

/** The worker running a job crashed, exited or ran out of memory. */
export class WorkerCrashError extends JobFailedError {
  override name = "WorkerCrashError";
}

export type WorkerPoolOptions = {
  /**
   * JavaScript run once in each new worker, as the body of a function of
   * `workerData` (with `require` in scope) that returns the job handler:
   * `(message) => result`, or a promise of it. What the handler throws
   * rejects that job with a JobFailedError; the worker carries on.
   */
  source: string;
  workerData?: unknown;
  /** Most workers at once. */
  size: number;
  /** Hard limit on one job, from when a worker is given it (a new worker's start-up included). */
  timeoutMs: number;
  /** A worker ends after this long without a job. */
  idleMs: number;
  resourceLimits?: ResourceLimits;
};

export type WorkerPool<In, Out> = {
  run(message: In): Promise<Out>;
  /** Stop every worker; running and waiting jobs reject with a JobFailedError. */
  close(): Promise<void>;
  /** Workers, busy workers and waiting jobs, for tests and logs. */
  readonly load: { workers: number; busy: number; waiting: number };
};

type Job<Out> = { message: unknown; resolve: (value: Out) => void; reject: (error: Error) => void };
/** `timer` is the running job's time limit while busy, the idle timer while idle: never both. */
type Slot<Out> = { worker: Worker; job?: Job<Out>; timer?: NodeJS.Timeout };
type Reply<Out> = { ok: true; value: Out } | { ok: false; error: unknown };

const workerScript = (source: string) => `
const { parentPort, workerData } = require("node:worker_threads");
const handle = (function (workerData) {
${source}
})(workerData);
parentPort.on("message", async (message) => {
  try {
    parentPort.postMessage({ ok: true, value: await handle(message) });
  } catch (error) {
    parentPort.postMessage({ ok: false, error });
  }
});`;

/**
 * Worker threads for CPU-bound jobs, so one slow job never blocks the server
 * or, while another worker is free, another job. Workers start when a job
 * needs one and end after `idleMs` without work; an idle pool does not keep
 * the process alive. Each worker runs one job at a time; jobs beyond `size`
 * wait in order. A job past `timeoutMs`, or whose worker dies, rejects alone:
 * its worker is stopped and replaced when next needed.
 */
export function createWorkerPool<In, Out>(options: WorkerPoolOptions): WorkerPool<In, Out> {
  const { size, timeoutMs, idleMs } = options;
  const script = workerScript(options.source);
  const slots = new Set<Slot<Out>>();
  const queue: Job<Out>[] = [];
  let closed = false;

  function spawn(): Slot<Out> {
    const worker = new Worker(script, { eval: true, workerData: options.workerData, resourceLimits: options.resourceLimits });
    const slot: Slot<Out> = { worker };
    worker.on("message", (reply: Reply<Out>) => {
      const job = slot.job;
      if (!job) return;
      next(slot);
      if (reply.ok) job.resolve(reply.value);
      else job.reject(new JobFailedError(`job failed: ${String(reply.error)}`, { cause: reply.error }));
    });
    worker.on("error", (error) => crashed(slot, new WorkerCrashError(`worker failed: ${error.message}`, { cause: error })));
    worker.on("exit", (code) => crashed(slot, new WorkerCrashError(`worker exited with code ${code}`)));
    slots.add(slot);
    return slot;
  }

  /** Take a worker out of the pool and stop it; returns the job it was running, now the caller's to settle. */
  function retire(slot: Slot<Out>): Job<Out> | undefined {
    if (!slots.delete(slot)) return undefined;
    clearTimeout(slot.timer);
    void slot.worker.terminate();
    const job = slot.job;
    slot.job = undefined;
    return job;
  }

  function crashed(slot: Slot<Out>, error: WorkerCrashError) {
    retire(slot)?.reject(error);
    dispatchWaiting();
  }

  function start(slot: Slot<Out>, job: Job<Out>) {
    clearTimeout(slot.timer);
    slot.job = job;
    // A busy worker keeps the process alive (an idle one does not): its job will settle.
    slot.worker.ref();
    slot.timer = setTimeout(() => {
      retire(slot)?.reject(new JobTimeoutError(timeoutMs));
      dispatchWaiting();
    }, timeoutMs).unref();
    slot.worker.postMessage(job.message);
  }

  /** A worker has finished its job: the next waiting job, or rest. */
  function next(slot: Slot<Out>) {
    slot.job = undefined;
    const waiting = queue.shift();
    if (waiting) return start(slot, waiting);
    clearTimeout(slot.timer);
    slot.worker.unref();
    slot.timer = setTimeout(() => retire(slot), idleMs).unref();
  }

  function dispatchWaiting() {
    while (queue.length > 0) {
      const slot = [...slots].find((candidate) => !candidate.job) ?? (slots.size < size ? spawn() : undefined);
      if (!slot) return;
      start(slot, queue.shift()!);
    }
  }

  const closedError = () => new JobFailedError("worker pool closed");

  return {
    run(message: In): Promise<Out> {
      if (closed) return Promise.reject(closedError());
      return new Promise<Out>((resolve, reject) => {
        queue.push({ message, resolve, reject });
        dispatchWaiting();
      });
    },
    async close() {
      closed = true;
      for (const job of queue.splice(0)) job.reject(closedError());
      const stopping = [...slots].map((slot) => {
        retire(slot)?.reject(closedError());
        return slot.worker.terminate();
      });
      await Promise.all(stopping);
    },
    get load() {
      const busy = [...slots].filter((slot) => slot.job).length;
      return { workers: slots.size, busy, waiting: queue.length };
    },
  };
}
