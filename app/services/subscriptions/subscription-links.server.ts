import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { env } from "~/config/env.server";

/**
 * The link every subscription mail carries (its settings, and its one-click
 * unsubscribe): the subscriber's random id signed with a key derived from
 * the session secret. Nothing is stored for it, so each mail can carry it;
 * it lasts as long as the subscription (a new subscription of the same
 * address has a new id, so an old mail's link opens nothing).
 */

const key = createHmac("sha256", env.sessionSecret).update("dejiny subscription links").digest();

const signature = (id: string) => createHmac("sha256", key).update(id).digest("base64url");

/** A new subscriber's id: 128 random bits. */
export function newSubscriberId(): string {
  return randomBytes(16).toString("base64url");
}

export function manageToken(id: string): string {
  return `${id}.${signature(id)}`;
}

/** The subscriber id a token names, when its signature is right; null otherwise. */
export function subscriberIdOf(token: string | null | undefined): string | null {
  const match = /^([\w-]{22})\.([\w-]{43})$/.exec(token ?? "");
  if (!match) return null;
  const [, id, given] = match;
  const expected = Buffer.from(signature(id));
  return timingSafeEqual(Buffer.from(given), expected) ? id : null;
}

/** The settings page of a subscription (built from PUBLIC_URL, never from the request's Host). */
export function manageLink(id: string): string {
  return `${env.publicUrl}/odber/nastavenia?token=${manageToken(id)}`;
}

/** The one-click unsubscribe address (RFC 8058): a POST ends the subscription, a GET shows a button. */
export function unsubscribeLink(id: string): string {
  return `${env.publicUrl}/odber/odhlasit?token=${manageToken(id)}`;
}

/**
 * What an unsubscribed address is kept as (docs/decisions/subscription-suppression-hashed.md):
 * a SHA-256 of the normalised address, unkeyed so that it survives a new session secret.
 */
export function suppressionHash(email: string): string {
  return createHash("sha256").update(`dejiny-suppression:${email}`).digest("hex");
}
