/** Facts about the site shown in its chrome (its owner's profiles and contact are settings: README, "Settings"). */
export const SITE_NAME = "Dejiny";
export const TAGLINE = "Učíme históriu, nie mýty";
export const SITE_DESCRIPTION =
  "Dejiny – články o histórii v slovenčine: od Rímskej ríše cez Veľkú Moravu po studenú vojnu. Učíme históriu, nie mýty.";

/** One of the site's profiles elsewhere (settings SOCIAL_*_URL). */
export type SocialLink = { network: "Facebook" | "Instagram" | "YouTube"; href: string };

/** A page title in the site's format. */
export function pageTitle(title?: string): string {
  return title ? `${title} | ${SITE_NAME}` : `${SITE_NAME} – ${TAGLINE}`;
}

/** The meta of a page whose address carries a mailed token (a reset or confirmation link): not indexed, and its address not passed on to other sites. */
export function tokenPageMeta(title: string) {
  return [{ title: pageTitle(title) }, { name: "robots", content: "noindex" }, { name: "referrer", content: "same-origin" }];
}
