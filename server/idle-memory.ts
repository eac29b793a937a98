// Memory given back when the server falls quiet.
//
// Under load V8 grows its heap to about three times what stays alive (the
// load test: 78 MB held, 28 MB live after it), and it keeps those pages when
// the load stops: its own memory reducer did not run in a quiet server, so
// the process stayed at its peak for as long as nobody came. Once the event
// loop has been nearly idle for a whole check, one full collection returns
// the difference to the system (30–55 ms, when nobody waits for it).
// Needs `--expose-gc` (package.json config.nodeFlags); without it, nothing.
import { performance } from "node:perf_hooks";
import { getHeapStatistics } from "node:v8";

/** How often the server looks whether it is quiet. */
const CHECK_MS = 2_000;
/** Quiet: the event loop busy for less than this share of the last check. */
const QUIET_UTILIZATION = 0.05;
/** Collect only when V8 holds at least this much more than it uses: a collection is not free. */
const SLACK_BYTES = 16 * 1024 * 1024;

export function returnMemoryWhenQuiet(): void {
  const collect = (globalThis as { gc?: () => void }).gc;
  if (!collect) return;
  let last = performance.eventLoopUtilization();
  setInterval(() => {
    const now = performance.eventLoopUtilization();
    const quiet = performance.eventLoopUtilization(now, last).utilization < QUIET_UTILIZATION;
    last = now;
    if (!quiet) return;
    const heap = getHeapStatistics();
    if (heap.total_heap_size - heap.used_heap_size > SLACK_BYTES) collect();
  }, CHECK_MS).unref();
}
