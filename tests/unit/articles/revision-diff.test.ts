import { describe, expect, it } from "vitest";
import { BusyError } from "~/services/platform/concurrency.server";
import type { FieldDiff } from "~/lib/revisions";
import { DIFF_BUDGET_MS, diffVersions, type VersionTexts } from "~/services/articles/revision-diff.server";
import { unrelatedText } from "../../support/unrelated-text";

/** One text compared (as an article's body, beside an unchanged title and sources). */
const diffText = async (from: string, to: string): Promise<FieldDiff> => {
  const version = (text: string): VersionTexts => ({ title: "Lipany", text, sources: "" });
  return (await diffVersions(version(from), version(to), { client: "test" })).text;
};

const changed = (diff: FieldDiff) => ("parts" in diff ? diff.parts.filter((part) => part.added || part.removed) : null);

describe("comparing two revisions word by word", () => {
  it("marks a changed word as removed from the older version and added in the newer", async () => {
    const diff = await diffText("Bitka pri Lipanoch bola v roku 1434.", "Bitka pri Lipanoch bola v máji 1434.");
    expect(changed(diff)).toEqual([
      { value: "roku", added: false, removed: true },
      { value: "máji", added: true, removed: false },
    ]);
    // Nothing is lost: the older version is what is kept plus what is removed, the newer what is kept plus what is added.
    const parts = "parts" in diff ? diff.parts : [];
    expect(parts.filter((part) => !part.added).map((part) => part.value).join("")).toBe("Bitka pri Lipanoch bola v roku 1434.");
    expect(parts.filter((part) => !part.removed).map((part) => part.value).join("")).toBe("Bitka pri Lipanoch bola v máji 1434.");
  });

  it("compares the text as written: a mark or an address is a change, as a word is", async () => {
    const older = "Prvý odsek.\n\nDruhý **odsek** s [odkazom](https://example.org/).";
    const newer = "Prvý odsek.\n\nDruhý odsek s [odkazmi](https://example.org/).";
    expect(changed(await diffText(older, newer))).toEqual([
      { value: "**", added: false, removed: true },
      { value: "**", added: false, removed: true },
      { value: "odkazom", added: false, removed: true },
      { value: "odkazmi", added: true, removed: false },
    ]);
    expect(changed(await diffText("x", "x"))).toEqual([]);
  });

  it("answers the worst allowed comparison, two unrelated 30,000-character revisions, in under a second, with only their sizes", async () => {
    const older = unrelatedText(1, 30_000);
    const newer = unrelatedText(2, 30_000);
    expect([older.length, newer.length]).toEqual([30_000, 30_000]);
    const started = performance.now();
    const diff = await diffVersions({ title: "Lipany", text: older, sources: older }, { title: "Lipany 1434", text: newer, sources: newer }, { client: "test" });
    const elapsed = performance.now() - started;
    console.log(`worst comparison (text and sources of 30,000 unrelated characters each): ${elapsed.toFixed(0)} ms`);
    expect(elapsed).toBeLessThan(1000);
    // The whole comparison stays within its budget (a little slack for a busy machine's timer).
    expect(elapsed).toBeLessThan(DIFF_BUDGET_MS + 200);
    expect(diff.text).toEqual({ tooLarge: { from: 30_000, to: 30_000 } });
    expect(diff.sources).toEqual({ tooLarge: { from: 30_000, to: 30_000 } });
    // A title is short: it is still compared.
    expect(changed(diff.title)?.map((part) => part.value.trim())).toEqual(["1434"]);
  });

  it("still shows a small edit of a 30,000-character text word by word", async () => {
    const older = unrelatedText(3, 30_000);
    const words = older.split(" ");
    words[2000] = "ZMENENÉ";
    const started = performance.now();
    const diff = await diffText(older, words.join(" "));
    expect(performance.now() - started).toBeLessThan(DIFF_BUDGET_MS);
    expect(changed(diff)?.map((part) => part.value)).toContain("ZMENENÉ");
  });

  it("runs off the event loop: readers are served while the worst comparisons are worked out", async () => {
    const [older, newer] = [unrelatedText(4, 30_000), unrelatedText(5, 30_000)];
    let client = 0;
    const worst = () => diffVersions({ title: "A", text: older, sources: "" }, { title: "B", text: newer, sources: "" }, { client: `reader ${client++}` });
    // A 5 ms ticker: the time it could not run is the time the event loop was held.
    let held = 0;
    let last = performance.now();
    const tick = () => {
      const now = performance.now();
      held += Math.max(0, now - last - 10);
      last = now;
    };
    const ticker = setInterval(tick, 5);
    const started = performance.now();
    try {
      await Promise.all([worst(), worst(), worst()]);
    } finally {
      clearInterval(ticker);
    }
    tick();
    const elapsed = performance.now() - started;
    console.log(`three worst comparisons took ${elapsed.toFixed(0)} ms; the event loop was held ${held.toFixed(0)} ms of it`);
    // On the event loop they would hold it nearly all the time; judged as a share, a busy machine slows both alike.
    expect(held).toBeLessThan(elapsed / 2);
  });

  it("answers 'busy' at once when more comparisons wait than the worker will queue", async () => {
    const text = unrelatedText(6, 30_000);
    const asked = Array.from({ length: 14 }, (_, i) =>
      diffVersions({ title: "A", text, sources: "" }, { title: "B", text: unrelatedText(7 + i, 30_000), sources: "" }, { client: `reader ${i}` }).then(
        () => "compared",
        (error: unknown) => (error instanceof BusyError ? "busy" : "failed"),
      ),
    );
    const answers = await Promise.all(asked);
    // One running and eight waiting are compared; the rest are told at once.
    expect(answers.filter((answer) => answer === "compared")).toHaveLength(9);
    expect(answers.filter((answer) => answer === "busy")).toHaveLength(5);
  });

  it("works a comparison out once: the same pair asked again, or at once by many, is answered without the worker", async () => {
    const [older, newer] = [unrelatedText(30, 30_000), unrelatedText(31, 30_000)];
    const pair = () => diffVersions({ title: "A", text: older, sources: "" }, { title: "B", text: newer, sources: "" }, { key: "r1:r2", client: `reader ${Math.random()}` });
    const [first, second] = await Promise.all([pair(), pair()]);
    expect(second).toBe(first);
    const started = performance.now();
    expect(await pair()).toBe(first);
    expect(performance.now() - started).toBeLessThan(5);
  });

  it("gives one client one comparison at a time: a second, while the first waits, is 'busy'", async () => {
    const text = unrelatedText(40, 30_000);
    const ask = (i: number) =>
      diffVersions({ title: "A", text, sources: "" }, { title: "B", text: unrelatedText(41 + i, 30_000), sources: "" }, { key: `one client ${i}`, client: "greedy" }).then(
        () => "compared",
        (error: unknown) => (error instanceof BusyError ? "busy" : "failed"),
      );
    const answers = await Promise.all([ask(0), ask(1), ask(2)]);
    expect(answers).toEqual(["compared", "busy", "busy"]);
    // Its turn over, the client may ask again.
    expect(await ask(3)).toBe("compared");
  });
});
