import { data, type LinksFunction, type LoaderFunctionArgs } from "@remix-run/node";
import {
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLocation,
  useNavigation,
} from "@remix-run/react";
import { ActionNotice } from "~/components/layout/ActionNotice";
import { BroughtNoticeProvider } from "~/components/layout/BroughtNotice";
import { ErrorPage } from "~/components/layout/ErrorPage";
import { SiteFooter } from "~/components/layout/SiteFooter";
import { SiteHeader } from "~/components/layout/SiteHeader";
import { useNonce } from "~/lib/nonce";
import { SITE_NAME } from "~/lib/site";
import type { SignedInUser } from "~/lib/types";
import { env } from "~/config/env.server";
import { takeNotice } from "~/services/platform/notice.server";
import { getCurrentUser } from "~/services/platform/session.server";
import stylesheet from "~/styles/app.css?url";

/** The current user, read once per request and handed to the routes that need it. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await getCurrentUser(request);
  // The word after an action, taken as it is shown (notice.server.ts): the toast's, or the page's own.
  const taken = await takeNotice(request);
  const root = {
    user: user && ({ id: user.id, displayName: user.displayName, isAdmin: user.isAdmin } satisfies SignedInUser),
    // What the site's owner configured for the header and footer.
    site: { socialLinks: env.socialLinks, contactEmail: env.contactEmail },
    notice: taken?.notice ?? null,
  };
  return taken ? data(root, { headers: taken.headers }) : root;
}

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: stylesheet },
  { rel: "icon", href: "/img/favicon.svg", type: "image/svg+xml" },
  // Feed readers find the site's feed from any page.
  { rel: "alternate", type: "application/atom+xml", title: `${SITE_NAME} – nové články`, href: "/feed.xml" },
];

export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useNonce();
  return (
    <html lang="sk">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#3b2a1e" />
        <Meta />
        <Links />
      </head>
      <body>
        <a className="skip-link" href="#obsah">
          Preskočiť na obsah
        </a>
        <SiteHeader />
        <BroughtNoticeProvider>
          {children}
          <SiteFooter />
          <ActionNotice />
        </BroughtNoticeProvider>
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  const navigation = useNavigation();
  const { pathname } = useLocation();
  const loadingPage = navigation.state === "loading" && navigation.location.pathname.split("/")[1] !== pathname.split("/")[1];
  return (
    <>
      {loadingPage && (
        <p className="page-loading" role="status">
          Loading...
        </p>
      )}
      <Outlet />
    </>
  );
}

export { ErrorPage as ErrorBoundary };
