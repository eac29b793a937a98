// npm run crash-test [-- rounds]: kills the built server with SIGKILL at
// random moments while articles with images are being published, and checks
// after every kill that nothing acknowledged was lost (see scripts/lib/crash.ts).
import { crashRounds } from "./lib/crash";

const rounds = Number(process.argv[2] ?? 25);
const started = Date.now();
const report = await crashRounds(rounds, console.log);
console.log(
  `crash-test: ${report.rounds} rounds survived, ${report.acknowledged} acknowledged articles of ${report.attempted} attempts all present, ` +
    `${report.orphansRemoved} orphan image files cleaned at start-up, ${Math.round((Date.now() - started) / 1000)} s`,
);
