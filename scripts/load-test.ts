// npm run load-test [-- seconds connections]: mixed traffic against the built
// server — reads of every page kind, sign-ins (some with a wrong password) and
// article creation with images — at 200 concurrent connections for 60 s.
// Passes when there are no errors other than intended 429s, every
// acknowledged article is in the database, and the server's memory levels off.
import Database from "better-sqlite3";
import { readFileSync } from "node:fs";
import { Client, GOOD_PASSWORD, registerUser } from "../tests/support/client";
import { publish } from "../tests/support/publish";
import { startServer } from "../tests/support/server";

const seconds = Number(process.argv[2] ?? 60);
const connections = Number(process.argv[3] ?? 200);
const USERS = 20;

function rss(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(status.match(/VmRSS:\s+(\d+)/)![1]) / 1024;
}

const server = await startServer({ DEMO_CONTENT: "on", TRUST_PROXY: "true" });
const accounts = await Promise.all(Array.from({ length: USERS }, () => registerUser(server.url)));
const postIds = [...(await (await fetch(`${server.url}/posts?limit=18`)).text()).matchAll(/href="\/posts\/([\w-]+)[?"]/g)].map((m) => m[1]);
const image = (await (await fetch(`${server.url}/posts`)).text()).match(/src="(\/images\/[^"]+)"/)![1];

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
  [10, get("/")],
  [8, get(image)],
  [6, async (_, worker) => {
    const { email } = accounts[worker % USERS];
    const wrong = Math.random() < 0.3;
    const { response } = await new Client(server.url).post("/signinsignup", { intent: "signin", email, password: wrong ? "zle-heslo-123" : GOOD_PASSWORD });
    count(`signin ${response.status}`);
    const expected = wrong ? [400, 429] : [303, 429];
    if (!expected.includes(response.status)) failures.push(`signin (${wrong ? "wrong" : "right"} password) → ${response.status}`);
  }],
  [6, async (_, worker) => {
    const id = await publish(accounts[worker % USERS].client, `Záťažový článok ${worker}-${Date.now()}`);
    count(id ? "create 303" : "create failed");
    if (id) acknowledged.push(id);
    else failures.push("create-post was not acknowledged");
  }],
];
const total = actions.reduce((sum, [weight]) => sum + weight, 0);
function pick(): Action {
  let roll = Math.random() * total;
  for (const [weight, action] of actions) if ((roll -= weight) < 0) return action;
  return actions[0][1];
}

const memory: number[] = [];
const sampler = setInterval(() => memory.push(rss(server.child.pid!)), 1000);
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
clearInterval(sampler);
const elapsed = (Date.now() - started) / 1000;

const db = new Database(server.databasePath, { readonly: true });
const has = db.prepare("SELECT 1 FROM posts WHERE id = ?");
const lost = acknowledged.filter((id) => !has.get(id));
db.close();
await server.stop();

const requests = [...statuses.values()].reduce((a, b) => a + b, 0);
const third = Math.floor(memory.length / 3);
const avg = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(xs.length, 1);
const middle = avg(memory.slice(third, 2 * third));
const last = avg(memory.slice(2 * third));
console.log(`load-test: ${requests} requests in ${elapsed.toFixed(0)} s at ${connections} connections (${(requests / elapsed).toFixed(0)}/s)`);
console.log(`statuses: ${JSON.stringify(Object.fromEntries([...statuses].sort()))}`);
console.log(`writes: ${acknowledged.length} acknowledged, ${lost.length} lost`);
console.log(`memory (RSS MB): peak ${Math.max(...memory).toFixed(0)}, middle third ${middle.toFixed(0)}, last third ${last.toFixed(0)}`);
const unique = [...new Set(failures)];
if (unique.length) console.log(`errors (${failures.length}):\n  ${unique.slice(0, 20).join("\n  ")}`);
const growing = last > middle * 1.25;
if (failures.length || lost.length || growing) {
  console.log(`FAIL${growing ? ": memory kept growing" : ""}`);
  process.exit(1);
}
console.log("PASS");
