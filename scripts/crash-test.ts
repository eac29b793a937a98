// npm run crash-test [-- rounds] [--bucket]: kills the built server with SIGKILL at
// random moments while articles with images are being published, and checks
// after every kill that nothing acknowledged was lost (see scripts/lib/crash.ts).
// --bucket: with the images in object storage (a local s3rver) instead of the folder.
import { crashRounds, crashRoundsInBucket } from "./lib/crash";

const args = process.argv.slice(2);
const rounds = Number(args.find((arg) => /^\d+$/.test(arg)) ?? 25);
const bucket = args.includes("--bucket");
const started = Date.now();
const report = await (bucket ? crashRoundsInBucket : crashRounds)(rounds, console.log);
console.log(
  `crash-test${bucket ? " (images in a bucket)" : ""}: ${report.rounds} rounds survived, ${report.acknowledged} acknowledged articles of ${report.attempted} attempts all present, ` +
    `${report.orphansRemoved} interrupted uploads cleaned up at start-up, ${Math.round((Date.now() - started) / 1000)} s`,
);
