import { useRouteLoaderData } from "@remix-run/react";
import { EMAIL_MAX_LENGTH } from "~/lib/rules";
import { SITE_NAME, TAGLINE, type SocialLink } from "~/lib/site";

type SiteSettings = { socialLinks: SocialLink[]; contactEmail: string | undefined };

/** What the site's owner configured (the root loader passes it on; absent on a page that failed before it). */
export function useSiteSettings(): SiteSettings | undefined {
  return useRouteLoaderData<{ site: SiteSettings }>("root")?.site;
}

/** The site's name, the e-mail subscription's short form (every new article; /odber has the choices), its feed, the public moderation log, and the owner's contact address when one is configured (CONTACT_EMAIL). */
export function SiteFooter() {
  const contactEmail = useSiteSettings()?.contactEmail;
  return (
    <footer className="site-footer">
      <p>
        <strong>{SITE_NAME}</strong> – {TAGLINE}
      </p>
      <form method="post" action="/odber" className="footer-subscribe">
        <input type="hidden" name="zdroj" value="paticka" />
        {/* Not "e-mail": the sign-in forms' own field is the page's one "E-mail". */}
        <label htmlFor="paticka-email">Nové články do schránky</label>
        <input id="paticka-email" name="email" type="email" autoComplete="email" required maxLength={EMAIL_MAX_LENGTH} placeholder="vas@email.sk" />
        <button type="submit" className="button button-small button-light">
          Odoberať
        </button>
        <a href="/odber?od=paticka">Vybrať témy a&nbsp;frekvenciu</a>
      </form>
      <ul>
        <li>
          <a href="/feed.xml" type="application/atom+xml">
            {"Nové články v\u00a0čítačke (Atom)"}
          </a>
        </li>
        <li>
          <a href="/moderation">Verejný záznam moderovania</a>
        </li>
        {contactEmail && (
          <li>
            Kontakt na redakciu: <a href={`mailto:${contactEmail}`}>{contactEmail}</a>
          </li>
        )}
      </ul>
    </footer>
  );
}
