import { retryAtOfRequest } from "./request-log.server";

/** The server has more work waiting of this kind than it will queue: answer "busy" now rather than late. */
export class BusyError extends Error {
  constructor(readonly what: string) {
    super(`${what}: too much work waiting`);
  }
}

/**
 * A 503 (busy), a 507 (out of space) and a 429 (a limit used up) say when
 * to come back; anything else says nothing more. A 429's is when the
 * limits that refused this request start their next window (noted by
 * throttle.server.ts reserve), at least a second; a minute if none noted.
 * A 503's is 5 s, unless what refused the request noted a later time (a
 * decision waiting for room in the mail outbox: mail-outbox.server.ts).
 */
export function retryAfter(status: number): Record<string, string> {
  const at = retryAtOfRequest();
  const noted = at ? Math.max(1, Math.ceil((at - Date.now()) / 1000)) : undefined;
  if (status === 503) return { "Retry-After": String(Math.max(5, noted ?? 0)) };
  if (status === 507) return { "Retry-After": "300" };
  if (status === 429) return { "Retry-After": String(noted ?? 60) };
  return {};
}

/**
 * Run at most `running` jobs of one kind at a time, with at most `waiting`
 * more in line; beyond that `run` throws BusyError at once. Used for the
 * work one request can make expensive (password hashing, image decoding,
 * upload bodies), so a burst queues for its turn instead of taking every
 * thread and every megabyte the server has.
 */
export function createLimiter(what: string, { running, waiting }: { running: number; waiting: number }) {
  let active = 0;
  const queue: (() => void)[] = [];

  function release() {
    const next = queue.shift();
    if (next) next();
    else active--;
  }

  return {
    async run<T>(job: () => Promise<T> | T): Promise<T> {
      if (active < running) active++;
      else if (queue.length < waiting) await new Promise<void>((resolve) => queue.push(resolve));
      else throw new BusyError(what);
      try {
        return await job();
      } finally {
        release();
      }
    },
    /** Whether `run` would throw BusyError now: lets a request refuse before doing any other work. */
    get full() {
      return active >= running && queue.length >= waiting;
    },
    /** Jobs running and waiting, for tests and logs. */
    get load() {
      return { active, waiting: queue.length };
    },
  };
}
