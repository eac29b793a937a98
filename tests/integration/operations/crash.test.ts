import { expect, it } from "vitest";
import { crashRounds, crashRoundsInBucket } from "../../../scripts/lib/crash";

// The short form of `npm run crash-test` (which runs 25 rounds).
it("loses no acknowledged article and leaves no orphan files across SIGKILLs", async () => {
  const report = await crashRounds(3);
  expect(report.acknowledged).toBeGreaterThan(0);
});

it("with the images in object storage, loses none of them and leaves no orphan objects across SIGKILLs", async () => {
  const report = await crashRoundsInBucket(3);
  expect(report.acknowledged).toBeGreaterThan(0);
});
