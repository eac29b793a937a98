// npm run load-test [-- seconds connections rounds] [--replicated]: mixed traffic against the
// built server — reads of every page kind (an article's history too), sign-ins (some with a wrong
// password), article creation with images, and the attacks the server must
// shrug off (decompression bombs, deeply nested markup, random 404s, reset
// requests) — at 200 concurrent connections, in rounds of 60 s with a pause.
// Passes when there are no errors other than the intended refusals, every
// acknowledged article is in the database, the server's processes stay
// at most 200 MB of RSS at their peak and 150 MB after each idle pause (the
// rest of a 256 MB container is for what this test does not do: the
// costliest allowed image, full caches), and memory does not grow from round to round.
// --replicated: through the image's start command with Litestream replicating
// to a folder beside it (both processes counted; docs/operations.md gives
// such a container 320 MB).
import Database from "better-sqlite3";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client, GOOD_PASSWORD, registerUser } from "./lib/client";
import { makeImage, makePngBomb } from "./lib/images";
import { postForm } from "./lib/publish";
import { startServer } from "./lib/server";

const [seconds = 60, connections = 200, rounds = 2] = process.argv.slice(2).filter((arg) => !arg.startsWith("--")).map(Number);
const replicated = process.argv.includes("--replicated");
/** Authors: two connections each at 200, so neither the per-account quota nor the two-uploads-at-once rule is what limits them. */
const USERS = 100;
/** Accounts sending the bombs and the nested markup (many connections each: they meet the per-account limits too). */
const ATTACKERS = 10;
const MEMORY_LIMIT_MB = replicated ? 320 : 200;
/** After each round's idle pause (not checked with --replicated: Litestream's process keeps its own). */
const IDLE_LIMIT_MB = 150;

/** RSS of a process and all its descendants (worker threads are inside it), in MB, and how much of it is mapped from files (the node binary, libraries): pages the kernel can drop and read again. */
function treeRss(pid: number): { total: number; fromFiles: number } {
  let total = 0;
  let fromFiles = 0;
  const pending = [pid];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    try {
      const status = readFileSync(`/proc/${next}/status`, "utf8");
      total += Number(status.match(/VmRSS:\s+(\d+)/)![1]);
      fromFiles += Number(status.match(/RssFile:\s+(\d+)/)![1]);
      for (const task of readdirSync(`/proc/${next}/task`)) {
        pending.push(...readFileSync(`/proc/${next}/task/${task}/children`, "utf8").split(" ").filter(Boolean).map(Number));
      }
    } catch {
      // The process ended while we looked.
    }
  }
  return { total: total / 1024, fromFiles: fromFiles / 1024 };
}

const replica = replicated ? mkdtempSync(path.join(tmpdir(), "dejiny-load-replica-")) : undefined;
const server = await startServer(
  { DEMO_CONTENT: "on", TRUST_PROXY: "true", ...(replica && { LITESTREAM_REPLICA_URL: `file://${replica}` }) },
  undefined,
  { startCommand: replicated },
);
type Account = Awaited<ReturnType<typeof registerUser>>;
/** A few at a time: password hashing runs one at a time, with a bounded queue. */
async function register(count: number): Promise<Account[]> {
  const made: Account[] = [];
  for (let i = 0; i < count; i += 10) made.push(...(await Promise.all(Array.from({ length: Math.min(10, count - i) }, () => registerUser(server.url)))));
  return made;
}
const accounts = await register(USERS);
const attackers = await register(ATTACKERS);
const bomb = await makePngBomb();
const nested = "<b>".repeat(10_000);
const postIds = [...(await (await fetch(`${server.url}/posts?limit=18`)).text()).matchAll(/href="\/posts\/([\w-]+)[?"]/g)].map((m) => m[1]);
const imageUrl = (await (await fetch(`${server.url}/posts`)).text()).match(/src="(\/images\/[^"]+)"/)![1];
const photo = await makeImage("jpeg", 480, 300);

const statuses = new Map<string, number>();
const failures: string[] = [];
const acknowledged: string[] = [];
const count = (key: string) => statuses.set(key, (statuses.get(key) ?? 0) + 1);

type Action = (client: Client, worker: number) => Promise<void>;
const get = (path: string): Action => async (client) => {
  const response = await client.request(path);
  await response.arrayBuffer();
  count(`GET ${response.status}`);
  if (response.status >= 500 || response.status === 404) failures.push(`GET ${path} → ${response.status}`);
};
const actions: [number, Action][] = [
  [30, get("/posts")],
  [15, get("/posts?tag=Dejiny%20Slovenska")],
  [10, get("/posts?limit=27")],
  [15, async (client) => get(`/posts/${postIds[Math.floor(Math.random() * postIds.length)]}`)(client, 0)],
  [4, async (client) => get(`/posts/${postIds[Math.floor(Math.random() * postIds.length)]}/history`)(client, 0)],
  [10, get("/")],
  [8, get(imageUrl)],
  [6, async (_, worker) => {
    const { email } = accounts[worker % USERS];
    const wrong = Math.random() < 0.3;
    const { response } = await new Client(server.url).post("/signinsignup", { intent: "signin", email, password: wrong ? "zle-heslo-123" : GOOD_PASSWORD });
    count(`signin ${response.status}`);
    // 503: the queue of password checks is full — the intended answer to a burst.
    const expected = wrong ? [400, 429, 503] : [303, 429, 503];
    if (!expected.includes(response.status)) failures.push(`signin (${wrong ? "wrong" : "right"} password) → ${response.status}`);
  }],
  [6, async (_, worker) => {
    const { client } = accounts[worker % USERS];
    const form = postForm(`Záťažový článok ${worker}-${Date.now()}`, "Text článku pod záťažou.", photo);
    const response = await client.request("/create-post", { method: "POST", body: form, headers: { Origin: client.base } });
    await response.arrayBuffer();
    const id = response.status === 303 ? response.headers.get("location")?.match(/^\/posts\/([\w-]+)$/)?.[1] : undefined;
    count(`create ${response.status}`);
    if (id) acknowledged.push(id);
    // Refused for the author's quota (429) or a full image queue (503): intended, and counted.
    else if (![429, 503].includes(response.status)) failures.push(`create-post → ${response.status}`);
  }],
  [2, refusedUpload("bomb", () => postForm("Bomba", "Text.", bomb, { type: "image/png" }), [400, 429, 503])],
  [2, refusedUpload("nested markup", () => postForm("Vnorené", nested, photo), [400, 429, 503])],
  [5, async (client) => {
    const response = await client.request(`/posts/${Math.random().toString(36).slice(2, 14)}`);
    await response.arrayBuffer();
    count(`GET missing ${response.status}`);
    if (response.status !== 404) failures.push(`missing article → ${response.status}`);
  }],
  [1, async () => {
    const { response } = await new Client(server.url).post("/signinsignup", { intent: "forgot", email: accounts[Math.floor(Math.random() * USERS)].email });
    count(`forgot ${response.status}`);
    if (![303, 429].includes(response.status)) failures.push(`forgot → ${response.status}`);
  }],
];

/** An upload the server must refuse (and stay well), from the attackers' accounts. */
function refusedUpload(what: string, form: () => FormData, expected: number[]): Action {
  return async (_, worker) => {
    const { client } = attackers[worker % ATTACKERS];
    const response = await client.request("/create-post", { method: "POST", body: form(), headers: { Origin: client.base } });
    await response.arrayBuffer();
    count(`${what} ${response.status}`);
    if (!expected.includes(response.status)) failures.push(`${what} → ${response.status}`);
  };
}
const total = actions.reduce((sum, [weight]) => sum + weight, 0);
function pick(): Action {
  let roll = Math.random() * total;
  for (const [weight, action] of actions) if ((roll -= weight) < 0) return action;
  return actions[0][1];
}

type Round = { requests: number; seconds: number; peak: number; peakFromFiles: number; level: number; idle: number };

async function round(): Promise<Round> {
  const before = [...statuses.values()].reduce((a, b) => a + b, 0);
  const memory: { total: number; fromFiles: number }[] = [];
  const sampler = setInterval(() => memory.push(treeRss(server.child.pid!)), 250);
  const deadline = Date.now() + seconds * 1000;
  const started = Date.now();
  await Promise.all(
    Array.from({ length: connections }, async (_, worker) => {
      const client = new Client(server.url);
      while (Date.now() < deadline) {
        try {
          await pick()(client, worker);
        } catch (error) {
          failures.push(`network: ${(error as Error).message}`);
        }
      }
    }),
  );
  const elapsed = (Date.now() - started) / 1000;
  // Then idle for a while: what the server keeps afterwards.
  await new Promise((resolve) => setTimeout(resolve, 10_000));
  clearInterval(sampler);
  const idle = treeRss(server.child.pid!).total;
  const busy = memory.slice(Math.floor(memory.length / 3), Math.floor((memory.length * 2) / 3));
  const peak = memory.reduce((a, b) => (b.total > a.total ? b : a));
  return {
    requests: [...statuses.values()].reduce((a, b) => a + b, 0) - before,
    seconds: elapsed,
    peak: peak.total,
    peakFromFiles: peak.fromFiles,
    level: busy.reduce((sum, sample) => sum + sample.total, 0) / Math.max(busy.length, 1),
    idle,
  };
}

const results: Round[] = [];
for (let i = 0; i < rounds; i++) {
  results.push(await round());
  const r = results.at(-1)!;
  console.log(
    `round ${i + 1}: ${r.requests} requests in ${r.seconds.toFixed(0)} s (${(r.requests / r.seconds).toFixed(0)}/s); ` +
      `RSS of the server's processes: peak ${r.peak.toFixed(0)} MB (${r.peakFromFiles.toFixed(0)} MB of it mapped from files), middle third ${r.level.toFixed(0)} MB, after 10 s idle ${r.idle.toFixed(0)} MB`,
  );
}

const db = new Database(server.databasePath, { readonly: true });
const has = db.prepare("SELECT 1 FROM posts WHERE id = ?");
const lost = acknowledged.filter((id) => !has.get(id));
db.close();
await server.stop();
if (replica) rmSync(replica, { recursive: true, force: true });

console.log(`load-test: ${rounds} × ${seconds} s at ${connections} connections`);
console.log(`statuses: ${JSON.stringify(Object.fromEntries([...statuses].sort()))}`);
console.log(`writes: ${acknowledged.length} acknowledged, ${lost.length} lost`);
const peak = Math.max(...results.map((r) => r.peak));
const idlePeak = Math.max(...results.map((r) => r.idle));
console.log(`memory: peak ${peak.toFixed(0)} MB (at most ${MEMORY_LIMIT_MB} MB), after the idle pauses at most ${idlePeak.toFixed(0)} MB${replicated ? "" : ` (at most ${IDLE_LIMIT_MB} MB)`}`);
const unique = [...new Set(failures)];
if (unique.length) console.log(`errors (${failures.length}):\n  ${unique.slice(0, 20).join("\n  ")}`);
const overLimit = peak > MEMORY_LIMIT_MB;
const overIdle = !replicated && idlePeak > IDLE_LIMIT_MB;
// Each round starts where the last ended: a leak shows as a higher level and a higher idle size every time.
const growing = results.length > 1 && results.at(-1)!.level > results[0].level * 1.15 && results.at(-1)!.idle > results[0].idle * 1.15;
if (failures.length || lost.length || overLimit || overIdle || growing) {
  console.log(`FAIL${overLimit ? `: over ${MEMORY_LIMIT_MB} MB` : ""}${overIdle ? `: over ${IDLE_LIMIT_MB} MB when idle` : ""}${growing ? ": memory grew from round to round" : ""}`);
  process.exit(1);
}
console.log("PASS");
