import { useEffect, useRef } from "react";

/**
 * A native <details> (a menu, the filter) that, with JavaScript, also closes
 * on Escape (focus back on its summary) and on a click or tap outside it, as
 * readers expect of a menu. Without JavaScript its summary opens and closes it.
 * A panel outside the <details> that its summary shows (`aria-controls`) is
 * part of it: a tap there is inside.
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
      if (!details?.open) return;
      const panelId = details.querySelector("summary")?.getAttribute("aria-controls");
      const panel = panelId ? document.getElementById(panelId) : null;
      const target = event.target as Node;
      if (!details.contains(target) && !panel?.contains(target)) details.open = false;
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
