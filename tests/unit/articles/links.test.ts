import { describe, expect, it } from "vitest";
import { safeRedirect } from "~/lib/links";

describe("safeRedirect", () => {
  it("keeps a path on this site with its query and fragment", () => {
    expect(safeRedirect("/posts?tag=Morava")).toBe("/posts?tag=Morava");
    expect(safeRedirect("/create-post")).toBe("/create-post");
    expect(safeRedirect("/posts/abc#x")).toBe("/posts/abc#x");
    expect(safeRedirect("/a/./b/../c")).toBe("/a/c");
  });

  it("sends every way of naming another host to / (checked after normalisation)", () => {
    const foreign = [
      "//evil.example/x",
      "/.//evil.example/x",
      "/././/evil.example/x",
      "/a/..//evil.example/x",
      "/%2e//evil.example/x",
      "/%2E%2E//evil.example/x",
      "/\\evil.example/x",
      "/%5Cevil.example/x",
      "/%5cevil.example/x",
      "/\t/evil.example/x",
      "/\n/evil.example/x",
      "/\r\n/evil.example",
      "/%09/evil.example",
      "/%2f%2fevil.example/x",
      "/%2F/evil.example",
      "https://evil.example/x",
      "http:evil.example",
      "javascript:alert(1)",
      "  //evil.example",
      "\u0000//evil.example",
      "",
      "evil.example",
    ];
    for (const to of foreign) {
      const target = safeRedirect(to);
      expect(target, JSON.stringify(to)).toBe("/");
    }
  });

  it("refuses anything that is not a string", () => {
    expect(safeRedirect(null)).toBe("/");
    expect(safeRedirect(undefined, "/posts")).toBe("/posts");
  });
});
