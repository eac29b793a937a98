import { createCookie, redirect } from "@remix-run/node";
import { createHash, randomBytes } from "node:crypto";
import {
  deleteSession,
  deleteUserSessions,
  extendSession,
  getSessionUser,
  insertSession,
  purgeExpiredSessions,
  type SessionUser,
} from "~/models/sessions.server";
import { env } from "~/config/env.server";
import { noteUser } from "./request-log.server";

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
/** Idle time after which a session ends, by "Zapamätať si ma". */
const IDLE = { remember: 30 * DAY, browser: 12 * HOUR };
/** However active, a session ends this long after sign-in. */
const ABSOLUTE = 90 * DAY;
/** Extend a session at most this often, so reading pages is not a write each time. */
const RENEW_AFTER = HOUR;

const sessionCookie = createCookie("dejiny_session", {
  secrets: [env.sessionSecret],
  httpOnly: true,
  sameSite: "lax",
  secure: env.secureCookies,
  path: "/",
});

export type CurrentUser = SessionUser["user"];

function hashId(id: string): string {
  return createHash("sha256").update(id).digest("hex");
}

async function readSessionId(request: Request): Promise<string | null> {
  const header = request.headers.get("Cookie");
  if (!header?.includes("dejiny_session=")) return null;
  const value = await sessionCookie.parse(header);
  return typeof value === "string" && /^[A-Za-z0-9_-]{22,}$/.test(value) ? value : null;
}

/** The signed-in user, or null. Without a session cookie, nothing is looked up. */
export async function getCurrentUser(request: Request): Promise<CurrentUser | null> {
  const id = await readSessionId(request);
  if (!id) return null;
  const idHash = hashId(id);
  const found = getSessionUser(idHash);
  const now = Date.now();
  if (!found || found.session.expiresAt <= now) return null;
  const { session } = found;
  const idle = session.remember ? IDLE.remember : IDLE.browser;
  const renewed = Math.min(now + idle, session.createdAt + ABSOLUTE);
  if (renewed - session.expiresAt > RENEW_AFTER) extendSession(idHash, renewed);
  noteUser(found.user.id);
  return found.user;
}

export async function requireUser(request: Request): Promise<CurrentUser> {
  const user = await getCurrentUser(request);
  if (!user) {
    const url = new URL(request.url);
    // Slashes left readable: /signinsignup?redirectTo=/create-post
    throw redirect(`/signinsignup?redirectTo=${encodeURIComponent(url.pathname + url.search).replace(/%2F/g, "/")}`);
  }
  return user;
}

/** Start a new session (a new random id at every sign-in) and redirect with its cookie. */
export async function startSession(userId: string, remember: boolean, redirectTo: string): Promise<Response> {
  const id = randomBytes(24).toString("base64url");
  const now = Date.now();
  insertSession({ idHash: hashId(id), userId, remember, createdAt: now, expiresAt: now + (remember ? IDLE.remember : IDLE.browser) });
  purgeExpiredSessions(now);
  const cookie = await sessionCookie.serialize(id, remember ? { maxAge: ABSOLUTE / 1000 } : {});
  return redirect(redirectTo, { status: 303, headers: { "Set-Cookie": cookie } });
}

/** End the request's session on the server and in the browser. */
export async function endSession(request: Request, redirectTo = "/"): Promise<Response> {
  const id = await readSessionId(request);
  if (id) deleteSession(hashId(id));
  return redirect(redirectTo, { status: 303, headers: { "Set-Cookie": await sessionCookie.serialize("", { maxAge: 0 }) } });
}

export function endAllSessionsOf(userId: string): void {
  deleteUserSessions(userId);
}

/** Whether a request carries a session cookie at all (its pages must not be cached by shared caches). */
export function hasSessionCookie(request: Request): boolean {
  return request.headers.get("Cookie")?.includes("dejiny_session=") ?? false;
}
