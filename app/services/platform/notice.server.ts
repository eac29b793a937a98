import { redirect, type TypedResponse } from "@remix-run/node";
import { NOTICE_KEY, type Notice } from "~/lib/notices";
import { siteCookie } from "./session.server";

/**
 * The word after an action travels with its redirect in a short-lived
 * cookie, and the next page (the root loader) takes it: shown on that page
 * alone, with or without JavaScript, and gone on reload. A cookie rather
 * than the address, so a reload, a bookmark or a shared link never repeats
 * it. A page asked with one is rendered afresh (server/page-cache.ts).
 */
export const NOTICE_COOKIE_NAME = "dejiny_notice";
const noticeCookie = siteCookie(NOTICE_COOKIE_NAME, { maxAge: 60 });

/**
 * The Set-Cookie header that has the next page say `notice`: a key of
 * NOTICES (the toast), unless the caller names its page's own keys, as
 * `redirectWithNotice<AccountNotice>`. For a redirect that sets other
 * cookies too (endSession).
 */
export function noticeCookieHeader<Key extends string = Notice>(notice: NoInfer<Key>): Promise<string> {
  return noticeCookie.serialize(notice);
}

/**
 * A 303 to `url` that says `notice` there (none: a plain 303). A key of
 * NOTICES (the toast), unless the route names its page's own keys:
 * `redirectWithNotice<AccountNotice>("/account", "rename")`.
 */
export async function redirectWithNotice<Key extends string = Notice>(url: string, notice?: NoInfer<Key>): Promise<TypedResponse<never>> {
  return redirect(url, { status: 303, headers: notice ? { "Set-Cookie": await noticeCookieHeader<Key>(notice) } : undefined });
}

/** Whether a request brings a notice (a page asked with one is the root loader's to render: server/page-cache.ts, search-results.server.tsx). */
export function bringsNotice(request: Request): boolean {
  return request.headers.get("cookie")?.includes(`${NOTICE_COOKIE_NAME}=`) ?? false;
}

/**
 * The notice this request brings, and the header that takes it away (so a
 * reload shows it no more). Any key of the known shape: the cookie is
 * signed, and each page shows only keys of its own (BroughtNotice.tsx).
 */
export async function takeNotice(request: Request): Promise<{ notice: string | null; headers: HeadersInit } | null> {
  if (!bringsNotice(request)) return null;
  const notice: unknown = await noticeCookie.parse(request.headers.get("cookie"));
  return { notice: typeof notice === "string" && NOTICE_KEY.test(notice) ? notice : null, headers: { "Set-Cookie": await noticeCookie.serialize("", { maxAge: 0 }) } };
}
