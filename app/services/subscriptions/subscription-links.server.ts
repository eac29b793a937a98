import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { env } from "~/config/env.server";
import { getMeta, keepMetaUnlessSet } from "~/models/meta.server";

/**
 * The link every subscription mail carries (its settings, and its one-click
 * unsubscribe): the subscriber's random id signed with the links' own key.
 * Nothing is stored for a link, so each mail can carry it; it lasts as long
 * as the subscription (a new subscription of the same address has a new id,
 * so an old mail's link opens nothing).
 *
 * The key is 32 random bytes kept in the database (app_meta), made on first
 * use, and not derived from the session secret: a new SESSION_SECRET (after
 * a leak, or on a new machine) signs everyone out, but every unsubscribe link
 * in a mail already sent keeps working. A backup holds it with the rest.
 */

const KEY_NAME = "subscription_link_key";

/** The key, once read (or made): read once per process. */
let key: Buffer | undefined;

/**
 * The links' key, made by the first link signed (`make`). Checking a link
 * never makes it (a GET writes nothing): without a key, no link is valid.
 * A read-only replica never makes one (it may not write): while its copy
 * has none (the primary has made none yet, or the copy predates it), the
 * links it cannot check are just invalid, and it looks again at the next
 * link, as a newer copy may hold it.
 */
function linkKey(make: boolean): Buffer | null {
  if (key) return key;
  const stored = make && !env.readOnly ? keepMetaUnlessSet(KEY_NAME, randomBytes(32).toString("base64url")) : getMeta(KEY_NAME);
  if (stored === undefined) return null;
  const bytes = Buffer.from(stored, "base64url");
  if (bytes.length !== 32) throw new Error(`The subscription links' key (app_meta "${KEY_NAME}") is not 32 bytes: the database was changed by hand.`);
  key = bytes;
  return key;
}

const signature = (key: Buffer, id: string) => createHmac("sha256", key).update(id).digest("base64url");

/** A new subscriber's id: 128 random bits. */
export function newSubscriberId(): string {
  return randomBytes(16).toString("base64url");
}

export function manageToken(id: string): string {
  const key = linkKey(true);
  // Only a replica can lack it, and a replica answers no form: no subscription is made there to link to.
  if (!key) throw new Error("manageToken: a read-only replica without the subscription links' key cannot sign a link");
  return `${id}.${signature(key, id)}`;
}

/** The subscriber id a token names, when its signature is right; null otherwise. */
export function subscriberIdOf(token: string | null | undefined): string | null {
  const match = /^([\w-]{22})\.([\w-]{43})$/.exec(token ?? "");
  if (!match) return null;
  const key = linkKey(false);
  if (!key) return null;
  const [, id, given] = match;
  const expected = Buffer.from(signature(key, id));
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
