import { useLocation, useRouteLoaderData } from "@remix-run/react";
import { useEffect, useState } from "react";
import { NOTICES, type Notice } from "~/lib/notices";

/**
 * The word after an action ("Článok je uverejnený."), on the page its
 * redirect led to and no other: the root loader hands it over once
 * (notice.server.ts). The live region is always there, so that with
 * JavaScript a screen reader announces the words as they arrive; without,
 * they are part of the page. Shown over any layer, it fades after a while
 * (app.css), leaving nothing over the page. It comes after the footer:
 * a page's own status ("Meno je zmenené.") is the first a reader meets.
 */
export function ActionNotice() {
  // The root loader's answer: a new object each time it loads.
  const rootData = useRouteLoaderData<{ notice: Notice | null }>("root");
  const brought = rootData?.notice ?? null;
  const { key } = useLocation();
  const [shown, setShown] = useState<{ notice: Notice; at: string } | null>(brought ? { notice: brought, at: key } : null);
  // New root data (an action's redirect) brings a notice for the page it arrives with; a later navigation keeps the old data, not the notice.
  useEffect(() => {
    if (brought) setShown({ notice: brought, at: key });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only new data brings a notice, not a new address
  }, [rootData]);
  const notice = shown && shown.at === key ? NOTICES[shown.notice] : null;
  return (
    <div className="action-notice" role="status">
      {notice && <p key={key}>{notice}</p>}
    </div>
  );
}
