import { AsyncLocalStorage } from "node:async_hooks";

/** `retryAt`: when a throttle that refused the request lets the next attempt through (ms since the epoch). */
export type RequestInfo = { userId: string | null; retryAt?: number };

/** What the app learns about a request while handling it: who, for its log line; when to come back, for a 429's Retry-After. */
export const requestInfo = new AsyncLocalStorage<RequestInfo>();

/** Note the signed-in user of the current request (for the log). */
export function noteUser(userId: string): void {
  const info = requestInfo.getStore();
  if (info) info.userId = userId;
}

/** Note when a throttle that refused the current request lets another attempt through (the latest, if several refused). */
export function noteRetryAt(at: number): void {
  const info = requestInfo.getStore();
  if (info) info.retryAt = Math.max(info.retryAt ?? 0, at);
}

/** When the current request may be tried again, as noted by its throttles; undefined when none refused it. */
export function retryAtOfRequest(): number | undefined {
  return requestInfo.getStore()?.retryAt;
}
