import { Form, Link, NavLink, useLocation, useRouteLoaderData } from "@remix-run/react";
import { SITE_NAME } from "~/lib/site";
import type { SignedInUser } from "~/lib/types";
import { FacebookIcon, InstagramIcon, MenuIcon, YoutubeIcon } from "./Icons";
import { useDismissable } from "./useDismissable";
import { useSiteSettings } from "./SiteFooter";

const SOCIAL_ICONS = { Facebook: FacebookIcon, Instagram: InstagramIcon, YouTube: YoutubeIcon };

/** The header's links. On wide screens the bar names the user without the words around the name (app.css), which screen readers still read. */
function NavEntries() {
  const { pathname } = useLocation();
  const user = useRouteLoaderData<{ user: SignedInUser | null }>("root")?.user;
  return (
    <ul className="nav-entries">
      <li>
        <NavLink to="/posts">História</NavLink>
      </li>
      {user && (
        <li>
          <NavLink to="/create-post">Pridať článok</NavLink>
        </li>
      )}
      <li>
        <NavLink to="/timeline">Časová os</NavLink>
      </li>
      <li>
        <NavLink to="/conflicts">Aktuálne konflikty</NavLink>
      </li>
      {!user && pathname !== "/signinsignup" && (
        <li>
          <NavLink to="/signinsignup" className="nav-signin">
            Prihlásiť sa
          </NavLink>
        </li>
      )}
      {user?.isAdmin && (
        <li>
          <NavLink to="/admin">Administrácia</NavLink>
        </li>
      )}
      {user && (
        <li>
          <NavLink to="/account" className="nav-account">
            <span className="nav-account-prefix">Účet: </span>
            <span className="nav-account-name">{user.displayName}</span>
          </NavLink>
        </li>
      )}
      {user && (
        <li>
          {/* A form, so signing out works without JavaScript and cannot be triggered by a link. */}
          <Form method="post" action="/signout" className="nav-signout">
            <button type="submit">Odhlásiť sa</button>
          </Form>
        </li>
      )}
    </ul>
  );
}

/** The site's profiles, as its owner configured them (SOCIAL_*_URL); nothing when there are none. */
function SocialLinks() {
  const links = useSiteSettings()?.socialLinks ?? [];
  if (links.length === 0) return null;
  return (
    <ul className="social-links">
      {links.map(({ network, href }) => {
        const Icon = SOCIAL_ICONS[network];
        return (
          <li key={network}>
            <a href={href} rel="noopener noreferrer">
              <Icon label={network === "YouTube" ? `${SITE_NAME} na YouTube` : `${SITE_NAME} na sieti ${network}`} />
            </a>
          </li>
        );
      })}
    </ul>
  );
}

/**
 * One navigation for every width, so that it is in the page once (a text
 * browser or a page without its CSS lists it once): a bar from 896 px; below,
 * a panel that the menu toggle before it shows. The toggle is a native
 * <details> with nothing inside but its summary, so it opens without
 * JavaScript, and app.css shows the panel after an open toggle.
 */
export function SiteHeader() {
  const menu = useDismissable();
  const location = useLocation();
  return (
    <header className="site-header">
      <div className="header-inner">
        <Link to="/" className="brand">
          <img src="/img/favicon.svg" alt="" width="32" height="32" />
          <span>{SITE_NAME}</span>
        </Link>
        {/* A space that keeps the name and the toggle apart in a text browser; the flex row ignores it. */}
        {" "}
        {/* Keyed by location, so that the menu closes after every client-side navigation. */}
        <details className="mobile-menu" key={location.key} ref={menu}>
          <summary aria-controls="site-nav">
            <MenuIcon label="Menu" />
          </summary>
        </details>
        <nav id="site-nav" className="site-nav" aria-label="Hlavná navigácia">
          <NavEntries />
          <SocialLinks />
        </nav>
      </div>
    </header>
  );
}
