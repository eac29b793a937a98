import { useEffect, useRef } from "react";

/**
 * After a refused form comes back (with JavaScript), move focus to its
 * first marked field, or to its message: where a keyboard or screen reader
 * user needs to be next. Without JavaScript the page reloads at the top,
 * with the message first in the form.
 */
export function useFocusFirstError<T extends HTMLElement = HTMLFormElement>(result: unknown) {
  const ref = useRef<T>(null);
  useEffect(() => {
    if (!result) return;
    const target = ref.current?.querySelector<HTMLElement>('[aria-invalid="true"]') ?? ref.current?.querySelector<HTMLElement>('[role="alert"]');
    // A group of choices is marked as a whole: its first choice takes focus.
    (target?.getAttribute("role") === "radiogroup" ? target.querySelector<HTMLElement>("input") : target)?.focus();
  }, [result]);
  return ref;
}
