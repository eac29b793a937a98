import { describe, expect, it } from "vitest";
import { appealToken, readAppealToken } from "~/services/moderation/statements.server";

// The sign-in page's appeal form of a disabled account carries this token instead of a session.
describe("the appeal token", () => {
  const now = Date.UTC(2026, 10, 25, 12);

  it("names the account and decision it was made for, for an hour", () => {
    const token = appealToken("abcDEF_-123", 42, now);
    expect(readAppealToken(token, now + 59 * 60_000)).toEqual({ userId: "abcDEF_-123", decisionId: 42 });
    expect(readAppealToken(token, now + 61 * 60_000)).toBeNull();
  });

  it("refuses a token changed in any part, or not a token at all", () => {
    const token = appealToken("abcDEF_-123", 42, now);
    const [user, decision, until, signature] = token.split(".");
    for (const forged of [
      [user, "43", until, signature],
      ["someoneElse", decision, until, signature],
      [user, decision, String(Number(until) + 3_600_000), signature],
      [user, decision, until, signature.slice(0, -1) + (signature.endsWith("A") ? "B" : "A")],
      [user, decision, until, ""],
    ]) {
      expect(readAppealToken(forged.join("."), now)).toBeNull();
    }
    for (const junk of [undefined, null, 42, "", "a.b.c", "a.b.c.d.e", "x".repeat(201)]) expect(readAppealToken(junk, now)).toBeNull();
  });
});
