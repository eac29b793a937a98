import { createCookie, data, redirect } from "@remix-run/node";
import { createHash, randomBytes } from "node:crypto";
import {
  deleteSession,
  deleteSessionOf,
  deleteUserSessions,
  getSessionUser,
  insertSession,
  listUserSessions,
  purgeExpiredSessions,
  touchSession,
  trimUserSessions,
  type SessionUser,
} from "~/models/sessions.server";
import { noteUserSeen } from "~/models/users.server";
import type { CurrentUser } from "~/lib/types";
import { env } from "~/config/env.server";
import { noteUser } from "./request-log.server";
import { unlessStorageFails } from "./storage-fault.server";

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
/** Idle time after which a session ends, by "Zapamätať si ma". */
const IDLE = { remember: 30 * DAY, browser: 12 * HOUR };
/** However active, a session ends this long after sign-in. */
const ABSOLUTE = 90 * DAY;
/** Note a session's use (its expiry, "last seen") at most this often, so reading pages is not a write each time. */
const TOUCH_AFTER = 5 * 60 * 1000;
/**
 * Sessions one account may have at once: signing in again ends the one
 * unused longest. More devices than a person has, but a script signing
 * in all day leaves no pile of rows, nor an endless list on /account.
 */
const MAX_SESSIONS_PER_ACCOUNT = 20;
const USER_AGENT_MAX_LENGTH = 300;

/** A cookie of the site: signed with the session secret, out of scripts' reach, `Secure` when PUBLIC_URL is https. */
export function siteCookie(name: string, options: { maxAge?: number } = {}) {
  return createCookie(name, { secrets: [env.sessionSecret], httpOnly: true, sameSite: "lax", secure: env.secureCookies, path: "/", ...options });
}

const sessionCookie = siteCookie("dejiny_session");

function hashId(id: string): string {
  return createHash("sha256").update(id).digest("hex");
}

/**
 * Cookie headers read lately: the session id each names (its signature
 * checked once: the same header always names the same id) and, for the page
 * cache's reader (`sessionOfCookie` given the database's version), that
 * session's row as read at `version`. Any write anywhere (a sign-out, a
 * session ended from another device, an account disabled, by this process or
 * another) gives the database a new version, and the row is read again: a
 * kept row is never used after a change. Bounded: the oldest header goes
 * first, and a long header is not kept.
 */
type RecentCookie = { id: string; idHash: string; found?: SessionUser; version?: string } | { id: null };
const recentCookies = new Map<string, RecentCookie>();
const RECENT_COOKIES = 500;
const RECENT_COOKIE_LENGTH = 2_048;

/** What a Cookie header names (see recentCookies), or null when it has no session cookie; a header read before costs no await. */
function recentCookie(header: string | null): RecentCookie | Promise<RecentCookie> | null {
  if (!header?.includes("dejiny_session=")) return null;
  return recentCookies.get(header) ?? readCookie(header);
}

async function readCookie(header: string): Promise<RecentCookie> {
  const value = await sessionCookie.parse(header);
  const id = typeof value === "string" && /^[A-Za-z0-9_-]{22,}$/.test(value) ? value : null;
  const recent: RecentCookie = id ? { id, idHash: hashId(id) } : { id: null };
  if (header.length <= RECENT_COOKIE_LENGTH) {
    if (recentCookies.size >= RECENT_COOKIES) recentCookies.delete(recentCookies.keys().next().value!);
    recentCookies.set(header, recent);
  }
  return recent;
}

async function readSessionId(request: Request): Promise<string | null> {
  return (await recentCookie(request.headers.get("Cookie")))?.id ?? null;
}

/** The signed-in user and their session (its hash names it in the account's list), or null. Without a session cookie, nothing is looked up. */
export function getCurrentSession(request: Request): Promise<{ user: CurrentUser; idHash: string } | null> {
  return sessionOfCookie(request.headers.get("Cookie"));
}

/**
 * getCurrentSession, from the request's Cookie header alone. With
 * `databaseVersion` (a value that changes with any write to the database, by
 * any process), the session's row is read only when it has changed.
 */
export async function sessionOfCookie(header: string | null, databaseVersion?: () => string): Promise<{ user: CurrentUser; idHash: string } | null> {
  // A read-only replica serves everyone as a visitor: using a session writes
  // (its expiry, "last seen"), and signed-in readers are meant to reach the primary.
  if (env.readOnly) return null;
  const kept = recentCookie(header);
  const recent = kept instanceof Promise ? await kept : kept;
  if (!recent?.id) return null;
  const { idHash } = recent;
  const version = databaseVersion?.();
  if (version === undefined || recent.version !== version) {
    recent.found = getSessionUser(idHash);
    recent.version = version;
  }
  const found = recent.found;
  const now = Date.now();
  if (!found || found.session.expiresAt <= now) return null;
  const { session, user } = found;
  if (touchDue(session, now)) {
    const idle = session.remember ? IDLE.remember : IDLE.browser;
    // Not worth failing a page for: a full disk skips it, and the next page tries again.
    unlessStorageFails(() => {
      touchSession(idHash, { expiresAt: Math.min(now + idle, session.createdAt + ABSOLUTE), lastSeenAt: now });
      noteUserSeen(user.id, now);
    });
  }
  noteUser(user.id);
  return { user, idHash };
}

/** Whether a session's use is to be noted now (its expiry, "last seen"): at most every TOUCH_AFTER. */
function touchDue(session: SessionUser["session"], now: number): boolean {
  return now - (session.lastSeenAt ?? session.createdAt) > TOUCH_AFTER;
}

/**
 * sessionOfCookie's user when it is known without waiting or writing: the
 * header was read lately, its session's row at the database's current
 * version, and the session's use is not due to be noted. Null: no session
 * (a visitor); undefined: not known at once, sessionOfCookie answers.
 */
export function knownSessionUser(header: string, databaseVersion: () => string): CurrentUser | null | undefined {
  if (env.readOnly) return null;
  const recent = recentCookies.get(header);
  if (!recent) return undefined;
  if (!recent.id) return null;
  if (recent.version !== databaseVersion()) return undefined;
  const now = Date.now();
  if (!recent.found || recent.found.session.expiresAt <= now) return null;
  return touchDue(recent.found.session, now) ? undefined : recent.found.user;
}

/** The signed-in user, or null. */
export async function getCurrentUser(request: Request): Promise<CurrentUser | null> {
  return (await getCurrentSession(request))?.user ?? null;
}

/** The signed-in user and their session; a visitor is sent to sign in, and back here after. */
export async function requireSession(request: Request): Promise<{ user: CurrentUser; idHash: string }> {
  const session = await getCurrentSession(request);
  if (!session) {
    const url = new URL(request.url);
    // Slashes left readable: /signinsignup?redirectTo=/create-post
    throw redirect(`/signinsignup?redirectTo=${encodeURIComponent(url.pathname + url.search).replace(/%2F/g, "/")}`);
  }
  return session;
}

export async function requireUser(request: Request): Promise<CurrentUser> {
  return (await requireSession(request)).user;
}

/** The signed-in admin. A visitor is sent to sign in (an admin comes back here); anyone else gets the site's 404, which does not say the page exists. */
export async function requireAdmin(request: Request): Promise<CurrentUser> {
  const user = await requireUser(request);
  if (!user.isAdmin) throw data(null, { status: 404 });
  return user;
}

/** Start a new session (a new random id at every sign-in) and redirect with its cookie. */
export async function startSession(request: Request, userId: string, remember: boolean, redirectTo: string): Promise<Response> {
  const id = randomBytes(24).toString("base64url");
  const now = Date.now();
  const userAgent = (request.headers.get("User-Agent") ?? "").slice(0, USER_AGENT_MAX_LENGTH);
  insertSession({ idHash: hashId(id), userId, remember, createdAt: now, lastSeenAt: now, userAgent, expiresAt: now + (remember ? IDLE.remember : IDLE.browser) });
  noteUserSeen(userId, now);
  trimUserSessions(userId, MAX_SESSIONS_PER_ACCOUNT);
  purgeExpiredSessions(now);
  const cookie = await sessionCookie.serialize(id, remember ? { maxAge: ABSOLUTE / 1000 } : {});
  return redirect(redirectTo, { status: 303, headers: { "Set-Cookie": cookie } });
}

/**
 * End the request's session on the server and in the browser (with
 * `everywhere`, every session of its account), and redirect to
 * `redirectTo`; `notice`, a notice cookie's header (noticeCookieHeader in
 * notice.server.ts), has that page say its word.
 */
export async function endSession(request: Request, redirectTo = "/", { everywhere = false, notice }: { everywhere?: boolean; notice?: string } = {}): Promise<Response> {
  const id = await readSessionId(request);
  if (id && everywhere) {
    const user = getSessionUser(hashId(id))?.user;
    if (user) deleteUserSessions(user.id);
  }
  if (id) deleteSession(hashId(id));
  const headers = new Headers({ "Set-Cookie": await sessionCookie.serialize("", { maxAge: 0 }) });
  if (notice) headers.append("Set-Cookie", notice);
  return redirect(redirectTo, { status: 303, headers });
}

/** End every session of an account (but `exceptIdHash`, the one in use, when given). */
export function endAllSessionsOf(userId: string, exceptIdHash?: string): void {
  deleteUserSessions(userId, exceptIdHash);
}

/** End one of the account's own sessions, named by its handle in the list; false when the account has no such session. */
export function endSessionOf(userId: string, handle: string): boolean {
  const session = listUserSessions(userId, Date.now()).find((s) => sessionHandle(s.idHash) === handle);
  return session ? deleteSessionOf(userId, session.idHash) : false;
}

/** How a page names a session: derived from its hash, so the page holds nothing that leads to the cookie. */
export function sessionHandle(idHash: string): string {
  return createHash("sha256").update(`handle:${idHash}`).digest("base64url").slice(0, 16);
}

/** An account's sessions for its list: the device, when it was last used, which one is this. */
export function sessionsOf(userId: string, currentIdHash: string) {
  return listUserSessions(userId, Date.now()).map((s) => ({
    handle: sessionHandle(s.idHash),
    userAgent: s.userAgent,
    lastSeenAt: s.lastSeenAt ?? s.createdAt,
    createdAt: s.createdAt,
    current: s.idHash === currentIdHash,
  }));
}

/** Whether a request carries a session cookie at all (its pages must not be cached by shared caches). */
export function hasSessionCookie(request: Request): boolean {
  return request.headers.get("Cookie")?.includes("dejiny_session=") ?? false;
}
