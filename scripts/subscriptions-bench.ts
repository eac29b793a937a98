// What a new article costs when 10,000 confirmed subscribers follow it: the
// time to queue every mail, the time to hand them all over to Resend (a
// local stand-in of its HTTP API, batch endpoint included), the server's peak
// memory, and the cached page's latency before and while it happens, beside
// the same article published with no subscribers (what publishing itself
// costs the list: its page is made anew). Runs the built server (run
// `npm run build` first) as `npm start` does, in a temporary folder:
//
//   npm run bench:subscriptions
//   npm run bench:subscriptions -- --subscribers 1000
// @ts-expect-error: autocannon has no types (scripts/bench is JavaScript)
import autocannon from "autocannon";
import Database from "better-sqlite3";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { startResendStandIn } from "./lib/resend-stand-in";
import { registerUser } from "./lib/client";
import { publish } from "./lib/publish";
import { startServer } from "./lib/server";

const { values: args } = parseArgs({ options: { subscribers: { type: "string", default: "10000" }, duration: { type: "string", default: "5" } } });
const SUBSCRIBERS = Number(args.subscribers);
const DURATION = Number(args.duration);
const PUBLIC_URL = "https://dejiny.example";

const standIn = await startResendStandIn();
const dataDir = mkdtempSync(path.join(tmpdir(), "dejiny-subscriptions-bench-"));
const env = { RESEND_API_KEY: "re_bench", RESEND_BASE_URL: standIn.url, MAIL_FROM: "Dejiny <noviny@dejiny.example>", PUBLIC_URL, TRUST_PROXY: "true" };
const READER_RATE = 200;

/**
 * The anonymous list, the cached-page path, over `seconds`: at a reader's
 * pace (`rate` requests a second, 10 connections), its latency; flat out
 * (no rate), the requests a second the machine's cores give it.
 */
async function listLoad(url: string, seconds: number, rate?: number) {
  const result = await autocannon({ url: `${url}/posts`, connections: 10, duration: seconds, headers: { "accept-encoding": "gzip" }, ...(rate && { overallRate: rate }) });
  return { p50: result.latency.p50, p99: result.latency.p99, max: result.latency.max, rps: Math.round(result.requests.average) };
}
const listPaced = (url: string) => listLoad(url, DURATION, READER_RATE);

/** The subscribers, straight into the database: half follow every article, half the article's tag. */
function seedSubscribers(databasePath: string) {
  const db = new Database(databasePath);
  const now = Date.now();
  const insertSubscriber = db.prepare(
    "INSERT INTO subscribers (id, email, status, frequency, created_at, confirmed_at, consent_source, consent_at) VALUES (?, ?, 'confirmed', 'instant', ?, ?, 'odber', ?)",
  );
  const insertTag = db.prepare("INSERT INTO subscription_tags (subscriber_id, tag) VALUES (?, 'Stredovek')");
  db.transaction(() => {
    for (let i = 0; i < SUBSCRIBERS; i++) {
      const id = randomBytes(16).toString("base64url");
      insertSubscriber.run(id, `odberatel${i}@example.com`, now, now, now);
      if (i % 2) insertTag.run(id);
    }
  })();
  db.close();
}

/** Start the server, publish one article, and measure: the list before and after, memory, and (with subscribers) the mails' queueing and hand-over. */
async function publishAndMeasure(subscribers: number) {
  const server = await startServer(env, dataDir);
  const pid = server.child.pid!;
  const rss = () => Number(readFileSync(`/proc/${pid}/status`, "utf8").match(/^VmRSS:\s+(\d+) kB/m)?.[1] ?? 0) / 1024;
  const { client: author } = await registerUser(server.url);
  await listLoad(server.url, 2); // warm-up
  const before = { paced: await listPaced(server.url), flat: await listLoad(server.url, DURATION) };
  const rssBefore = rss();
  let peakRss = rssBefore;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, rss())), 100);
  const read = new Database(server.databasePath, { readonly: true });
  const mailing = () => read.prepare("SELECT queued_at, recipients FROM subscription_mailings WHERE kind = 'article' ORDER BY created_at DESC LIMIT 1").get() as { queued_at: number | null; recipients: number };
  const handedOverBefore = await standIn.count();
  const requestsBefore = await standIn.requests();

  const started = Date.now();
  const postId = await publish(author, `Meraný článok ${started}`, ["Stredovek"]);
  const published = Date.now();
  if (!postId) throw new Error("the article was not published");
  // The list while the mails are queued and the batches go (from the publishing's answer: its own work, the image's above all, is not the mailing's).
  const during = (async () => ({ paced: await listPaced(server.url), flat: await listLoad(server.url, DURATION) }))();
  let queuedMs = 0;
  let handedOverMs = 0;
  while (subscribers > 0) {
    const queued = mailing()?.queued_at;
    if (!queuedMs && queued) queuedMs = queued - published;
    if ((await standIn.count()) - handedOverBefore >= subscribers) {
      handedOverMs = Date.now() - published;
      break;
    }
    if (Date.now() - started > 30 * 60_000) throw new Error("not all mails were handed over in 30 minutes");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const after = await during;
  clearInterval(sampler);
  const result = { publishMs: published - started, queuedMs, handedOverMs, requests: (await standIn.requests()) - requestsBefore, recipients: mailing().recipients, rssBefore, peakRss, before, after };
  read.close();
  await server.stop();
  return result;
}

// A first start makes the database (and publishes the demo articles).
const alone = await publishAndMeasure(0);
seedSubscribers(path.join(dataDir, "data", "dejiny.db"));
const followed = await publishAndMeasure(SUBSCRIBERS);
await standIn.close();
rmSync(dataDir, { recursive: true, force: true });

const list = (m: { p50: number; p99: number; max: number }) => `${m.p50} / ${m.p99} / ${m.max} ms`;
console.log(`
${SUBSCRIBERS.toLocaleString("en")} confirmed subscribers, one new article they all follow (the built server, Node's heap as in production)

| what | no subscribers | ${SUBSCRIBERS.toLocaleString("en")} subscribers |
| --- | --- | --- |
| publishing the article (the author's POST with its image; the mailing's row in its transaction) | ${alone.publishMs} ms | ${followed.publishMs} ms |
| every mail queued (from the POST's answer) | – | ${followed.queuedMs} ms, ${followed.recipients} mails |
| every mail handed over to the stand-in (from the POST's answer) | – | ${(followed.handedOverMs / 1000).toFixed(1)} s in ${followed.requests} requests |
| server memory (RSS) before / peak in the ${DURATION * 2} s after | ${alone.rssBefore.toFixed(0)} / ${alone.peakRss.toFixed(0)} MB | ${followed.rssBefore.toFixed(0)} / ${followed.peakRss.toFixed(0)} MB |
| GET /posts at ${READER_RATE} req/s before publishing: p50 / p99 / max | ${list(alone.before.paced)} | ${list(followed.before.paced)} |
| GET /posts at ${READER_RATE} req/s in the ${DURATION} s after: p50 / p99 / max | ${list(alone.after.paced)} | ${list(followed.after.paced)} |
| GET /posts flat out, before / after (the stand-in and the load share the machine's cores with the server) | ${alone.before.flat.rps} / ${alone.after.flat.rps} req/s | ${followed.before.flat.rps} / ${followed.after.flat.rps} req/s |
`);
