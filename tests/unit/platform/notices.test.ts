import { describe, expect, it } from "vitest";
import { DRAFT_NOTICES } from "~/lib/drafts";
import { ACCOUNT_ACTIONS } from "~/lib/moderation/moderation";
import { ACCOUNT_NOTICES, ADMIN_NOTICES, DECISIONS_NOTICES, NOTICE_KEY, NOTICES, SIGNIN_NOTICES } from "~/lib/notices";

// Each page that says a word of its own after its forms, and the map its status line reads (useBroughtNotice).
const PAGES = {
  "/account": ACCOUNT_NOTICES,
  "/account/decisions": DECISIONS_NOTICES,
  "/signinsignup": SIGNIN_NOTICES,
  "/admin": ADMIN_NOTICES,
  "/admin/users/…": ACCOUNT_ACTIONS,
  "/drafts/…": DRAFT_NOTICES,
};

describe("the words after an action", () => {
  it.each(Object.entries(PAGES))("of %s are under keys of its own: none of the toast's, so the toast never says them too, nor another page's", (page, own) => {
    const others = [NOTICES, ...Object.entries(PAGES).flatMap(([other, map]) => (other === page ? [] : [map]))];
    expect(Object.keys(own).filter((key) => others.some((other) => Object.hasOwn(other, key)))).toEqual([]);
  });

  it("are under keys the notice cookie carries", () => {
    for (const key of [NOTICES, ...Object.values(PAGES)].flatMap((own) => Object.keys(own))) expect(key).toMatch(NOTICE_KEY);
  });
});
