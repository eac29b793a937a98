// Load one URL with autocannon (a warm-up, then the measured run) while
// sampling the serving process's resident memory.
import autocannon from "autocannon";
import { readFileSync } from "node:fs";

const RSS_INTERVAL_MS = 200;

function rssKb(pid) {
  try {
    const match = readFileSync(`/proc/${pid}/status`, "utf8").match(/^VmRSS:\s+(\d+) kB/m);
    return match ? Number(match[1]) : 0;
  } catch {
    return 0; // the process is gone
  }
}

/** Peak VmRSS of `pid` from now until stop(), in MB. */
function sampleRss(pid) {
  let peakKb = rssKb(pid);
  const timer = setInterval(() => (peakKb = Math.max(peakKb, rssKb(pid))), RSS_INTERVAL_MS);
  return () => {
    clearInterval(timer);
    return Math.max(peakKb, rssKb(pid)) / 1024;
  };
}

/**
 * Warm up for `warmup` s, then measure for `duration` s with `connections`
 * (each request to `url`, or with `nextPath` to the path it gives each time).
 * Returns req/s (average), p50/p99 latency (ms), the count of answers with
 * another status than `status` and of errors, peak RSS (MB).
 */
export async function measure(url, { connections, duration, warmup, headers, pid, status = 200, nextPath }) {
  // autocannon appends every body to a string (decoding it as UTF-8), for no one here to read: for a
  // 31 KB image that cost the client more than the server's whole answer (2,000 req/s against a bare
  // server replaying the bytes). Only the count of bytes is kept.
  const setupClient = (client) => (client.pipelinedRequests.addBody = () => {});
  const options = { url, connections, headers: { "accept-encoding": "gzip", ...headers }, setupClient };
  if (nextPath) options.requests = [{ setupRequest: (request) => ({ ...request, path: nextPath() }) }];
  const stopSampling = sampleRss(pid);
  await autocannon({ ...options, duration: warmup });
  const result = await autocannon({ ...options, duration });
  const peakRssMb = stopSampling();
  return {
    connections,
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    unexpected: Object.entries(result.statusCodeStats).reduce((sum, [code, { count }]) => sum + (Number(code) === status ? 0 : count), 0),
    errors: result.errors + result.timeouts,
    peakRssMb,
  };
}
