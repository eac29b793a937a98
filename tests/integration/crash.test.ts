import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, it } from "vitest";
import { crashRounds } from "../../scripts/lib/crash";
import { imageStoreEnv, startLocalS3 } from "../../scripts/lib/local-s3";

// The short form of `npm run crash-test` (which runs 25 rounds).
it("loses no acknowledged article and leaves no orphan files across SIGKILLs", async () => {
  const report = await crashRounds(3);
  expect(report.acknowledged).toBeGreaterThan(0);
}, 120_000);

it("with the images in object storage, loses none of them and leaves no orphan objects across SIGKILLs", async () => {
  const folder = mkdtempSync(path.join(tmpdir(), "dejiny-crash-s3-"));
  const s3 = await startLocalS3(folder, ["dejiny"]);
  try {
    const report = await crashRounds(3, () => {}, {
      env: imageStoreEnv(s3, "dejiny", "images"),
      list: async () => (await s3.keys("dejiny", "images/")).map((key) => key.slice("images/".length)),
    });
    expect(report.acknowledged).toBeGreaterThan(0);
  } finally {
    await s3.close();
    rmSync(folder, { recursive: true, force: true });
  }
}, 120_000);
