import { createHash, randomBytes } from "node:crypto";
import { deleteTrustedDevicesOf, findTrustedDevice, purgeTrustedDevicesIssuedBefore, replaceTrustedDevice } from "~/models/trusted-devices.server";
import { getUserByEmail } from "~/models/users.server";
import { siteCookie } from "~/services/platform/session.server";
import type { Requester } from "~/services/platform/throttle.server";

/**
 * Device cookies (OWASP, "Slow Down Online Guessing Attacks with Device
 * Cookies"): a browser that signs in to an account, registers it or resets
 * its password gets a token for that account in a long-lived, signed,
 * HttpOnly cookie. A sign-in presenting it is counted against that
 * browser's own budget, so failures sent from anywhere else never lock the
 * owner out (throttle.server.ts). The token names nothing; the database
 * keeps only its hash, and which account it is for.
 */

const YEAR = 365 * 24 * 60 * 60 * 1000;
/** Accounts one browser is remembered for (a family's shared computer); the oldest drops out. */
const TOKENS_PER_BROWSER = 5;
/** Browsers one account trusts, far more than a person has: a script signing in all day leaves no pile of rows. */
const DEVICES_PER_ACCOUNT = 20;
const TOKEN = /^[A-Za-z0-9_-]{32}$/;

const deviceCookie = siteCookie("dejiny_device", { maxAge: YEAR / 1000 });

function hashToken(token: string): string {
  return createHash("sha256").update(`device:${token}`).digest("hex");
}

/** The device tokens the request's cookie holds: none when it is missing, malformed or not signed by us. */
async function tokensOf(request: Request): Promise<string[]> {
  const header = request.headers.get("Cookie");
  if (!header?.includes("dejiny_device=")) return [];
  const value: unknown = await deviceCookie.parse(header);
  return Array.isArray(value) ? value.filter((t): t is string => typeof t === "string" && TOKEN.test(t)).slice(0, TOKENS_PER_BROWSER) : [];
}

/** The trusted device (its id) the request presents for the account, or null. Without a device cookie, nothing is looked up. */
export async function trustedDeviceFor(request: Request, account: { email: string } | { userId: string }): Promise<string | null> {
  const hashes = (await tokensOf(request)).map(hashToken);
  if (hashes.length === 0) return null;
  const userId = "userId" in account ? account.userId : getUserByEmail(account.email)?.id;
  return (userId && findTrustedDevice(userId, hashes)) || null;
}

/** The client as the sign-in limits count it, trying the password of `account`. */
export async function requesterFor(request: Request, address: string, account: { email: string } | { userId: string }): Promise<Requester> {
  return { address, device: await trustedDeviceFor(request, account) };
}

/**
 * After the browser proved it may use the account (a sign-in, a
 * registration, a password reset): a new token for the account in its
 * device cookie, in place of the one it had (a fresh budget, and a copy of
 * the old cookie stops counting). Adds the cookie to `response`.
 */
export async function trustDevice(response: Response, request: Request, userId: string): Promise<Response> {
  const tokens = await tokensOf(request);
  const previous = findTrustedDevice(userId, tokens.map(hashToken));
  const token = randomBytes(24).toString("base64url");
  const now = Date.now();
  replaceTrustedDevice({ idHash: hashToken(token), userId, issuedAt: now }, previous, DEVICES_PER_ACCOUNT);
  purgeTrustedDevicesIssuedBefore(now - YEAR);
  const others = tokens.filter((t) => hashToken(t) !== previous);
  response.headers.append("Set-Cookie", await deviceCookie.serialize([token, ...others].slice(0, TOKENS_PER_BROWSER)));
  return response;
}

/** After a new password: whoever knew the old one loses the budget of their browsers (all but `keepDevice`). */
export function forgetDevicesOf(userId: string, keepDevice?: string | null): void {
  deleteTrustedDevicesOf(userId, keepDevice ?? undefined);
}
