const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** A serialised origin such as `https://dejiny.example` (not "null", not junk). */
function isOrigin(value: string): boolean {
  try {
    return new URL(value).origin === value;
  } catch {
    return false;
  }
}

/**
 * Whether a state-changing request came from another site. Browsers say so in
 * `Sec-Fetch-Site` (which a page cannot forge) or, older ones, in `Origin`
 * (sent with every cross-origin POST, with or without JavaScript), which must
 * then be the site's own: PUBLIC_URL, or the Host the request was sent to.
 * Requests with neither (non-browser clients) carry no victim's cookies and pass.
 */
export function isCrossSiteRequest(
  method: string,
  headers: { origin?: string; "sec-fetch-site"?: string; host?: string },
  publicUrl: string,
): boolean {
  if (SAFE_METHODS.has(method.toUpperCase())) return false;
  const { origin } = headers;
  if (origin !== undefined && !isOrigin(origin)) return true;
  const site = headers["sec-fetch-site"];
  if (site) return site !== "same-origin" && site !== "none";
  if (!origin) return false;
  const allowed = new Set([publicUrl]);
  if (headers.host) {
    allowed.add(`http://${headers.host}`);
    allowed.add(`https://${headers.host}`);
  }
  return !allowed.has(origin);
}
