import { AsyncLocalStorage } from "node:async_hooks";

export type RequestInfo = { userId: string | null };

/** What the app learns about a request while handling it, for its log line. */
export const requestInfo = new AsyncLocalStorage<RequestInfo>();

/** Note the signed-in user of the current request (for the log). */
export function noteUser(userId: string): void {
  const info = requestInfo.getStore();
  if (info) info.userId = userId;
}
