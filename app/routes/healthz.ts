import { healthProblems } from "~/services/health.server";

/**
 * For the container's HEALTHCHECK and the operator: 200 "ok" while the site
 * can take writes, otherwise 503 with one line per failing check. Mail does
 * not count (its trouble shows on /admin); a read-only replica is healthy
 * while its database answers.
 */
export async function loader() {
  const problems = await healthProblems();
  if (problems.length > 0) console.error(`Health check failed: ${problems.join(" | ")}`);
  const headers = { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" };
  return problems.length === 0 ? new Response("ok", { headers }) : new Response(`${problems.join("\n")}\n`, { status: 503, headers });
}
