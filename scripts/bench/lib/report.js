// The results as markdown: the tables printed at the end of a run, and the
// whole results file `npm run bench` writes (docs/performance-results.md).

const FLAT_TOLERANCE = 0.2;

const number = (value, digits = 0) => value.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });
const percent = (part, whole) => (whole > 0 ? `${number((100 * part) / whole)} %` : "—");
const sizeLabel = (n) => (n >= 1000 && n % 1000 === 0 ? `${n / 1000}k` : String(n));

function markdownTable(header, rows) {
  const line = (cells) => `| ${cells.join(" | ")} |`;
  return [line(header), line(header.map((_, i) => (i === 0 ? "---" : "---:"))), ...rows.map(line)].join("\n");
}

/** One table for one database size: every measured path, against the ceiling and (signed in) against /healthz. */
export function loadTable({ rows }) {
  const ceiling = rows.find((row) => row.group === "ceiling");
  const healthz = rows.find((row) => row.label === "/healthz");
  const header = ["path", "conn.", "req/s", "p50 ms", "p99 ms", "errors+unexpected status", "of ceiling", "of /healthz", "peak RSS MB"];
  return markdownTable(
    header,
    rows.map((row) => [
      `\`${row.label}\``,
      row.connections,
      number(row.requestsPerSecond),
      number(row.p50),
      number(row.p99),
      row.errors + row.unexpected,
      percent(row.requestsPerSecond, ceiling.requestsPerSecond),
      row.group === "signed-in" && healthz ? percent(row.requestsPerSecond, healthz.requestsPerSecond) : "",
      number(row.peakRssMb),
    ]),
  );
}

/**
 * The targets (docs/performance.md), each as the rows it judges and what a
 * row must reach. A target whose rows were not measured (--only) is left out.
 * Memory has a target of its own, checked by `npm run load-test`.
 */
const GOALS = [
  {
    name: "1. every GET a visitor can send ≥ 12 % of the ceiling (a comparison of two revisions aside: worked out each time, in one worker)",
    rows: (row) => ["anonymous", "visitor", "assets", "history"].includes(row.group) && !row.path?.startsWith("/images/") && !row.path?.includes("?from="),
    meets: (row, ceiling) => row.requestsPerSecond >= 0.12 * ceiling,
  },
  { name: "2. images from the folder ≥ 25 % of the ceiling", rows: (row) => Boolean(row.path?.startsWith("/images/")), meets: (row, ceiling) => row.requestsPerSecond >= 0.25 * ceiling },
  {
    name: "3. a new search's page ≥ 500 req/s with p99 < 50 ms",
    rows: (row) => row.group === "search" && row.newSearch && row.path === "/posts",
    meets: (row) => row.requestsPerSecond >= 500 && row.p99 < 50,
  },
  { name: "3. a new search's data p99 < 25 ms", rows: (row) => row.group === "search" && row.newSearch && row.path === "/posts.data", meets: (row) => row.p99 < 25 },
  {
    name: "4. signed-in pages ≥ 40 % of the ceiling",
    rows: (row) => row.group === "signed-in",
    meets: (row, ceiling) => row.requestsPerSecond >= 0.4 * ceiling,
    // A signed-in reader should get what a visitor gets: the visitor's same kept page, in the same run.
    compared: (rows) => rows.find((row) => row.group === "anonymous" && row.path === "/posts"),
  },
];

/** Per target measured in this run: "met", or the rows short of it with their figures. */
export function goalLines({ rows }) {
  const ceiling = rows.find((row) => row.group === "ceiling").requestsPerSecond;
  return GOALS.flatMap((goal) => {
    const judged = rows.filter(goal.rows);
    if (judged.length === 0) return [];
    const short = judged.filter((row) => !goal.meets(row, ceiling));
    const figures = (row) => `\`${row.label}\` (${number(row.requestsPerSecond)} req/s, ${percent(row.requestsPerSecond, ceiling)}, p99 ${number(row.p99)} ms)`;
    const compared = short.length > 0 && goal.compared?.(rows);
    return [`- ${goal.name}: ${short.length === 0 ? "met" : `short: ${short.map(figures).join(", ")}`}${compared ? `; a visitor's ${figures(compared)}` : ""}`];
  });
}

const ceilingOf = (result) => result.rows.find((row) => row.group === "ceiling").requestsPerSecond;

/**
 * Per path: req/s on each larger database against the smallest, and whether it
 * stays within FLAT_TOLERANCE. The share of the ceiling is shown too: on a busy
 * machine the ceiling itself moves, and the share is the fairer comparison.
 */
export function flatCostLines(results) {
  const [smallest, ...larger] = [...results].sort((a, b) => a.size - b.size);
  return larger.flatMap((big) =>
    big.rows.map((row) => {
      const small = smallest.rows.find((r) => r.label === row.label);
      const change = row.requestsPerSecond / small.requestsPerSecond - 1;
      const verdict = Math.abs(change) <= FLAT_TOLERANCE ? "flat" : "NOT flat";
      const share = row.group.startsWith("ceiling") ? "machine drift" : `of ceiling ${percent(small.requestsPerSecond, ceilingOf(smallest))} → ${percent(row.requestsPerSecond, ceilingOf(big))}`;
      return (
        `- \`${row.label}\`: ${number(row.requestsPerSecond)} req/s at ${sizeLabel(big.size)} vs ${number(small.requestsPerSecond)} at ${sizeLabel(smallest.size)} ` +
        `(${change >= 0 ? "+" : ""}${number(change * 100, 1)} %, ${verdict}; ${share})`
      );
    }),
  );
}

/** The page-weight table: encoded (compressed) bytes per resource type against the targets. */
export function weightTable(weight) {
  const kb = (bytes) => number(bytes / 1000, 1);
  const rows = weight.rows.map(({ label, requests, bytes, targetBytes }) => [
    label,
    requests,
    kb(bytes),
    targetBytes === 0 ? "none" : targetBytes === Infinity ? "—" : `≤ ${kb(targetBytes)}`,
    bytes <= targetBytes ? "ok" : "OVER",
  ]);
  return markdownTable(["resource", "requests", "KB", "target KB", ""], rows);
}

/**
 * The whole results file of a run (docs/performance-results.md unless told
 * otherwise): what was run and where, then per database size its table, the
 * targets, memory and start-up, the flat-cost check and the page weight.
 * Generated, never edited by hand: the next run writes it anew.
 */
export function resultsMarkdown(results, options, { command, commit, machine }) {
  const lines = [
    "# Performance results",
    "",
    "<!-- Written by `npm run bench` (scripts/bench/run.js). Do not edit by hand: run the bench again. -->",
    "",
    "Written by `npm run bench`; what it measures and how to read it:",
    "[performance.md](performance.md).",
    "",
    `- command: \`${command}\``,
    `- code: ${commit}`,
    `- machine: ${machine}`,
    `- each row: ${options.duration} s measured after ${options.warmup} s of warm-up; ${options.connections} connections unless the table says otherwise`,
  ];
  for (const result of results) {
    lines.push(
      "",
      `## ${result.size.toLocaleString("en-US")} articles`,
      "",
      `Database ${number(result.databaseMegabytes)} MB, seeded in ${number(result.seedSeconds, 1)} s; ` +
        `the server started in ${number(result.startSeconds, 1)} s (indexing every article for search first). ` +
        `Ceiling body: ${number(result.ceilingBodyBytes)} bytes gzipped (\`/posts?limit=90\`: ${number(result.longListBodyBytes)}). ` +
        `Server peak RSS over the rows: ${number(result.peakRssMb)} MB.`,
      "",
      loadTable(result),
      "",
      "Targets:",
      "",
      ...goalLines(result),
    );
  }
  if (results.length > 1) {
    lines.push("", "## Flat cost", "", "Requests a second on the largest database against the smallest (within 20 %?):", "", ...flatCostLines(results));
  }
  const weight = results.find((result) => result.pageWeight)?.pageWeight;
  if (weight) {
    const below = weight.belowTheFold;
    lines.push(
      "",
      `## First view of \`/posts\` on a phone (${results.find((result) => result.pageWeight).size.toLocaleString("en-US")} articles)`,
      "",
      `${weight.phone}, compressed bytes as transferred (the document sent as ${weight.documentEncoding}):`,
      "",
      weightTable(weight),
      "",
      `${below.label}: ${below.requests} requests, ${number(below.bytes / 1000, 1)} KB.`,
    );
  }
  return `${lines.join("\n")}\n`;
}
