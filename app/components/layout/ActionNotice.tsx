import { useLocation } from "@remix-run/react";
import { NOTICES } from "~/lib/notices";
import { useBroughtNotice } from "./BroughtNotice";

/**
 * The word after an action ("Článok je uverejnený."), on the page its
 * redirect led to and no other (BroughtNotice.tsx). The live region is
 * always there, so that with JavaScript a screen reader announces the
 * words as they arrive; without, they are part of the page. Shown over any
 * layer, it fades after a while (app.css), leaving nothing over the page.
 * It comes after the footer: a page's own status ("Meno je zmenené.") is
 * the first a reader meets.
 */
export function ActionNotice() {
  const notice = useBroughtNotice(NOTICES);
  const { key } = useLocation();
  return (
    <div className="action-notice" role="status">
      {/* Keyed by the location: a notice on the next page starts afresh (its fading too). */}
      {notice && <p key={key}>{notice}</p>}
    </div>
  );
}
