/**
 * A sender of queued work in the background (the outbox's mails to people,
 * subscriptions' batches): started once by the server (a process that never
 * starts it, such as `npm run admin` or a read-only replica, sends nothing),
 * woken when something is queued, otherwise asleep until the next item is
 * due (without keeping the process alive). One pass at a time; a wake during
 * a pass makes another when it ends. A pass whose database failed (a full
 * disk) is logged and tried again after `retryAfterFailureMs`, not at once.
 */
export function deliveryLoop({
  what,
  deliverDue,
  nextDueAt,
  retryAfterFailureMs,
}: {
  /** For the log: what it sends. */
  what: string;
  /** Deliver everything due; throws when the database failed. */
  deliverDue: () => Promise<void>;
  /** When the next waiting item is due, due or not; undefined when nothing waits. */
  nextDueAt: () => number | undefined;
  retryAfterFailureMs: number;
}) {
  let started = false;
  let timer: NodeJS.Timeout | undefined;
  let passing: Promise<void> | undefined;
  let again = false;

  const scheduleNext = (ok: boolean) => {
    let delay: number | undefined = retryAfterFailureMs;
    try {
      const next = ok ? nextDueAt() : undefined;
      if (ok) delay = next === undefined ? undefined : Math.max(0, next - Date.now());
    } catch (error) {
      console.error(`${what}: could not read the queue`, error);
    }
    if (delay !== undefined) timer = setTimeout(wake, delay).unref();
  };

  const pass = async (): Promise<boolean> => {
    try {
      await deliverDue();
      return true;
    } catch (error) {
      console.error(`${what}: could not read or update the queue`, error);
      return false;
    }
  };

  function wake(): void {
    if (!started) return;
    if (passing) {
      again = true;
      return;
    }
    clearTimeout(timer);
    passing = pass().then((ok) => {
      passing = undefined;
      if (again) {
        again = false;
        return wake();
      }
      scheduleNext(ok);
    });
  }

  return {
    start(): void {
      started = true;
      wake();
    },
    wake,
  };
}
