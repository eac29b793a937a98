const SECRET_PARAMS = /([?&](?:token|password)=)[^&]*/gi;

// Lines written in one turn of the event loop go out in one write.
let pending: string[] = [];
function flush() {
  if (pending.length === 0) return;
  process.stdout.write(pending.join(""));
  pending = [];
}
process.on("exit", flush);

/**
 * One structured line per request on stdout. Query values that are secrets
 * are blanked; cookies and bodies are never logged (only how much was read
 * of a body that was not read whole).
 */
export function logRequest(entry: { method: string; url: string; status: number; ms: number; userId: string | null; bodyRead?: number }): void {
  const line = {
    time: new Date().toISOString(),
    method: entry.method,
    path: entry.url.replace(SECRET_PARAMS, "$1[redacted]"),
    status: entry.status,
    ms: Math.round(entry.ms * 10) / 10,
    ...(entry.userId ? { user: entry.userId } : {}),
    // Bytes read of a body the server stopped reading (refused, cut, or not needed for the answer).
    ...(entry.bodyRead !== undefined ? { bodyRead: entry.bodyRead } : {}),
  };
  if (pending.length === 0) setImmediate(flush);
  pending.push(`${JSON.stringify(line)}\n`);
}
