import { env } from "./env.server";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Whether a state-changing request came from another site. Browsers say so in
 * `Sec-Fetch-Site` (which a page cannot forge) or, older ones, in `Origin`
 * (sent with every cross-origin POST, with or without JavaScript). Requests
 * with neither (non-browser clients) carry no victim's cookies and pass.
 */
export function isCrossSiteRequest(method: string, headers: { origin?: string; "sec-fetch-site"?: string; host?: string }): boolean {
  if (SAFE_METHODS.has(method.toUpperCase())) return false;
  const site = headers["sec-fetch-site"];
  if (site) return site !== "same-origin" && site !== "none";
  const origin = headers.origin;
  if (!origin) return false;
  if (origin === "null") return true;
  const allowed = new Set([env.publicUrl]);
  if (headers.host) {
    allowed.add(`http://${headers.host}`);
    allowed.add(`https://${headers.host}`);
  }
  return !allowed.has(origin);
}
