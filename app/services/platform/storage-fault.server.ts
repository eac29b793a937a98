import { data } from "@remix-run/node";
import type { ServerBuild } from "@remix-run/node";
import { BUSY_MESSAGE, FAULT_MESSAGES } from "~/lib/rules";
import { retryAfter } from "./concurrency.server";
import { OutboxFullError } from "./mail-outbox.server";

/**
 * The storage failing under a request, told apart from bugs: the database
 * that cannot write (a full or failing disk, a file turned read-only), the
 * image folder likewise, the image bucket out of reach, the mail outbox
 * without room for a decision's mails. Such a fault is
 * answered, never a 500: 507 when space ran out, otherwise 503, each with
 * Retry-After and a message a reader understands (docs/operations.md, "When
 * something fails"). Forms answer it themselves with what was typed (`ifStorageFails`);
 * anything else is caught around every route (`answerStorageFaults`).
 */

/** The status, what to tell the person, and when to come back (Retry-After). */
export type StorageFault = { status: 503 | 507; error: string; headers: Record<string, string> };

const fault = (status: 503 | 507, error: string): StorageFault => ({ status, error, headers: retryAfter(status) });

const NO_SPACE = new Set(["SQLITE_FULL", "ENOSPC", "EDQUOT"]);
const DISK_FAILED = /^(SQLITE_IOERR|SQLITE_READONLY|SQLITE_CANTOPEN)|^(EIO|EROFS|EACCES|EPERM)$/;
/** Another connection (a backup, a command, a replica's restore) held the database past the busy timeout. */
const DATABASE_BUSY = /^SQLITE_(BUSY|LOCKED)/;
/** The bucket's connection failing (the AWS SDK passes Node's codes on), or the service saying it is unwell. */
const STORE_UNREACHABLE = /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|EPIPE|ECONNABORTED)$/;

type SomeError = { code?: unknown; name?: unknown; $metadata?: { httpStatusCode?: number } };

/** What a failed write or read means to the person who asked; null for anything that is not the storage's fault. */
export function storageFault(error: unknown): StorageFault | null {
  // The mail outbox's room for decisions is full: the decision waits, as a write that found no room would.
  if (error instanceof OutboxFullError) return fault(503, FAULT_MESSAGES.mailRoomFull);
  if (typeof error !== "object" || error === null) return null;
  const { code, name, $metadata } = error as SomeError;
  const errorCode = typeof code === "string" ? code : "";
  if (NO_SPACE.has(errorCode)) return fault(507, FAULT_MESSAGES.noSpace);
  // An S3 client's error carries $metadata: a refused connection, a timeout, or the service's own 5xx.
  if ($metadata && (STORE_UNREACHABLE.test(errorCode) || name === "TimeoutError" || ($metadata.httpStatusCode ?? 0) >= 500)) {
    return fault(503, FAULT_MESSAGES.imageStoreDown);
  }
  if (DISK_FAILED.test(errorCode)) return fault(503, FAULT_MESSAGES.storageFailed);
  if (DATABASE_BUSY.test(errorCode)) return fault(503, BUSY_MESSAGE);
  return null;
}

/** The fault said on a form shown again: what was typed is still there (and, where it had one, the image must be picked again). */
export function onForm(found: StorageFault, { image = false } = {}): StorageFault {
  return { ...found, error: `${found.error} ${image ? FAULT_MESSAGES.formKeptImage : FAULT_MESSAGES.formKept}` };
}

/** The fault as a service's refusal (`{ ok: false, … }`), for a route that shows its page again with the message. */
export function asRefusal({ status, error }: StorageFault) {
  return { ok: false as const, status, error, invalid: [] as never[] };
}

/** `work`'s answer, or when the storage fails under it, `refuse`'s (the route's own refusal, with what was typed); other errors go on. */
export async function ifStorageFails<T>(work: () => T | Promise<T>, refuse: (fault: StorageFault) => T): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const found = storageFault(error);
    if (!found) throw error;
    console.error(`Storage fault answered ${found.status}:`, error);
    return refuse(found);
  }
}

let lastSkipLogged = 0;

/** A write the request can do without ("last seen"): when the storage fails, it is skipped (logged at most once a minute), the request goes on. */
export function unlessStorageFails(write: () => void): void {
  try {
    write();
  } catch (error) {
    if (!storageFault(error)) throw error;
    if (Date.now() - lastSkipLogged > 60_000) {
      lastSkipLogged = Date.now();
      console.error("Skipped a non-essential write: the storage fails", error);
    }
  }
}

type RouteFunction = (...args: never[]) => unknown;

/**
 * A loader or action whose storage faults are thrown as the fault's answer:
 * a page's error page, or a resource route's plain text (Remix would drop
 * the headers of a thrown `data` there); 503/507 with Retry-After.
 */
function answering<F extends RouteFunction>(handle: F, { page }: { page: boolean }): F {
  return ((...args: Parameters<F>) =>
    ifStorageFails(
      () => handle(...args),
      ({ status, error, headers }) => {
        if (page) throw data({ error }, { status, headers });
        throw new Response(error, { status, headers: { ...headers, "Content-Type": "text/plain; charset=utf-8" } });
      },
    )) as F;
}

/**
 * Every route's loader and action answering storage faults (the catch at the
 * top, for what no form answers itself): done once to the build, before the
 * server uses it. Remix's handleError cannot change a status; this can.
 */
export function answerStorageFaults(routes: ServerBuild["routes"]): void {
  for (const route of Object.values(routes)) {
    // The dev server hands the same build over again.
    if (!route || answered.has(route.module)) continue;
    const { loader, action, default: page } = route.module;
    const how = { page: page !== undefined };
    route.module = { ...route.module, ...(loader && { loader: answering(loader, how) }), ...(action && { action: answering(action, how) }) };
    answered.add(route.module);
  }
}

const answered = new WeakSet<object>();
