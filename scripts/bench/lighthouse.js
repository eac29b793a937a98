// npm run lighthouse — Lighthouse 12 scores (its default mobile emulation:
// a mid-range phone on slow 4G, simulated) for /, /posts and one article.
//
// Starts the built server with its demo articles in a fresh temporary data
// folder, runs Lighthouse in Debian's Chromium for each page and prints the
// performance and accessibility scores against the targets (performance ≥ 95,
// accessibility 100), with the titles of the audits that fall short.
//
//   npm run lighthouse            (builds first if there is no build)
import { launch } from "chrome-launcher";
import lighthouse from "lighthouse";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ensureBuild, startAppServer } from "./lib/app-server.js";
import { CHROME_FLAGS, CHROMIUM_PATH } from "../chromium.js";
import { onCleanup, removeOnCleanup, runAll } from "./lib/processes.js";

const TARGETS = { performance: 95, accessibility: 100 };

/** The first article linked from the list page. */
async function firstArticlePath(baseUrl) {
  const html = await (await fetch(`${baseUrl}/posts`)).text();
  const match = html.match(/href="(\/posts\/[A-Za-z0-9_-]+)"/);
  if (!match) throw new Error("no article link found on /posts");
  return match[1];
}

/** Audits of a category that lose points (below a perfect score for accessibility, below 0.9 otherwise). */
function shortfalls(lhr, categoryId) {
  const pass = categoryId === "accessibility" ? 1 : 0.9;
  return lhr.categories[categoryId].auditRefs
    .map((ref) => lhr.audits[ref.id])
    .filter((audit) => typeof audit.score === "number" && audit.score < pass)
    .map((audit) => `${audit.title}${audit.displayValue ? ` (${audit.displayValue})` : ""}, score ${audit.score}`);
}

async function audit(url, port) {
  const { lhr } = await lighthouse(url, { port, output: "json", logLevel: "error", onlyCategories: Object.keys(TARGETS) });
  if (lhr.runtimeError) throw new Error(`${url}: ${lhr.runtimeError.message}`);
  return Object.keys(TARGETS).map((id) => {
    const score = Math.round(lhr.categories[id].score * 100);
    return { id, score, ok: score >= TARGETS[id], shortfalls: score >= TARGETS[id] ? [] : shortfalls(lhr, id) };
  });
}

function printReport(reports) {
  const ids = Object.keys(TARGETS);
  console.log(`\n| page | ${ids.map((id) => `${id} (≥ ${TARGETS[id]})`).join(" | ")} |`);
  console.log(`| --- | ${ids.map(() => "---:").join(" | ")} |`);
  for (const { page, scores } of reports) {
    console.log(`| \`${page}\` | ${scores.map((s) => `${s.score}${s.ok ? "" : " ✗"}`).join(" | ")} |`);
  }
  for (const { page, scores } of reports) {
    for (const { id, shortfalls: titles } of scores.filter((s) => !s.ok)) {
      console.log(`\n${page}, ${id} below target:`);
      for (const title of titles) console.log(`  - ${title}`);
    }
  }
}

await runAll(async () => {
  ensureBuild();
  const dataDir = mkdtempSync(path.join(tmpdir(), "dejiny-lighthouse-"));
  removeOnCleanup(dataDir, false);
  const server = await startAppServer(dataDir, { demo: true });
  onCleanup(server.stop);
  process.env.CHROME_PATH = CHROMIUM_PATH;
  const chrome = await launch({ chromePath: CHROMIUM_PATH, chromeFlags: CHROME_FLAGS });
  onCleanup(() => chrome.kill());

  const pages = ["/", "/posts", await firstArticlePath(server.url)];
  const reports = [];
  for (const page of pages) {
    console.log(`Lighthouse: ${page}`);
    reports.push({ page, scores: await audit(`${server.url}${page}`, chrome.port) });
  }
  printReport(reports);
});
