import { describe, expect, it } from "vitest";
import { editCount, historyPage, sizeChange } from "~/lib/revisions";

describe("the words of an article's history", () => {
  it("counts edits in Slovak: 1 úprava, 2–4 úpravy, 5 and more úprav", () => {
    expect([1, 2, 4, 5, 11, 22, 100].map(editCount)).toEqual(["1 úprava", "2 úpravy", "4 úpravy", "5 úprav", "11 úprav", "22 úprav", "100 úprav"]);
  });

  it("writes a size change with its sign, a minus sign for removals", () => {
    expect([120, -7, 0].map(sizeChange)).toEqual(["+120", "−7", "0"]);
    expect(sizeChange(-30000)).toBe("−30\u00a0000");
  });

  it("reads the page parameter strictly: absent is page 1, anything else must be a plain page that exists", () => {
    expect(historyPage(null, 1)).toBe(1);
    expect(historyPage("2", 3)).toBe(2);
    expect(historyPage("3", 3)).toBe(3);
    for (const raw of ["4", "0", "-1", "01", "1.0", "1e1", "x", "", " 1", "9999999"]) expect(historyPage(raw, 3), raw).toBeNull();
  });
});
