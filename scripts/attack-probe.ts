// npx vite-node scripts/attack-probe.ts -- [--root <checkout>]
//
// Starts the built production server of a checkout (default: this one) and
// measures, over HTTP only, how it stands up to a handful of attacks: open
// redirects after sign-in, sign-in throttling under concurrency and bcrypt
// bursts, locking an owner out of their account, a PNG decompression bomb, a
// small PNG costly to decode, a sanitiser stall, floods of 404s,
// forgot-password timing, look-alike or invisible names, e-mails and article
// bodies, and request bodies sent too slowly or too big. It relies on nothing but HTTP behaviour, the
// server's memory (/proc) and its SQLite file, so "before" and "after"
// checkouts are measured the same way. Prints one block per attack, then the
// figures as one JSON line. Figures are noisy on a busy machine.
import Database from "better-sqlite3";
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import sharp from "sharp";
import { registerUser } from "./lib/client";
import { makePng, makePngBomb, padTo } from "./lib/images";
import { rawRequest } from "./lib/raw-http";

// --root DIR: whose server to probe (default: this checkout); --only a,b: run only these probes (names as in the summary).
const { values: args } = parseArgs({ options: { root: { type: "string" }, only: { type: "string" } }, strict: false });
const root = path.resolve(typeof args.root === "string" ? args.root : fileURLToPath(new URL("../", import.meta.url)));

// autocannon ships no types: load it through require, typed as used here.
type CannonRequest = { method?: string; path?: string };
type CannonResult = {
  requests: { average: number };
  latency: { p50: number; p99: number };
  statusCodeStats: Record<string, { count: number }>;
  errors: number;
  timeouts: number;
};
const autocannon = createRequire(import.meta.url)("autocannon") as (options: {
  url: string;
  connections: number;
  duration: number;
  headers?: Record<string, string>;
  requests?: { setupRequest: (request: CannonRequest) => CannonRequest }[];
}) => Promise<CannonResult>;

const PASSWORD = "správne-heslo-42";
const WRONG_PASSWORD = "zle-heslo-123";
const MB = 1024 * 1024;

// ---------------------------------------------------------------- the server under test

/** How that checkout's `npm start` runs its server (package.json "config"): the same here. */
const serverConfig: { nodeFlags: string; serverEnv?: string } = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")).config;

type Server = { url: string; pid: number; uploadsDir: string; databasePath: string; exitState: () => string | null; stop: () => Promise<void> };

async function startServer(extraEnv: Record<string, string> = {}): Promise<Server> {
  const dir = mkdtempSync(path.join(tmpdir(), "dejiny-probe-"));
  const databasePath = path.join(dir, "data", "dejiny.db");
  const uploadsDir = path.join(dir, "uploads");
  const child = spawn(process.execPath, [...serverConfig.nodeFlags.split(" "), "build/http/index.js"], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      ...Object.fromEntries((serverConfig.serverEnv ?? "").split(" ").filter(Boolean).map((pair: string) => pair.split("="))),
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: "0",
      DATABASE_PATH: databasePath,
      UPLOADS_DIR: uploadsDir,
      DEMO_CONTENT: "on",
      ...extraEnv,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  // Only the tail of the output is kept (for crash reports): every request is logged.
  let log = "";
  const keep = (chunk: Buffer) => (log = (log + chunk).slice(-20_000));
  child.stdout.on("data", keep);
  child.stderr.on("data", keep);
  // Should this script die half-way, its server must not outlive it.
  const killOnExit = () => child.kill("SIGKILL");
  process.once("exit", killOnExit);
  child.once("exit", () => process.off("exit", killOnExit));
  const exitState = () => (child.exitCode !== null || child.signalCode !== null ? `exited (${child.signalCode ?? `code ${child.exitCode}`})` : null);

  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start in 60 s:\n${log}`)), 60_000);
    const onData = () => {
      const match = log.match(/listening on (http:\/\/\S+)/);
      if (!match) return;
      clearTimeout(timer);
      child.stdout.off("data", onData);
      resolve(match[1]);
    };
    child.stdout.on("data", onData);
    child.once("exit", () => {
      clearTimeout(timer);
      reject(new Error(`server ${exitState()} before listening:\n${log}`));
    });
  });

  return {
    url,
    pid: child.pid!,
    uploadsDir,
    databasePath,
    exitState,
    async stop() {
      if (!exitState()) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGTERM");
        // A server whose event loop is stuck never gets to its SIGTERM handler.
        const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
        await exited;
        clearTimeout(timer);
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Run `probe` against fresh servers started through `start`, stopping them all afterwards. */
async function withServers<T>(probe: (start: (env?: Record<string, string>) => Promise<Server>) => Promise<T>): Promise<T> {
  const servers: Server[] = [];
  try {
    return await probe(async (env) => {
      const server = await startServer(env);
      servers.push(server);
      return server;
    });
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
  }
}

// ---------------------------------------------------------------- memory

type Memory = { baselineMb: number | null; peakMb: number | null; afterMb: number | null };

/** VmRSS of `pid` in MB (worker threads included), or null once it is gone. */
function rssMb(pid: number): number | null {
  try {
    const match = readFileSync(`/proc/${pid}/status`, "utf8").match(/^VmRSS:\s+(\d+) kB/m);
    return match ? Math.round(Number(match[1]) / 1024) : null;
  } catch {
    return null;
  }
}

/** Run `phase` while sampling the server's RSS every 100 ms; "after" is read 2 s after it ends. */
async function withMemory<T>(pid: number, phase: () => Promise<T>): Promise<{ result: T; memory: Memory }> {
  const baselineMb = rssMb(pid);
  let peakMb = baselineMb;
  const sample = () => {
    const now = rssMb(pid);
    if (now !== null) peakMb = Math.max(peakMb ?? 0, now);
  };
  const timer = setInterval(sample, 100);
  try {
    const result = await phase();
    sample();
    clearInterval(timer);
    await sleep(2000);
    return { result, memory: { baselineMb, peakMb, afterMb: rssMb(pid) } };
  } finally {
    clearInterval(timer);
  }
}

const formatMemory = ({ baselineMb, peakMb, afterMb }: Memory) =>
  `RSS ${baselineMb ?? "–"} MB before, peak ${peakMb ?? "–"} MB, ${afterMb ?? "gone"}${afterMb === null ? "" : " MB"} 2 s after`;

// ---------------------------------------------------------------- HTTP as a browser would

type Reply = { status: number | "aborted" | "network error"; ms: number; location: string | null; html: string };

let addresses = 0;
/** A fresh client address, as a proxy would report it (honoured only with TRUST_PROXY). */
const nextAddress = () => `10.${(++addresses >> 16) & 255}.${(addresses >> 8) & 255}.${addresses & 255}`;

/** One browser: a cookie jar, Origin on POSTs, and (optionally) its own X-Forwarded-For address. */
class Visitor {
  private cookies = new Map<string, string>();

  constructor(
    readonly base: string,
    readonly address?: string,
  ) {}

  async send(pathname: string, init: RequestInit = {}): Promise<Reply> {
    const headers = new Headers(init.headers);
    if (this.cookies.size) headers.set("Cookie", [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; "));
    if (this.address) headers.set("X-Forwarded-For", this.address);
    if (init.method === "POST") headers.set("Origin", this.base);
    const started = performance.now();
    try {
      const response = await fetch(this.base + pathname, { ...init, headers, redirect: "manual" });
      for (const line of response.headers.getSetCookie()) {
        const pair = line.split(";")[0];
        this.cookies.set(pair.slice(0, pair.indexOf("=")).trim(), pair.slice(pair.indexOf("=") + 1));
      }
      const html = await response.text();
      return { status: response.status, ms: performance.now() - started, location: response.headers.get("location"), html };
    } catch (error) {
      const aborted = (error as Error).name === "AbortError" || init.signal?.aborted;
      return { status: aborted ? "aborted" : "network error", ms: performance.now() - started, location: null, html: "" };
    }
  }

  postForm(pathname: string, fields: Record<string, string>): Promise<Reply> {
    return this.send(pathname, { method: "POST", body: new URLSearchParams(fields) });
  }

  signIn(email: string, password: string, redirectTo?: string): Promise<Reply> {
    return this.postForm("/signinsignup", { intent: "signin", email, password, ...(redirectTo === undefined ? {} : { redirectTo }) });
  }

  publish(title: string, content: string, image: Buffer, type: "image/jpeg" | "image/png", signal?: AbortSignal): Promise<Reply> {
    const form = new FormData();
    form.append("title", title);
    form.append("content", content);
    form.append("tags", "Ostatné");
    form.append("image", new Blob([new Uint8Array(image)], { type }), type === "image/png" ? "obrazok.png" : "obrazok.jpg");
    return this.send("/create-post", { method: "POST", body: form, signal });
  }
}

let accounts = 0;
/** Register a new account (a name of its own: no two accounts may look alike); the returned visitor is signed in as it. */
async function register(base: string, address?: string, displayName = `Skúšobný Používateľ ${accounts + 1}`): Promise<{ visitor: Visitor; email: string }> {
  const visitor = new Visitor(base, address);
  const email = `probe-${process.pid}-${++accounts}@example.com`;
  const reply = await visitor.postForm("/signinsignup", { intent: "register", displayName, email, password: PASSWORD, confirmPassword: PASSWORD });
  if (reply.status !== 303) throw new Error(`registration answered ${reply.status}`);
  return { visitor, email };
}

/** The text of the form's error message (`class="form-error"`), if the page shows one. */
function formError(html: string): string | null {
  const match = html.match(/class="form-error"[^>]*>([\s\S]*?)<\/(?:p|div)>/);
  if (!match) return null;
  return match[1]
    .replace(/<[^>]*>/g, "")
    .replace(/&#x([0-9a-f]+);/gi, (_, hex) => String.fromCodePoint(parseInt(hex, 16)))
    .replace(/&#(\d+);/g, (_, dec) => String.fromCodePoint(Number(dec)))
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&")
    .trim();
}

// ---------------------------------------------------------------- small helpers

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const round = (n: number) => Math.round(n);

function tally(values: (string | number)[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const value of values) counts[value] = (counts[value] ?? 0) + 1;
  return counts;
}

type Stats = { n: number; mean: number; p50: number; p90: number; p99: number };
function stats(values: number[]): Stats | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
  const mean = sorted.reduce((a, b) => a + b, 0) / sorted.length;
  return { n: sorted.length, mean: +mean.toFixed(1), p50: +at(50).toFixed(1), p90: +at(90).toFixed(1), p99: +at(99).toFixed(1) };
}
const formatStats = (s: Stats | null) => (s ? `n=${s.n} mean ${s.mean} ms, p50 ${s.p50} ms, p90 ${s.p90} ms, p99 ${s.p99} ms` : "no answers");

/** Files of stored images in the uploads folder, and how many the database accounts for (6 variants per image). */
function imageAccounting(server: Server) {
  let files: string[] = [];
  try {
    files = readdirSync(server.uploadsDir);
  } catch {
    // No upload has created the folder.
  }
  const variants = files.filter((name) => /-(400|800|1200)\.(webp|jpe?g)$/.test(name)).length;
  const db = new Database(server.databasePath, { readonly: true, fileMustExist: true });
  const rows = (table: string) =>
    db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(table)
      ? (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n
      : 0;
  const posts = rows("posts");
  const pendingImages = rows("pending_images");
  db.close();
  return { files: files.length, imageVariants: variants, posts, pendingImages, expectedVariants: 6 * (posts + pendingImages), orphanVariants: variants - 6 * (posts + pendingImages) };
}
const formatAccounting = (a: ReturnType<typeof imageAccounting>) =>
  `${a.imageVariants} image variant files (${a.files} files in all) vs 6 × (${a.posts} posts + ${a.pendingImages} pending images) = ${a.expectedVariants} → ${a.orphanVariants} unaccounted for`;

function heading(title: string) {
  console.log(`\n=== ${title} ===`);
}

// ---------------------------------------------------------------- 1. open redirect

const REDIRECT_TARGETS = [
  "/.//evil.example/x",
  "/%2e//evil.example/x",
  "/\\evil.example/x",
  "/\t/evil.example/x",
  "/\n/evil.example",
  "/%2f%2fevil.example/x",
  "//evil.example/x",
  "https://evil.example/x",
  "/%5Cevil.example",
  "/posts?tag=x",
];

/** Whether a browser (or a decoding proxy in front of one) could leave the site by following `location`. */
function isForeign(location: string, base: string): boolean {
  let decoded = location;
  try {
    decoded = decodeURIComponent(location);
  } catch {
    // Not valid %-escapes: judged as sent.
  }
  // Browsers drop tabs and newlines from URLs before resolving them.
  return [location, decoded]
    .map((candidate) => candidate.replace(/[\t\n\r]/g, ""))
    .some((candidate) => {
      if (candidate.startsWith("//") || candidate.startsWith("/\\")) return true;
      try {
        return new URL(candidate, base).origin !== new URL(base).origin;
      } catch {
        return true;
      }
    });
}

async function openRedirect() {
  heading("1. Open redirect after sign-in (redirectTo)");
  return withServers(async (start) => {
    const server = await start();
    const { email } = await register(server.url);
    const { result: results, memory } = await withMemory(server.pid, async () => {
      const results = [];
      // One visitor per attempt: the registration's cookie is dropped, as after signing out.
      for (const redirectTo of REDIRECT_TARGETS) {
        const reply = await new Visitor(server.url).signIn(email, PASSWORD, redirectTo);
        results.push({ redirectTo, status: reply.status, location: reply.location, foreign: reply.location !== null && isForeign(reply.location, server.url) });
      }
      return results;
    });
    for (const r of results) {
      console.log(`  ${JSON.stringify(r.redirectTo).padEnd(26)} → ${String(r.status).padEnd(4)} Location ${JSON.stringify(r.location).padEnd(26)} ${r.foreign ? "FOREIGN" : "ok"}`);
    }
    const foreign = results.filter((r) => r.foreign).length;
    console.log(`  ${foreign} of ${results.length} sign-ins redirected off-site; ${formatMemory(memory)}`);
    return { foreign, results, memory };
  });
}

// ---------------------------------------------------------------- 2. throttling

async function concurrentThrottle() {
  heading("2a. Sign-in throttle under concurrency (60 wrong passwords at once, one account, one address)");
  return withServers(async (start) => {
    const server = await start();
    const { email } = await register(server.url);
    const { result: replies, memory } = await withMemory(server.pid, () =>
      Promise.all(Array.from({ length: 60 }, () => new Visitor(server.url).signIn(email, WRONG_PASSWORD))),
    );
    // All start together, so the slowest answer is the wall time.
    const wallMs = round(Math.max(...replies.map((r) => r.ms)));
    const statuses = tally(replies.map((r) => r.status));
    console.log(`  statuses: ${JSON.stringify(statuses)} (400 = password checked, 429 = refused by the throttle)`);
    console.log(`  passwords checked: ${statuses[400] ?? 0} of 60; wall time ${wallMs} ms; ${formatMemory(memory)}`);
    return { statuses, passwordsChecked: statuses[400] ?? 0, wallMs, memory };
  });
}

/** 10 concurrent readers alternating over `paths` until `done` settles; latencies per path. */
async function readWhile(base: string, paths: string[], done: Promise<unknown>) {
  let running = true;
  void done.finally(() => (running = false));
  const latencies = new Map(paths.map((p) => [p, [] as number[]]));
  const statuses: (number | string)[] = [];
  await Promise.all(
    Array.from({ length: 10 }, async (_, worker) => {
      const visitor = new Visitor(base);
      for (let i = worker; running; i++) {
        const pathname = paths[i % paths.length];
        const reply = await visitor.send(pathname);
        latencies.get(pathname)!.push(reply.ms);
        statuses.push(reply.status);
      }
    }),
  );
  return { latency: Object.fromEntries([...latencies].map(([p, values]) => [p, stats(values)])), statuses: tally(statuses) };
}

async function bcryptBurst() {
  heading("2b. Reads during a burst of 300 wrong-password sign-ins (300 e-mails, 300 addresses)");
  return withServers(async (start) => {
    const server = await start({ TRUST_PROXY: "true" });
    await register(server.url, nextAddress());
    const image = (await new Visitor(server.url).send("/posts")).html.match(/src="(\/images\/[^"]+)"/)?.[1];
    if (!image) throw new Error("no image found in /posts");
    const paths = ["/posts", image];

    const quiet = await readWhile(server.url, paths, sleep(5000));
    const { result: [replies, busy], memory } = await withMemory(server.pid, () => {
      const burst = Promise.all(
        Array.from({ length: 300 }, (_, i) => new Visitor(server.url, nextAddress()).signIn(`nobody-${i}-${process.pid}@example.com`, WRONG_PASSWORD)),
      );
      return Promise.all([burst, readWhile(server.url, paths, burst)]);
    });
    const burstMs = round(Math.max(...replies.map((r) => r.ms)));
    const burstStatuses = tally(replies.map((r) => r.status));

    console.log(`  burst: ${JSON.stringify(burstStatuses)} in ${burstMs} ms; ${formatMemory(memory)}`);
    for (const p of paths) {
      console.log(`  GET ${p}`);
      console.log(`    quiet (5 s):  ${formatStats(quiet.latency[p])}`);
      console.log(`    during burst: ${formatStats(busy.latency[p])}`);
    }
    console.log(`  read statuses: quiet ${JSON.stringify(quiet.statuses)}, during burst ${JSON.stringify(busy.statuses)}`);
    return { burstMs, burstStatuses, quiet, duringBurst: busy, memory };
  });
}

/** The reset links mailed to `email` so far (the server's outbox beside its database: no RESEND_API_KEY), oldest first. */
function resetLinksTo(server: Server, email: string): string[] {
  const outbox = path.join(path.dirname(server.databasePath), "outbox");
  let files: string[] = [];
  try {
    files = readdirSync(outbox).sort();
  } catch {
    // Nothing mailed yet.
  }
  return files
    .map((name) => readFileSync(path.join(outbox, name), "utf8"))
    .filter((message) => message.includes(`To: ${email}\n`))
    .map((message) => message.match(/(\/reset-password\?token=[\w-]+)/)?.[1] ?? "");
}

async function accountLockout() {
  heading("2c. Account lock-out (10 wrong passwords from each of 10 addresses, 6 reset requests, IPv6 rotation in one /64)");
  return withServers(async (start) => {
    const server = await start({ TRUST_PROXY: "true" });
    const { email } = await register(server.url, nextAddress());
    // The owner's browser signs in once, then signs out: it has signed in to the account before.
    const owner = new Visitor(server.url, nextAddress());
    await owner.signIn(email, PASSWORD);
    await owner.postForm("/signout", {});

    const attack = await Promise.all(
      Array.from({ length: 10 }, async () => {
        const attacker = new Visitor(server.url, nextAddress());
        const statuses: Reply["status"][] = [];
        for (let i = 0; i < 10; i++) statuses.push((await attacker.signIn(email, `${WRONG_PASSWORD}-${i}`)).status);
        return statuses;
      }),
    );
    const ownersBrowser = (await owner.signIn(email, PASSWORD)).status;
    const freshBrowser = (await new Visitor(server.url, nextAddress()).signIn(email, PASSWORD)).status;
    console.log(`  attack: ${JSON.stringify(tally(attack.flat()))}`);
    console.log(`  then, right password: owner's browser (signed in before) → ${ownersBrowser}; a fresh browser from a new address → ${freshBrowser}`);

    // A stranger asks for the owner's reset 6 times; then the owner asks, and tries the newest link mailed.
    const strangers = await Promise.all(Array.from({ length: 6 }, () => new Visitor(server.url, nextAddress()).postForm("/signinsignup", { intent: "forgot", email })));
    await sleep(1500);
    const ownersReset = await new Visitor(server.url, nextAddress()).postForm("/signinsignup", { intent: "forgot", email });
    await sleep(1500);
    const links = resetLinksTo(server, email);
    const newPassword = "nové-heslo-sondy-7";
    const linkWorks = links.length ? (await new Visitor(server.url, nextAddress()).postForm(links.at(-1)!, { password: newPassword, confirmPassword: newPassword })).status : "no link";
    console.log(`  reset: strangers ${JSON.stringify(tally(strangers.map((r) => r.status)))}, the owner's request → ${ownersReset.status}; ${links.length} mails; newest link → ${linkWorks} (303 = new password set)`);

    // 10 wrong passwords from 10 addresses of one /64, then the right one from an 11th.
    const { email: ipv6Account } = await register(server.url, nextAddress());
    const inSlash64 = (i: number) => new Visitor(server.url, `2001:db8:5:6:${i.toString(16)}::1`);
    const rotation: Reply["status"][] = [];
    for (let i = 1; i <= 11; i++) rotation.push((await inSlash64(i).signIn(ipv6Account, i <= 10 ? WRONG_PASSWORD : PASSWORD)).status);
    for (let i = 0; i < 10; i++) await new Visitor(server.url, "::ffff:203.0.113.77").signIn(ipv6Account, WRONG_PASSWORD);
    const mapped = (await new Visitor(server.url, "203.0.113.77").signIn(ipv6Account, PASSWORD)).status;
    console.log(`  IPv6 rotation in one /64: ${JSON.stringify(tally(rotation.slice(0, 10)))}, then the right password from an 11th address → ${rotation[10]} (429 = counted as one client)`);
    console.log(`  10 wrong from ::ffff:203.0.113.77, then the right one from 203.0.113.77 → ${mapped} (429 = counted as one client)`);
    return {
      attack: tally(attack.flat()),
      ownersBrowser,
      freshBrowser,
      reset: { strangers: tally(strangers.map((r) => r.status)), owner: ownersReset.status, mails: links.length, newestLink: linkWorks },
      ipv6Rotation11th: rotation[10],
      mappedIpv4: mapped,
    };
  });
}

// ---------------------------------------------------------------- 3. decompression bomb

async function decompressionBomb() {
  heading("3. Decompression bomb (PNG declaring 5 × 9,999,999 pixels)");
  const bomb = await makePngBomb(5, 9_999_999);
  const declared = await sharp(bomb, { limitInputPixels: false }).metadata();
  console.log(`  bomb: ${bomb.length.toLocaleString("en")} bytes, declares ${declared.width} × ${declared.height} (${((declared.width! * declared.height! * 3) / MB).toFixed(0)} MB of RGB when decoded)`);

  return withServers(async (start) => {
    let server = await start({ TRUST_PROXY: "true" });
    const upload = async (count: number) => {
      const visitors = await Promise.all(Array.from({ length: count }, () => register(server.url, nextAddress())));
      const { result: replies, memory } = await withMemory(server.pid, () =>
        Promise.all(visitors.map(({ visitor }, i) => visitor.publish(`Bomba ${i + 1}`, "Obyčajný text článku.", bomb, "image/png", AbortSignal.timeout(90_000)))),
      );
      const answers = replies.map((r) => ({ status: r.status, ms: round(r.ms), location: r.location, message: formError(r.html) }));
      for (const a of answers) console.log(`    ${a.status} in ${a.ms} ms${a.location ? ` → ${a.location}` : ""}${a.message ? ` — "${a.message}"` : ""}`);
      const crashed = server.exitState();
      console.log(`    ${formatMemory(memory)}${crashed ? `; server ${crashed}` : ""}`);
      return { answers, memory, serverCrashed: crashed };
    };

    console.log("  one upload:");
    const single = await upload(1);
    // A crashed server cannot take the next round: give it a fresh one.
    if (single.serverCrashed) server = await start({ TRUST_PROXY: "true" });
    console.log("  three uploads at once, from three accounts:");
    const parallel = await upload(3);
    const accounting = parallel.serverCrashed ? null : imageAccounting(server);
    console.log(`  ${accounting ? formatAccounting(accounting) : "image accounting skipped: the server crashed"}`);
    return { bombBytes: bomb.length, single, parallel, accounting };
  });
}

// ---------------------------------------------------------------- 3b. costly PNG (issue 27, finding 1)

async function costlyPng() {
  heading("3b. Costly PNG (10000×4000, 16-bit RGBA, EXIF orientation 8) sent to /create-post/image");
  const png = await makePng({ width: 10_000, height: 4_000, bitDepth: 16, colourType: 6, orientation: 8 });
  console.log(`  file: ${png.length.toLocaleString("en")} bytes (${((10_000 * 4_000 * 8) / MB).toFixed(0)} MB of 16-bit RGBA when decoded)`);
  return withServers(async (start) => {
    const server = await start({ TRUST_PROXY: "true" });
    const { visitor } = await register(server.url, nextAddress());
    const send = () => {
      const form = new FormData();
      form.append("image", new Blob([new Uint8Array(png)], { type: "image/png" }), "obrazok.png");
      return visitor.send("/create-post/image", { method: "POST", body: form, signal: AbortSignal.timeout(90_000) });
    };
    const rounds: { label: string; answers: { status: Reply["status"]; ms: number; error: string | null }[]; memory: Memory; serverCrashed: string | null }[] = [];
    for (const [label, count] of [["one upload", 1], ["three in a row", 3]] as const) {
      const { result: replies, memory } = await withMemory(server.pid, async () => {
        const all: Reply[] = [];
        for (let i = 0; i < count; i++) all.push(await send());
        return all;
      });
      const answers = replies.map((r) => ({ status: r.status, ms: round(r.ms), error: (JSON.parse(r.html || "{}") as { error?: string }).error ?? null }));
      const serverCrashed = server.exitState();
      console.log(`  ${label}:`);
      for (const a of answers) console.log(`    ${a.status} in ${a.ms} ms${a.error ? ` — "${a.error}"` : ""}`);
      console.log(`    ${formatMemory(memory)}${serverCrashed ? `; server ${serverCrashed}` : ""}`);
      rounds.push({ label, answers, memory, serverCrashed });
      if (serverCrashed) break;
    }
    return { pngBytes: png.length, rounds };
  });
}

// ---------------------------------------------------------------- 4. sanitiser stall

async function sanitiserStall() {
  heading("4. Sanitiser stall (content of 10,000 nested <b>, an ordinary article 300 ms later)");
  const CAP_MS = 120_000;
  const image = await sharp({ create: { width: 480, height: 300, channels: 3, background: "#963" } }).jpeg().toBuffer();
  return withServers(async (start) => {
    const server = await start({ TRUST_PROXY: "true" });
    const [attacker, bystander] = await Promise.all([register(server.url, nextAddress()), register(server.url, nextAddress())]);
    const signal = AbortSignal.timeout(CAP_MS);
    const { result: [nested, ordinary], memory } = await withMemory(server.pid, () =>
      Promise.all([
        attacker.visitor.publish("Vnorené značky", "<b>".repeat(10_000), image, "image/jpeg", signal),
        sleep(300).then(() => bystander.visitor.publish("Obyčajný článok", "Krátky obyčajný text.", image, "image/jpeg", signal)),
      ]),
    );
    const describe = (r: Reply) => ({
      status: r.status,
      ms: r.status === "aborted" ? `> ${CAP_MS}` : round(r.ms),
      location: r.location,
      message: formError(r.html),
    });
    const answers = { nested: describe(nested), ordinary: describe(ordinary) };
    for (const [name, a] of Object.entries(answers)) {
      console.log(`  ${name.padEnd(8)}: ${a.status} in ${a.ms} ms${a.location ? ` → ${a.location}` : ""}${a.message ? ` — "${a.message}"` : ""}`);
    }
    const accounting = imageAccounting(server);
    console.log(`  ${formatMemory(memory)}`);
    console.log(`  ${formatAccounting(accounting)}`);
    return { ...answers, memory, accounting };
  });
}

// ---------------------------------------------------------------- 5. random 404s

const randomId = () => randomBytes(9).toString("base64url"); // 12 characters, like an article id

async function notFoundFlood() {
  heading("5. Floods of 404s (50 connections, 10 s) against readers of /posts (10 connections)");
  return withServers(async (start) => {
    const server = await start();
    const headers = { "accept-encoding": "gzip" };
    const readers = () => autocannon({ url: `${server.url}/posts`, connections: 10, duration: 10, headers });
    const flood = (randomPath: () => string) =>
      autocannon({ url: server.url, connections: 50, duration: 10, headers, requests: [{ setupRequest: (request) => ({ ...request, path: randomPath() }) }] });
    const summarise = (r: CannonResult) => ({
      reqPerSec: round(r.requests.average),
      p99: r.latency.p99,
      statuses: Object.fromEntries(Object.entries(r.statusCodeStats).map(([code, { count }]) => [code, count])),
      errors: r.errors + r.timeouts,
    });
    const format = (s: ReturnType<typeof summarise>) => `${s.reqPerSec} req/s, p99 ${s.p99} ms, statuses ${JSON.stringify(s.statuses)}${s.errors ? `, ${s.errors} errors` : ""}`;

    const alone = await withMemory(server.pid, readers);
    console.log(`  /posts alone:            ${format(summarise(alone.result))}; ${formatMemory(alone.memory)}`);
    const results: Record<string, unknown> = { postsAlone: { ...summarise(alone.result), memory: alone.memory } };
    for (const [name, randomPath] of [
      ["/posts/<random id>", () => `/posts/${randomId()}`],
      ["/<random>/<random>", () => `/${randomId()}/${randomId()}`],
    ] as const) {
      const { result: [attack, read], memory } = await withMemory(server.pid, () => Promise.all([flood(randomPath), readers()]));
      console.log(`  flood ${name}: ${format(summarise(attack))}`);
      console.log(`    /posts meanwhile:      ${format(summarise(read))}; ${formatMemory(memory)}`);
      results[name] = { flood: summarise(attack), posts: summarise(read), memory };
    }
    return results;
  });
}

// ---------------------------------------------------------------- 6. forgot-password timing

async function forgotTiming() {
  heading("6. Forgot-password timing (200 sequential requests, existing vs unknown e-mail)");
  return withServers(async (start) => {
    const server = await start({ TRUST_PROXY: "true" });
    // An account may ask 5 times an hour: 20 accounts give 100 answered requests for existing e-mails.
    const emails: string[] = [];
    for (let i = 0; i < 20; i++) emails.push((await register(server.url, nextAddress())).email);
    const { result: replies, memory } = await withMemory(server.pid, async () => {
      const replies: { existing: boolean; status: Reply["status"]; ms: number }[] = [];
      for (let i = 0; i < 200; i++) {
        const existing = i % 2 === 0;
        const email = existing ? emails[(i >> 1) % emails.length] : `nobody-${i}-${process.pid}@example.com`;
        const reply = await new Visitor(server.url, nextAddress()).postForm("/signinsignup", { intent: "forgot", email });
        replies.push({ existing, status: reply.status, ms: reply.ms });
      }
      return replies;
    });
    // Compare answers of the same kind: a 429 says nothing about whether the account exists.
    const group = (existing: boolean) => {
      const mine = replies.filter((r) => r.existing === existing);
      return {
        statuses: tally(mine.map((r) => r.status)),
        answered303: stats(mine.filter((r) => r.status === 303).map((r) => r.ms)),
        all: stats(mine.map((r) => r.ms)),
      };
    };
    const existing = group(true);
    const unknown = group(false);
    const enough = (existing.answered303?.n ?? 0) >= 20 && (unknown.answered303?.n ?? 0) >= 20;
    const basis = enough ? "answered303" : "all";
    const medianGapMs = +((existing[basis]?.p50 ?? NaN) - (unknown[basis]?.p50 ?? NaN)).toFixed(1);
    for (const [name, g] of [["existing", existing], ["unknown", unknown]] as const) {
      console.log(`  ${name.padEnd(8)} e-mail: statuses ${JSON.stringify(g.statuses)}`);
      console.log(`    303 only: ${formatStats(g.answered303)}`);
      console.log(`    all:      ${formatStats(g.all)}`);
    }
    console.log(`  median(existing) − median(unknown) = ${medianGapMs} ms (over ${enough ? "303 answers" : "all answers: too few 303s in one group"}); ${formatMemory(memory)}`);
    return { existing, unknown, medianGapMs, basis, memory };
  });
}

// ---------------------------------------------------------------- 7. look-alike and invisible identities

/** Issue 27, finding 6: names, e-mails and bodies a reader or an admin cannot tell apart from others or see. */
async function lookAlikeIdentities() {
  heading("7. Look-alike and invisible identities (register, rename, publish)");
  const [zwsp, rlo, cyrillicA] = ["\u200b", "\u202e", "\u0410"];
  const shown = (text: string) => JSON.stringify(text).replace(/[^ -~]/g, (c) => `\\u{${c.codePointAt(0)!.toString(16)}}`);
  const image = await sharp({ create: { width: 480, height: 300, channels: 3, background: "#963" } }).jpeg().toBuffer();
  return withServers(async (start) => {
    const server = await start({ TRUST_PROXY: "true" });
    const { visitor: author } = await register(server.url, nextAddress(), "Admin");
    const outcome = (reply: Reply) => `${reply.status}${formError(reply.html) ? ` — "${formError(reply.html)}"` : ""}`;
    const results: Record<string, string> = {};
    const note = (what: string, result: string) => {
      results[what] = result;
      console.log(`  ${what.padEnd(48)} ${result}`);
    };
    const names = [zwsp, `Admin${zwsp}`, "Admin", `${cyrillicA}dmin`];
    for (const displayName of names) {
      const email = `probe-${process.pid}-${++accounts}@example.com`;
      const reply = await new Visitor(server.url, nextAddress()).postForm("/signinsignup", { intent: "register", displayName, email, password: PASSWORD, confirmPassword: PASSWORD });
      note(`register name ${shown(displayName)}`, outcome(reply));
    }
    const { visitor: renamer } = await register(server.url, nextAddress());
    for (const displayName of names) note(`rename to ${shown(displayName)}`, outcome(await renamer.postForm("/account", { intent: "rename", displayName })));
    for (const email of [`${cyrillicA}dmin@example.com`, `admin${zwsp}@example.com`, "<admin@example.com>"]) {
      const reply = await new Visitor(server.url, nextAddress()).postForm("/signinsignup", { intent: "register", displayName: `Iný ${accounts++}`, email, password: PASSWORD, confirmPassword: PASSWORD });
      note(`register e-mail ${shown(email)}`, outcome(reply));
    }
    const withNul = await author.publish("Článok s NUL", "Pred\u0000po", image, "image/jpeg");
    const page = withNul.location ? await author.send(withNul.location) : null;
    note("publish a body with a raw NUL", `${outcome(withNul)}${page ? `; its page ${page.html.includes("\u0000") ? "sends" : "has no"} NUL byte` : ""}`);
    note("publish a body with an unclosed RLO", outcome(await author.publish("Článok s RLO", `Text ${rlo}obrátený`, image, "image/jpeg")));
    return results;
  });
}

// ---------------------------------------------------------------- 8. slow and huge bodies

/** Bytes the server process has read through system calls (sockets included), from /proc. */
function bytesReadBy(pid: number): number {
  return Number(/^rchar: (\d+)$/m.exec(readFileSync(`/proc/${pid}/io`, "utf8"))?.[1] ?? Number.NaN);
}

async function slowUploads() {
  heading("8a. Twelve uploads trickling 1 byte every 5 s (6 accounts × 2), then another author's 4 KB upload");
  return withServers(async (start) => {
    const server = await start({ TRUST_PROXY: "true" });
    const attackers = await Promise.all(Array.from({ length: 6 }, () => registerUser(server.url)));
    const { client: author } = await registerUser(server.url);
    const boundary = "----probe";
    const trickling = attackers.flatMap(({ client }) =>
      [0, 1].map(() => {
        const headers = { Cookie: client.cookieHeader(), "X-Forwarded-For": client.address, "Content-Type": `multipart/form-data; boundary=${boundary}`, "Content-Length": "100000" };
        const request = rawRequest(server.url, "POST", "/create-post/image", headers, `--${boundary}\r\n`);
        request.trickle(5_000);
        return request;
      }),
    );
    await sleep(1_000);
    const form = new FormData();
    form.append("image", new Blob([new Uint8Array(padTo(await sharp({ create: { width: 64, height: 48, channels: 3, background: "#c8a15a" } }).jpeg().toBuffer(), 4_000))], { type: "image/jpeg" }), "a.jpg");
    const started = performance.now();
    const response = await author.request("/create-post/image", { method: "POST", body: form, headers: { Origin: server.url }, signal: AbortSignal.timeout(150_000) }).catch(() => null);
    const uploadMs = round(performance.now() - started);
    console.log(`  the honest upload: ${response?.status ?? "no answer"} in ${uploadMs} ms`);
    const answers = await Promise.all(trickling.map(async (request) => ({ status: (await request.answer).status, closedAfterMs: round(await request.closed) })));
    console.log(`  the trickling uploads: ${JSON.stringify(tally(answers.map((a) => a.status)))}, cut after ${Math.min(...answers.map((a) => a.closedAfterMs))}–${Math.max(...answers.map((a) => a.closedAfterMs))} ms`);
    return { uploadStatus: response?.status ?? null, uploadMs, trickling: tally(answers.map((a) => a.status)), cutAfterMs: Math.max(...answers.map((a) => a.closedAfterMs)) };
  });
}

async function hugeBodies() {
  heading("8b. Bodies declaring far more than any form sends, sent as fast as the connection takes them (8 s at most)");
  return withServers(async (start) => {
    const server = await start({ TRUST_PROXY: "true" });
    const { client } = await registerUser(server.url);
    const cases: { who: string; path: string; headers: Record<string, string> }[] = [
      { who: "anonymous, 10 GB declared", path: "/create-post/image", headers: { "Content-Type": "multipart/form-data; boundary=x", "Content-Length": "10000000000", "X-Forwarded-For": nextAddress() } },
      { who: "signed in, 100 MB declared", path: "/create-post", headers: { Cookie: client.cookieHeader(), "X-Forwarded-For": client.address, "Content-Type": "multipart/form-data; boundary=x", "Content-Length": String(100 * MB) } },
    ];
    const results = [];
    for (const { who, path: target, headers } of cases) {
      const before = bytesReadBy(server.pid);
      const request = rawRequest(server.url, "POST", target, headers);
      const timer = setTimeout(() => request.socket.destroy(), 8_000);
      const sent = await request.flood(100 * 1024 * MB);
      clearTimeout(timer);
      const answer = await request.answer;
      await sleep(200);
      const read = bytesReadBy(server.pid) - before;
      const result = { who, status: answer.status, connectionOpenMs: round(await request.closed), clientSentMb: +(sent / MB).toFixed(1), serverReadMb: +(read / MB).toFixed(1) };
      console.log(`  ${who}: answered ${answer.status || "nothing"}; connection open ${result.connectionOpenMs} ms; ${result.clientSentMb} MB left the client, the server read ${result.serverReadMb} MB`);
      results.push(result);
    }
    return results;
  });
}

// ---------------------------------------------------------------- run them all

console.log(`attack-probe: server of ${root}`);
const began = performance.now();
const summary: Record<string, unknown> = { root };
for (const [name, probe] of [
  ["openRedirect", openRedirect],
  ["concurrentThrottle", concurrentThrottle],
  ["bcryptBurst", bcryptBurst],
  ["accountLockout", accountLockout],
  ["decompressionBomb", decompressionBomb],
  ["costlyPng", costlyPng],
  ["sanitiserStall", sanitiserStall],
  ["notFoundFlood", notFoundFlood],
  ["forgotTiming", forgotTiming],
  ["lookAlikeIdentities", lookAlikeIdentities],
  ["slowUploads", slowUploads],
  ["hugeBodies", hugeBodies],
] as const) {
  if (typeof args.only === "string" && !args.only.split(",").includes(name)) continue;
  try {
    summary[name] = await probe();
  } catch (error) {
    // One probe failing to run should not cost the figures of the others.
    console.log(`  probe failed: ${(error as Error).stack ?? error}`);
    summary[name] = { error: String(error) };
  }
}
summary.totalSeconds = round((performance.now() - began) / 1000);
console.log(`\nAll probes done in ${summary.totalSeconds} s. Summary:`);
console.log(JSON.stringify(summary));
