import { useLocation, useRouteLoaderData } from "@remix-run/react";
import { createContext, useContext, useEffect, useState } from "react";

/** The notice the root loader last brought, and the location it arrived with. */
const Arrival = createContext<{ notice: string; at: string } | null>(null);

/**
 * Notes where each notice arrives (notice.server.ts). The root loader's
 * data can outlive the location it came with (a link within the page loads
 * nothing; a route may opt out of reloading it), so the notice in it
 * belongs to that location and no later one. Noted here, in the root
 * layout, which sees every arrival: a page mounted later could not tell a
 * notice just brought from one left over.
 */
export function BroughtNoticeProvider({ children }: { children: React.ReactNode }) {
  // The root loader's answer: a new object each time it loads.
  const rootData = useRouteLoaderData<{ notice: string | null }>("root");
  const brought = rootData?.notice ?? null;
  const { key } = useLocation();
  const [arrival, setArrival] = useState(brought ? { notice: brought, at: key } : null);
  // New root data (after an action's redirect) brings a notice for the page it arrives with; a navigation that keeps the old data does not keep the notice.
  useEffect(() => {
    if (brought) setArrival({ notice: brought, at: key });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only new data brings a notice, not a new address
  }, [rootData]);
  return <Arrival.Provider value={arrival}>{children}</Arrival.Provider>;
}

/**
 * What `own` says for the notice brought to this location, if it is one of
 * its keys: each page (and the toast, of NOTICES) shows only its own words.
 */
export function useBroughtNotice<Own extends Readonly<Record<string, unknown>>>(own: Own): Own[keyof Own] | null {
  const arrival = useContext(Arrival);
  const { key } = useLocation();
  return arrival && arrival.at === key && Object.hasOwn(own, arrival.notice) ? own[arrival.notice as keyof Own] : null;
}
