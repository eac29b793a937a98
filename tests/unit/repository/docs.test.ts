import { describe, expect, it } from "vitest";
import { anchorOf, docProblems } from "../../../scripts/check-docs.js";

describe("the documents (README.md, CONTRIBUTING.md, docs/)", () => {
  it("link only to files and headings that exist, keep the README short, and tell no story of how the code got here", () => {
    expect(docProblems()).toEqual([]);
  });

  it("spell a heading's anchor as GitHub does", () => {
    expect(anchorOf("Replication (Litestream)")).toBe("replication-litestream");
    expect(anchorOf("What a search's timing tells")).toBe("what-a-searchs-timing-tells");
    expect(anchorOf("Zdroje a odkazy [1], [2]")).toBe("zdroje-a-odkazy-1-2");
    expect(anchorOf("Otázky čitateľov „Zdroj?“")).toBe("otázky-čitateľov-zdroj");
  });
});
