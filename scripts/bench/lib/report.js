// Markdown tables of the results, ready to paste into a README.

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

/** What every GET a visitor can send should make, as a share of the ceiling (issue 24, goal 1). */
export const VISITOR_GOAL = 0.12;

/** The visitor's rows (images aside) under VISITOR_GOAL of the ceiling, each with its share. */
export function shortOfVisitorGoal({ rows }) {
  const ceiling = rows.find((row) => row.group === "ceiling").requestsPerSecond;
  return rows
    .filter((row) => (row.group === "anonymous" || row.group === "visitor") && !row.path.startsWith("/images/"))
    .filter((row) => row.requestsPerSecond < VISITOR_GOAL * ceiling)
    .map((row) => `\`${row.label}\` (${percent(row.requestsPerSecond, ceiling)})`);
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
      const share = row.group === "ceiling" ? "machine drift" : `of ceiling ${percent(small.requestsPerSecond, ceilingOf(smallest))} → ${percent(row.requestsPerSecond, ceilingOf(big))}`;
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
