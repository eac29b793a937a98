// npm run scan: independent scanners against the built server on 127.0.0.1 —
// sqlmap on the list's query parameters and the sign-in and register forms,
// wapiti on the whole site signed in. Installs both from Debian if missing.
// Exits non-zero if anything is injectable or wapiti reports a vulnerability
// or an anomaly.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { registerUser, uniqueEmail } from "./lib/client";
import { startServer } from "./lib/server";

function run(command: string, args: string[]): string {
  const result = spawnSync(command, args, { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  return `${result.stdout}${result.stderr}`;
}

if (!run("sh", ["-c", "command -v sqlmap && command -v wapiti"]).includes("wapiti")) {
  run("apt-get", ["update", "-qq"]);
  run("apt-get", ["install", "-y", "-qq", "--no-install-recommends", "sqlmap", "wapiti"]);
}

const out = mkdtempSync(path.join(tmpdir(), "dejiny-scan-"));
// As in production behind TLS (HSTS on), though served over plain http here.
const server = await startServer({ DEMO_CONTENT: "on", PUBLIC_URL: "https://dejiny.example" });
const { client } = await registerUser(server.url);
const cookie = `dejiny_session=${client.cookies.get("dejiny_session")}`;
const findings: string[] = [];

const sqlmapTargets: [string, string[]][] = [
  ["list query", ["-u", `${server.url}/posts?tag=Morava&limit=18`, "-p", "tag,limit"]],
  ["sign-in form", ["-u", `${server.url}/signinsignup`, "--data", "intent=signin&email=jan@example.com&password=heslo12345", "-p", "email,password"]],
  [
    "register form",
    ["-u", `${server.url}/signinsignup?mode=register`, "--data", `intent=register&displayName=Jan&email=${uniqueEmail("scan")}&password=heslo12345&confirmPassword=heslo12345`, "-p", "displayName,email,password,confirmPassword"],
  ],
];
for (const [name, target] of sqlmapTargets) {
  const log = run("sqlmap", [...target, "--batch", "--level", "3", "--risk", "2", "--flush-session", "--output-dir", path.join(out, "sqlmap"), "--disable-coloring"]);
  const injectable = /is vulnerable|appears to be .*injectable|Parameter: .* \((GET|POST)\)/i.test(log);
  const clean = /all tested parameters do not appear to be injectable/i.test(log);
  console.log(`sqlmap ${name}: ${injectable ? "INJECTABLE" : clean ? "nothing injectable" : "no verdict"}`);
  if (injectable || !clean) findings.push(`sqlmap ${name}:\n${log.split("\n").slice(-30).join("\n")}`);
}

const report = path.join(out, "wapiti.json");
run("wapiti", [
  "-u", `${server.url}/`,
  "--scope", "folder",
  "-H", `Cookie: ${cookie}`,
  // Not the modules that call out to wapiti's servers on the internet.
  "-m", "common,-ssrf,-wapp",
  "--flush-session",
  "--max-scan-time", "900",
  "-f", "json",
  "-o", report,
]);
const { vulnerabilities, anomalies } = JSON.parse(readFileSync(report, "utf8"));
const count = (group: Record<string, unknown[]>) => Object.entries(group).filter(([, list]) => list.length > 0);
const found = [...count(vulnerabilities), ...count(anomalies)];
const checked = `${Object.keys(vulnerabilities).length} vulnerability and ${Object.keys(anomalies).length} anomaly categories checked`;
console.log(`wapiti: ${found.length === 0 ? "no vulnerability, no anomaly" : found.map(([k, v]) => `${k}: ${v.length}`).join(", ")} (${checked})`);
for (const [kind, list] of found) findings.push(`wapiti ${kind}: ${JSON.stringify(list, null, 1).slice(0, 2000)}`);

await server.stop();
console.log(`reports in ${out}`);
if (findings.length) {
  console.log(findings.join("\n\n"));
  process.exit(1);
}
