import { describe, expect, it } from "vitest";
import { digestDueAt, follows } from "~/lib/subscriptions";

/** Who an article is mailed to, and when the weekly digest is due. */

describe("follows", () => {
  const article = { tags: ["Stredovek", "Osobnosti"], century: 15 };

  it("gives every article to a subscription of no topics", () => {
    expect(follows({ tags: [], centuries: [] }, article)).toBe(true);
    expect(follows({ tags: [], centuries: [] }, { tags: ["Ostatné"], century: null })).toBe(true);
  });

  it("gives an article with one of the chosen tags or within one of the chosen centuries", () => {
    expect(follows({ tags: ["Osobnosti"], centuries: [] }, article)).toBe(true);
    expect(follows({ tags: [], centuries: [15] }, article)).toBe(true);
    expect(follows({ tags: ["Starovek"], centuries: [15] }, article)).toBe(true);
    expect(follows({ tags: ["Starovek"], centuries: [-1, 20] }, article)).toBe(false);
    // An article with no period is in no century.
    expect(follows({ tags: [], centuries: [15] }, { tags: ["Stredovek"], century: null })).toBe(false);
  });
});

describe("digestDueAt", () => {
  const at = (iso: string) => Date.parse(iso);

  it("is the latest Monday 06:00 UTC", () => {
    // Sunday 29 November 2026: the Monday before.
    expect(digestDueAt(at("2026-11-29T05:00:00Z"))).toBe(at("2026-11-23T06:00:00Z"));
    expect(digestDueAt(at("2026-11-30T05:59:59Z"))).toBe(at("2026-11-23T06:00:00Z"));
    expect(digestDueAt(at("2026-11-30T06:00:00Z"))).toBe(at("2026-11-30T06:00:00Z"));
    expect(digestDueAt(at("2026-12-03T12:00:00Z"))).toBe(at("2026-11-30T06:00:00Z"));
    // Across a year's end.
    expect(digestDueAt(at("2027-01-01T00:00:00Z"))).toBe(at("2026-12-28T06:00:00Z"));
  });
});
