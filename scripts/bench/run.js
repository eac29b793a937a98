// npm run bench — throughput, latency and memory of the production server, and
// the page weight of /posts on a phone (docs/performance.md says how to read it).
//
// For each database size N (default 1,000 and 100,000 generated posts) it builds
// a fresh data folder (schema from the app's own migrations, posts inserted with
// better-sqlite3, real stored image variants), starts the built server as
// `npm start` does, signs a user up, and loads each path with autocannon
// (warm-up, then the measured run; Accept-Encoding: gzip). Paths are compared
// with a "ceiling" (bare node:http replaying the bytes of GET /posts) and,
// signed in, with /healthz (the framework's floor). It prints one markdown
// table per N (with the history and a comparison of an article given 200
// revisions through the posts model), a 100k-vs-1k flat-cost check, the page weight of /posts at
// 375×812 (Chromium, JavaScript off, then on), and writes the results:
// docs/performance-results.md (markdown, the committed figures) and
// bench-results.json beside the run's data.
//
//   npm run bench
//   npm run bench -- --sizes 1000 --duration 3      # a quick run
//   npm run bench -- --sizes 1000 --only visitor     # only these groups' rows (and the ceiling)
//   npm run bench -- --sizes 1000 --only images      # or the rows whose label has this text
//   options: --sizes 1000,100000  --duration 10  --warmup 3  --connections 50  --keep
//            --only a,b (groups: anonymous, visitor, assets, signed-in, search, history, timeline; or parts of labels)
//            --results FILE  where the markdown goes (default docs/performance-results.md; with --only,
//                            a file beside the run's data, so that a partial run leaves the committed figures alone)
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { dataPaths, ensureBuild, projectRoot, registerUser, startAppServer } from "./lib/app-server.js";
import { startCeiling } from "./lib/ceiling.js";
import { makeImagePool } from "./lib/images.js";
import { measure } from "./lib/load.js";
import { measurePageWeight } from "./lib/page-weight.js";
import { COMMON_TAG, insertPosts, RARE_TAG, seededRandom } from "./lib/posts.js";
import { onCleanup, removeOnCleanup, runAll } from "./lib/processes.js";
import { flatCostLines, goalLines, loadTable, resultsMarkdown, weightTable } from "./lib/report.js";

const IMAGE_POOL_SIZE = 20;
const SEARCH_CONNECTIONS = 10;
const HISTORY_CONNECTIONS = 10;
/** What a browser sends for a script. */
const BROTLI = { "accept-encoding": "gzip, deflate, br, zstd" };
/** The revisions of the article whose history is measured (its target: p99 under 50 ms at 10 connections). */
const REVISIONS = 200;
const PAGE_SIZE = 9; // cards per list page (app/lib/rules.ts)

function readOptions() {
  const { values } = parseArgs({
    options: {
      sizes: { type: "string", default: "1000,100000" },
      duration: { type: "string", default: "10" },
      warmup: { type: "string", default: "3" },
      connections: { type: "string", default: "50" },
      only: { type: "string", default: "" },
      keep: { type: "boolean", default: false },
      results: { type: "string" },
    },
  });
  const positive = (name, value) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n <= 0) throw new Error(`--${name} must be a positive whole number, got "${value}"`);
    return n;
  };
  return {
    sizes: values.sizes.split(",").map((size) => positive("sizes", size.trim())),
    duration: positive("duration", values.duration),
    warmup: positive("warmup", values.warmup),
    connections: positive("connections", values.connections),
    only: values.only.split(",").map((part) => part.trim()).filter(Boolean),
    keep: values.keep,
    results: values.results,
  };
}

/**
 * A data folder with the app's schema (applied by the server itself), `size`
 * posts and the image pool (copied after the posts: at start-up the server
 * removes image files no post refers to).
 */
async function prepareData(dataDir, size, { poolDir, images }) {
  const { databasePath, uploadsDir } = dataPaths(dataDir);
  const migrating = await startAppServer(dataDir);
  await migrating.stop();
  const started = performance.now();
  const seeded = insertPosts(databasePath, { count: size, images, random: seededRandom(size) });
  const seconds = (performance.now() - started) / 1000;
  cpSync(poolDir, uploadsDir, { recursive: true });
  const megabytes = statSync(databasePath).size / 1e6;
  console.log(
    `  inserted ${size.toLocaleString("en-US")} posts in ${seconds.toFixed(1)} s (${megabytes.toFixed(0)} MB); ` +
      `"${COMMON_TAG}" on ${seeded.tagCounts[COMMON_TAG]}, "${RARE_TAG}" on ${seeded.tagCounts[RARE_TAG]}`,
  );
  const revisions = seedRevisions(databasePath, seeded.samplePost.id);
  return { ...seeded, revisions, seedSeconds: seconds, databaseMegabytes: megabytes };
}

/** REVISIONS revisions of one article, written by the app's own edit (scripts/bench/seed-revisions.ts); the first and last ids. */
function seedRevisions(databasePath, postId) {
  const started = performance.now();
  const output = execFileSync(path.join(projectRoot, "node_modules/.bin/vite-node"), ["scripts/bench/seed-revisions.ts", postId, String(REVISIONS)], {
    cwd: projectRoot,
    env: { PATH: process.env.PATH, DATABASE_PATH: databasePath },
    encoding: "utf8",
  });
  console.log(`  gave one article ${REVISIONS} revisions in ${((performance.now() - started) / 1000).toFixed(1)} s (through the posts model)`);
  return JSON.parse(output.trim().split("\n").at(-1));
}

/**
 * A stream of searches a reader might type, none the same as another: a word
 * of the generated articles, whole or begun (2 letters or more), with one of
 * the years their titles carry.
 */
function newSearch(path) {
  const words = ["kremnici", "nitre", "bitka", "kronikari", "mesto", "povstanie", "snem", "mier", "archeologicke", "panovnik", "cechoch", "mytus", "listiny", "dane", "korunovacia", "trencine", "levoci"];
  let i = 0;
  return () => {
    i++;
    const word = words[i % words.length];
    const typed = word.slice(0, 2 + (i % (word.length - 1)));
    return `${path}?q=${encodeURIComponent(`${typed} ${800 + ((i * 7919) % 1190)}`)}`;
  };
}

/** What to load: label (the same for every N), URL, connections, extra headers, group, the process to watch, and the cards a list must show. */
function targets({ server, ceiling, ceilingWithHeaders, ceilingOfLongList, ceilingOfScript, cookie, data, connections }) {
  const lists = [
    { path: "/posts", cards: Math.min(PAGE_SIZE, data.size) },
    { path: `/posts?tag=${COMMON_TAG}`, cards: Math.min(PAGE_SIZE, data.tagCounts[COMMON_TAG]) },
    { path: `/posts?tag=${RARE_TAG}`, cards: Math.min(PAGE_SIZE, data.tagCounts[RARE_TAG]) },
    { path: "/posts?limit=90", cards: Math.min(90, data.size) },
  ];
  // Searches at 10 connections, as the search target is set. The same search again is served from the page cache
  // (as the lists are); a new search every request measures the index and the rendering.
  const searches = [
    { path: "/posts?q=kremnici", label: "/posts?q=kremnici (a place, ~10 %)" },
    { path: "/posts?q=bitka+kremnici", label: "/posts?q=bitka kremnici (two words)" },
    { path: "/posts?q=kronik", label: "/posts?q=kronik (a prefix in ~40 %)" },
    { path: `/posts?q=mesto&tag=${encodeURIComponent(COMMON_TAG)}`, label: "/posts?q=mesto&tag=… (with a tag)" },
    { path: "/posts?q=neexistuje", label: "/posts?q=neexistuje (no match)", cards: 0 },
  ].map((target) => ({ cards: Math.min(PAGE_SIZE, data.size), ...target }));
  const newSearches = [
    { path: "/posts", label: "/posts?q=… (a new search each request, page)", nextPath: newSearch("/posts") },
    { path: "/posts.data", label: "/posts.data?q=… (a new search each request, as typing with JS asks)", nextPath: newSearch("/posts.data") },
  ];
  const anonymous = [
    { path: "/" },
    ...lists,
    { path: `/posts/${data.samplePost.id}`, label: "/posts/:id" },
    // Any missing id is the same cached page (the attack probe asks for random ones).
    { path: "/posts/neexistuje-000", label: "/posts/:missing (404)", status: 404 },
    { path: `/images/${data.samplePost.image}-400.webp`, label: "/images/:key-400.webp" },
    { path: `/images/${data.samplePost.image}-800.webp`, label: "/images/:key-800.webp" },
    { path: "/healthz" },
  ];
  const onServer = (target) => ({ ...target, url: new URL(target.path, server.url).href, pid: server.pid });
  return [
    ...anonymous.map((t) => onServer({ label: t.path, ...t, connections, group: "anonymous" })),
    // At the visitors' connections: goal 4 compares them with the ceiling and with a visitor's same page.
    ...lists.map((t) => onServer({ ...t, label: `${t.path} (signed in)`, connections, headers: { cookie }, group: "signed-in" })),
    ...[...searches, ...newSearches].map((t) => onServer({ ...t, connections: SEARCH_CONNECTIONS, group: "search" })),
    ...history(data).map((t) => onServer({ ...t, connections: HISTORY_CONNECTIONS, group: "history" })),
    ...visitorPages(data).map((t) => onServer({ label: t.path, ...t, connections, group: "visitor" })),
    // The first view's largest file, as a browser asks for it (brotli), against a bare server replaying the same bytes.
    onServer({ path: data.mainScript, label: "/assets/… (the main script, brotli)", headers: BROTLI, connections, group: "assets" }),
    { label: "ceiling replaying the main script instead", url: ceilingOfScript.url, headers: BROTLI, connections, group: "ceiling-other", pid: ceilingOfScript.pid },
    ...timelinePages(data).map((t) => onServer({ label: t.path, ...t, connections: SEARCH_CONNECTIONS, group: "timeline" })),
    { label: "ceiling (replayed /posts)", url: ceiling.url, connections, group: "ceiling", pid: ceiling.pid },
    // The goals are judged against the ceiling above; this one shows what the app's own headers cost the load generator.
    { label: "ceiling with /posts's headers too", url: ceilingWithHeaders.url, connections, group: "ceiling-other", pid: ceilingWithHeaders.pid },
    // A page of 90 cards is several times the bytes of /posts: what a bare server makes of them.
    { label: "ceiling replaying /posts?limit=90 instead", url: ceilingOfLongList.url, connections, group: "ceiling-other", pid: ceilingOfLongList.pid },
  ];
}

/**
 * Time as a way in: the timeline from its start, from a century and after an article
 * (kept pages), a page after a new place each request (rendered each time), the list filtered by a
 * century, and by a new range of years each request (rendered each time: the cost of the index
 * range and the rendering). The article page's row (/posts/:id) carries its neighbours in time.
 */
function timelinePages({ samplePost }) {
  let i = 0;
  const newRange = () => `/posts?from=${800 + ((++i * 7919) % 1190)}`;
  let j = 0;
  const newPlace = () => `/timeline?after=${(800 + ((++j * 7919) % 1190)) * 10_000}.${samplePost.id}`;
  return [
    { path: "/timeline" },
    { path: "/timeline?century=15" },
    { path: `/timeline?after=${samplePost.periodStart}.${samplePost.id}`, label: "/timeline?after=… (a page after an article)" },
    { path: "/timeline", label: "/timeline?after=… (a new place each request)", nextPath: newPlace },
    { path: "/posts?century=15", cards: PAGE_SIZE },
    // As the site's links write it (tag first), so that it is one entry of the page cache and no redirect.
    { path: `/posts?${new URLSearchParams({ tag: COMMON_TAG, century: "15" })}`, label: "/posts?tag=…&century=15", cards: PAGE_SIZE },
    { path: "/posts", label: "/posts?from=… (a new range each request)", nextPath: newRange },
  ];
}

/** The rest of what a visitor can ask for with a GET (target 1): forms, feeds, the sitemap, plain files, the logs. */
function visitorPages({ samplePost }) {
  return [
    { path: "/signinsignup" },
    { path: "/signinsignup?mode=register" },
    // A visitor is sent to sign in first.
    { path: "/create-post", status: 302 },
    { path: "/reset-password", label: "/reset-password (no token)" },
    { path: "/conflicts" },
    { path: "/tags.json" },
    { path: "/feed.xml" },
    { path: `/feed.xml?tag=${encodeURIComponent(COMMON_TAG)}`, label: "/feed.xml?tag=…" },
    { path: "/sitemap.xml" },
    { path: "/robots.txt" },
    // The list's background, asked for by every first view of it.
    { path: "/img/posts-bg-800.webp" },
    { path: `/posts/${samplePost.id}/history`, label: "/posts/:id/history (visitor)" },
    { path: "/moderation" },
  ];
}

/** The history of the article with REVISIONS revisions (not in the page cache), and its first and last revisions compared. */
function history({ samplePost, revisions }) {
  const page = `/posts/${samplePost.id}/history`;
  return [
    { path: page, label: `/posts/:id/history (${REVISIONS} revisions, first page)` },
    { path: `${page}?from=${revisions.first}&to=${revisions.last}`, label: `/posts/:id/history?from=…&to=… (revisions 1 and ${REVISIONS})` },
  ];
}

/** A list page must show its cards: its loader answers an empty list (still 200) when the query fails. */
async function checkCards(target) {
  const html = await (await fetch(target.url, { headers: target.headers })).text();
  const cards = html.match(/<li class="card\b/g)?.length ?? 0;
  if (cards !== target.cards) console.warn(`  WARNING: ${target.label} shows ${cards} cards, expected ${target.cards}`);
}

async function benchSize(size, { workDir, pool, options, withPageWeight }) {
  console.log(`\nN = ${size.toLocaleString("en-US")}`);
  const dataDir = path.join(workDir, `n${size}`);
  removeOnCleanup(dataDir, options.keep);
  const data = await prepareData(dataDir, size, pool);

  // The generated posts have no search rows yet: the server indexes them all before it listens, as after an upgrade.
  const starting = performance.now();
  const server = await startAppServer(dataDir);
  onCleanup(server.stop);
  const startSeconds = (performance.now() - starting) / 1000;
  console.log(`  server started in ${startSeconds.toFixed(1)} s, indexing ${size.toLocaleString("en-US")} posts for search first`);
  const cookie = await registerUser(server.url);
  const ceiling = await startCeiling(`${server.url}/posts`, { "accept-encoding": "gzip" }, dataDir);
  onCleanup(ceiling.stop);
  const ceilingWithHeaders = await startCeiling(`${server.url}/posts`, { "accept-encoding": "gzip" }, dataDir, { allHeaders: true });
  onCleanup(ceilingWithHeaders.stop);
  const ceilingOfLongList = await startCeiling(`${server.url}/posts?limit=90`, { "accept-encoding": "gzip" }, dataDir, { name: "limit-90" });
  onCleanup(ceilingOfLongList.stop);
  data.mainScript = /\/assets\/components-[\w-]+\.js/.exec(await (await fetch(`${server.url}/posts`)).text())[0];
  const ceilingOfScript = await startCeiling(`${server.url}${data.mainScript}`, BROTLI, dataDir, { name: "main-script" });
  onCleanup(ceilingOfScript.stop);

  const rows = [];
  // --only: the rows asked for (by group or by a part of their label), and the ceiling they are compared with.
  const list = targets({ server, ceiling, ceilingWithHeaders, ceilingOfLongList, ceilingOfScript, cookie, data: { size, ...data }, connections: options.connections }).filter(
    (target) => options.only.length === 0 || target.group.startsWith("ceiling") || options.only.some((part) => target.group === part || target.label.includes(part)),
  );
  for (const target of list) {
    if (target.cards !== undefined) await checkCards(target);
    const result = await measure(target.url, { ...options, ...target });
    rows.push({ label: target.label, path: target.path, group: target.group, newSearch: Boolean(target.nextPath), ...result });
    console.log(`  ${target.label}: ${Math.round(result.requestsPerSecond)} req/s, p99 ${result.p99} ms`);
  }
  const pageWeight = withPageWeight ? await measurePageWeight(`${server.url}/posts`) : undefined;
  await ceiling.stop();
  await ceilingWithHeaders.stop();
  await ceilingOfLongList.stop();
  await ceilingOfScript.stop();
  await server.stop();
  const peakRssMb = Math.max(...rows.filter((row) => !row.group.startsWith("ceiling")).map((row) => row.peakRssMb));
  return { size, ...data, startSeconds, ceilingBodyBytes: ceiling.bodyBytes, longListBodyBytes: ceilingOfLongList.bodyBytes, peakRssMb, rows, pageWeight };
}

function printResults(results, options) {
  for (const result of results) {
    console.log(`\n### N = ${result.size.toLocaleString("en-US")} posts (${options.duration} s after ${options.warmup} s warm-up)\n`);
    console.log(loadTable(result));
    console.log(`\nTargets (memory: npm run load-test):\n${goalLines(result).join("\n")}`);
    console.log(`\nServer peak RSS: ${result.peakRssMb.toFixed(0)} MB. Ceiling body: ${result.ceilingBodyBytes} bytes (gzip; /posts?limit=90: ${result.longListBodyBytes}). Start with search indexing: ${result.startSeconds.toFixed(1)} s.`);
  }
  if (results.length > 1) {
    console.log("\n### Flat cost: req/s on the largest database vs the smallest (within 20 %?)\n");
    console.log(flatCostLines(results).join("\n"));
  }
  const weight = results.find((result) => result.pageWeight)?.pageWeight;
  if (weight) {
    console.log(`\n### Page weight of /posts at ${weight.phone} (compressed bytes; document sent as ${weight.documentEncoding})\n`);
    console.log(weightTable(weight));
    const below = weight.belowTheFold;
    console.log(`\n${below.label}: ${below.requests} requests, ${(below.bytes / 1000).toFixed(1)} KB.`);
  }
}

/** The code measured: the commit, and whether the work tree differed from it. */
function commitMeasured() {
  const git = (...args) => execFileSync("git", args, { cwd: projectRoot, encoding: "utf8" }).trim();
  try {
    const changed = git("status", "--porcelain", "--untracked-files=no") !== "";
    return `commit ${git("rev-parse", "--short=12", "HEAD")}${changed ? " with uncommitted changes" : ""}`;
  } catch {
    return "not a git checkout";
  }
}

/** The machine, as far as it tells the figures apart: CPU, cores, Node, and how busy it was. */
function machineMeasured(loadBefore) {
  const cores = cpus();
  const load = (values) => values.map((value) => value.toFixed(1)).join(" / ");
  return (
    `${cores.length} × ${cores[0]?.model.trim() ?? "unknown CPU"}, Node ${process.version}; ` +
    `load average (1 / 5 / 15 min) ${load(loadBefore)} at the start, ${load(loadavg())} at the end`
  );
}

await runAll(async () => {
  const options = readOptions();
  ensureBuild();
  const loadBefore = loadavg();
  const workDir = mkdtempSync(path.join(tmpdir(), "dejiny-bench-"));
  const resultsFile = path.join(workDir, "bench-results.json");
  const markdownFile = path.resolve(options.results ?? (options.only.length > 0 ? path.join(workDir, "performance-results.md") : path.join(projectRoot, "docs/performance-results.md")));
  // The folder outlives the run only to hold the results (or everything, with --keep).
  onCleanup(() => {
    if (!options.keep && !existsSync(resultsFile)) rmSync(workDir, { recursive: true, force: true });
  });
  const poolDir = path.join(workDir, "image-pool");
  removeOnCleanup(poolDir, options.keep);
  console.log(`Generating ${IMAGE_POOL_SIZE} images…`);
  const pool = { poolDir, images: await makeImagePool(poolDir, IMAGE_POOL_SIZE, seededRandom(20)) };

  const results = [];
  for (const [i, size] of options.sizes.entries()) {
    results.push(await benchSize(size, { workDir, pool, options, withPageWeight: i === 0 && (options.only.length === 0 || options.only.includes("anonymous")) }));
  }
  writeFileSync(resultsFile, JSON.stringify({ date: new Date().toISOString(), options, results }, null, 2));
  const command = ["npm run bench", ...(process.argv.length > 2 ? ["--", ...process.argv.slice(2)] : [])].join(" ");
  writeFileSync(markdownFile, resultsMarkdown(results, options, { command, commit: commitMeasured(), machine: machineMeasured(loadBefore) }));
  printResults(results, options);
  console.log(`\nResults: ${markdownFile} (markdown), ${resultsFile} (JSON)`);
});
