/** Facts about the site shown in its chrome. Owners put their own profile addresses here. */
export const SITE_NAME = "Dejiny";
export const TAGLINE = "Učíme históriu, nie mýty";
export const SITE_DESCRIPTION =
  "Dejiny – články o histórii v slovenčine: od Rímskej ríše cez Veľkú Moravu po studenú vojnu. Učíme históriu, nie mýty.";

export const SOCIAL_LINKS = [
  { name: "Facebook", href: "https://www.facebook.com/" },
  { name: "Instagram", href: "https://www.instagram.com/" },
  { name: "YouTube", href: "https://www.youtube.com/" },
] as const;

/** A page title in the site's format. */
export function pageTitle(title?: string): string {
  return title ? `${title} | ${SITE_NAME}` : `${SITE_NAME} – ${TAGLINE}`;
}
