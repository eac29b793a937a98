import { useEffect, useRef } from "react";

/**
 * A native <details> (a menu, the filter) that, with JavaScript, also closes
 * on Escape (focus back on its summary) and on a click or tap outside it, as
 * readers expect of a menu. Without JavaScript its summary opens and closes it.
 */
export function useDismissable() {
  const ref = useRef<HTMLDetailsElement>(null);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const details = ref.current;
      if (event.key !== "Escape" || !details?.open) return;
      details.open = false;
      details.querySelector("summary")?.focus();
    };
    const onPointer = (event: PointerEvent) => {
      const details = ref.current;
      if (details?.open && !details.contains(event.target as Node)) details.open = false;
    };
    document.addEventListener("keydown", onKey);
    document.addEventListener("pointerdown", onPointer);
    return () => {
      document.removeEventListener("keydown", onKey);
      document.removeEventListener("pointerdown", onPointer);
    };
  }, []);
  return ref;
}
