import { inTransaction } from "~/db/connection.server";
import type { SubscriptionChoices } from "~/lib/subscriptions";
import { addSuppression, deleteSubscriber, getSubscriberWithChoices, setChoices, type Subscriber, type SubscriberWithChoices } from "~/models/subscriptions.server";
import { subscriberIdOf, suppressionHash } from "./subscription-links.server";

/**
 * A subscription's settings and its end, by the signed link of its mails
 * (subscription-links.server.ts): no account, no sign-in. Unsubscribing
 * forgets the subscriber and keeps only a digest of the address, so that
 * nothing is mailed to it again without a new confirmed consent.
 */

/** The confirmed subscription a link names, or null (a made-up link, or one ended since). */
export function subscriptionOf(token: string | null): SubscriberWithChoices | null {
  const id = subscriberIdOf(token);
  const subscriber = id ? getSubscriberWithChoices(id) : undefined;
  return subscriber?.status === "confirmed" ? subscriber : null;
}

/** New topics and frequency for the subscription a link names; false when there is none. */
export function saveChoices(token: string | null, choices: SubscriptionChoices): boolean {
  const subscription = subscriptionOf(token);
  if (!subscription) return false;
  inTransaction(() => setChoices(subscription.id, choices));
  return true;
}

/**
 * End the subscription a link names (the one-click POST, or the button of
 * its page). "ended" also when it had ended already (a provider may repeat
 * the POST); "invalid" for a link the site never signed.
 */
export function unsubscribe(token: string | null, now = Date.now()): "ended" | "invalid" {
  const id = subscriberIdOf(token);
  if (!id) return "invalid";
  inTransaction(() => {
    const subscriber = getSubscriberWithChoices(id);
    if (subscriber) endSubscription(subscriber, now);
  });
  return "ended";
}

/**
 * End a subscription (its owner's link, or the mail provider's bounce or
 * complaint): the subscriber and its topics are forgotten, the address kept
 * only as the digest that stops mail to it until a new confirmed consent.
 * Call inside a transaction.
 */
export function endSubscription(subscriber: Pick<Subscriber, "id" | "email">, now: number): void {
  deleteSubscriber(subscriber.id);
  addSuppression(suppressionHash(subscriber.email), now);
}
