// npm run image-memory [-- --together 12]
//
// Starts the built server (npm run build first) and uploads the worst
// allowed image of every shape to /create-post/image, one at a time and then
// several at once, sampling the server's resident memory. Prints a row per
// shape; exits 1 if the peak passes the budget, an image is refused, or one
// holds the decoder too long. Figures are noisy on a busy machine.
import { parseArgs } from "node:util";
import { HOLD_BUDGET_MS, measureImageMemory, RSS_BUDGET_MB } from "./lib/image-memory";
import { startServer } from "./lib/server";

const { values: args } = parseArgs({ options: { together: { type: "string", default: "12" } } });
const server = await startServer({ TRUST_PROXY: "true" });
try {
  console.log(`image-memory: budget ${RSS_BUDGET_MB} MB peak RSS, ${HOLD_BUDGET_MS} ms per image`);
  const report = await measureImageMemory(server.url, server.child.pid!, { together: Number(args.together), log: (line) => console.log(`  ${line}`) });
  console.log(JSON.stringify(report));
  if (report.problems.length > 0) {
    console.log(`\nOVER BUDGET:\n${report.problems.map((p) => `  - ${p}`).join("\n")}`);
    process.exitCode = 1;
  } else console.log("\nWithin budget.");
} finally {
  await server.stop();
}
