import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { measureImageMemory, RSS_BUDGET_MB, type ImageMemoryReport } from "../../../scripts/lib/image-memory";
import { startServer, type RunningServer } from "../../../scripts/lib/server";

// Its own server: the peak RSS of the shared one would count other files' requests too.
let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ TRUST_PROXY: "true" });
});
afterAll(() => server?.stop());

describe("every accepted image has a bounded cost (npm run image-memory)", () => {
  it(`keeps the server under ${RSS_BUDGET_MB} MB with the worst allowed image of every shape, alone and twelve at once, and refuses the audit's PNG`, async () => {
    const report: ImageMemoryReport = await measureImageMemory(server.url, server.child.pid!);
    console.log(report.single.map((row) => `${row.shape}: ${row.status}, ${row.ms} ms, peak ${row.peakMb} MB`).join("\n"));
    console.log(`idle ${report.idleMb} MB; twelve at once: peak ${report.together.peakMb} MB, slowest ${report.together.slowestMs} ms`);
    expect(report.single[0]).toMatchObject({ status: 400, error: expect.stringContaining("pamäte") });
    expect(report.problems).toEqual([]);
  });
});
