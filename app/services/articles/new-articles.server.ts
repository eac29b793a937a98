/**
 * Who wants to know of a newly published article (subscriptions announce
 * it): told inside the transaction that publishes it, so that what they
 * write is committed with the article or not at all. An edit, a restored
 * revision or an article shown again is not new. Registered at start, by
 * the capabilities above articles, which articles may not import.
 */

type Listener = (postId: string, now: number) => void;
const listeners: Listener[] = [];

export function onNewArticle(listener: Listener): void {
  if (!listeners.includes(listener)) listeners.push(listener);
}

/** Call inside the publishing transaction. */
export function tellNewArticle(postId: string, now = Date.now()): void {
  for (const listener of listeners) listener(postId, now);
}
