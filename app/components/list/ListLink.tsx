import { Link, type LinkProps } from "@remix-run/react";
import { useEffect, useRef, useSyncExternalStore } from "react";
import { cardId } from "~/lib/links";

const noSubscription = () => () => {};

/** False in the server's HTML and while React takes it over, true once JavaScript runs the page. */
function useHydrated() {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}

type Props = Omit<LinkProps, "to" | "preventScrollReset"> & { to: string; at: string | null };

/**
 * A link to the list that keeps the reader's place at an article's card
 * (`at`, when there is one). Without JavaScript the list is a new page, so the
 * link carries the card's anchor (`#card-…`) and the browser opens the page
 * there. With JavaScript the list on the page is only updated and stays where
 * it is; the link leaves the anchor out, or the router would scroll to it.
 */
export function ListLink({ to, at, ...props }: Props) {
  const hydrated = useHydrated();
  return <Link {...props} to={at && !hydrated ? `${to}#${cardId(at)}` : to} preventScrollReset />;
}

/**
 * With JavaScript, move focus to a card's link once the card is on the page
 * (the first card "Načítaj viac" brings: the link that had focus makes way
 * for them). Without scrolling: the card appears where the link was.
 * Returns the function that asks for it; `cards` are the cards shown.
 */
export function useFocusCardOnArrival(cards: unknown) {
  const wanted = useRef<string | null>(null);
  useEffect(() => {
    const postId = wanted.current;
    // Asked once, for the next cards that come: whatever they are.
    wanted.current = null;
    if (postId) document.getElementById(cardId(postId))?.querySelector("a")?.focus({ preventScroll: true });
  }, [cards]);
  return (postId: string) => {
    wanted.current = postId;
  };
}
