import { createPath, useLocation, useNavigate } from "@remix-run/react";
import type { MouseEvent } from "react";

/**
 * The click handler of plain links to pages of the app (`<a href>` with an
 * absolute path), for long lists of them: with JavaScript a click navigates
 * in place, as a <Link> does (a click with a modifier key, or to another
 * origin or window, is the browser's; a link to the address shown replaces
 * it); without JavaScript the link is an ordinary link. One handler for the
 * whole list: each <Link> resolves its address with a dozen hooks, and the
 * tag list's sixty of them were a fifth of what a search's page allocated.
 * Such a link carries `data-discover`, as a <Link> does, so that Remix
 * learns the routes it leads to.
 */
export function useFollowLink() {
  const navigate = useNavigate();
  const location = useLocation();
  return (event: MouseEvent<HTMLAnchorElement>) => {
    const link = event.currentTarget;
    const modified = event.metaKey || event.altKey || event.ctrlKey || event.shiftKey;
    if (event.defaultPrevented || event.button !== 0 || modified || (link.target && link.target !== "_self") || link.origin !== window.location.origin) return;
    event.preventDefault();
    const to = `${link.pathname}${link.search}${link.hash}`;
    navigate(to, { replace: to === createPath(location) });
  };
}
