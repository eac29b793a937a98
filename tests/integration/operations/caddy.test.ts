import { execFile, spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { request as httpsRequest } from "node:https";
import { createServer, type LookupFunction } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../../../scripts/lib/server";

/** compose.yaml's reverse proxy, run with Debian's Caddy (`apt-get install caddy`). */
const CADDY = process.env.CADDY_PATH ?? "/usr/bin/caddy";
const CADDYFILE = fileURLToPath(new URL("../../../deploy/Caddyfile", import.meta.url));
const DOMAIN = "dejiny.test";

function caddy(args: string[], env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(CADDY, args, { env: { PATH: process.env.PATH, ...env } as unknown as NodeJS.ProcessEnv }, (error, stdout, stderr) =>
      error ? reject(new Error(`caddy ${args[0]} failed: ${stderr}`)) : resolve(stdout),
    );
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

describe("deploy/Caddyfile, as written for production", () => {
  it("is valid, with automatic HTTPS for DEJINY_DOMAIN in front of the app service", async () => {
    const home = mkdtempSync(path.join(tmpdir(), "dejiny-caddy-"));
    const env = { DEJINY_DOMAIN: "dejiny.example", HOME: home, XDG_DATA_HOME: home, XDG_CONFIG_HOME: home };
    try {
      const config = JSON.parse(await caddy(["adapt", "--adapter", "caddyfile", "--config", CADDYFILE], env));
      const server = Object.values(config.apps.http.servers)[0] as { listen: string[]; routes: unknown[]; automatic_https?: unknown };
      expect(server.listen).toEqual([":443"]);
      expect(server.automatic_https).toBeUndefined(); // not disabled: certificates are obtained and renewed
      const routes = JSON.stringify(server.routes);
      expect(routes).toContain('"host":["dejiny.example"]');
      expect(routes).toContain('"dial":"app:3000"');
      // Idle connections to the app closed before the app closes them (65 s).
      expect(routes).toContain('"keep_alive":{"idle_timeout":55000000000}');
      expect(config.apps.tls?.automation?.policies ?? []).not.toContainEqual(expect.objectContaining({ issuers: [{ module: "internal" }] }));
      await caddy(["validate", "--adapter", "caddyfile", "--config", CADDYFILE], env);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});

describe("the app behind Caddy", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "dejiny-proxy-"));
  let app: RunningServer;
  let proxy: ChildProcess;
  let proxyLog = "";
  let ports: { http: number; https: number };
  let ca: Buffer;
  let origin: string;

  // Every request goes to Caddy on 127.0.0.1 by the site's name (SNI and Host), trusting Caddy's local CA.
  const toLocalhost: LookupFunction = (_host, options, callback) =>
    options.all ? callback(null, [{ address: "127.0.0.1", family: 4 }]) : callback(null, "127.0.0.1", 4);

  function send(url: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}) {
    const { protocol, port, pathname, search } = new URL(url);
    const request = (protocol === "https:" ? httpsRequest : httpRequest) as typeof httpsRequest;
    return new Promise<{ status: number; headers: IncomingHttpHeaders; body: string }>((resolve, reject) => {
      const req = request(
        { host: DOMAIN, port, path: `${pathname}${search}`, method: init.method ?? "GET", headers: init.headers, lookup: toLocalhost, ca },
        (res) => {
          let body = "";
          res.setEncoding("utf8").on("data", (chunk) => (body += chunk));
          res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body }));
        },
      );
      req.on("error", reject).end(init.body);
    });
  }

  const postForm = (fields: Record<string, string>, headers: Record<string, string>) =>
    send(`${origin}/signinsignup`, { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers }, body: new URLSearchParams(fields).toString() });

  beforeAll(async () => {
    ports = { http: await freePort(), https: await freePort() };
    origin = `https://${DOMAIN}:${ports.https}`;
    // As compose.yaml sets it (with the test's port in the public address).
    app = await startServer({ TRUST_PROXY: "true", PUBLIC_URL: origin, DEMO_CONTENT: "off" }, path.join(dir, "app"));
    // The test's differences from production, all here: Caddy's local CA instead of
    // Let's Encrypt, high ports, no admin API, its storage in the temporary folder;
    // and DEJINY_UPSTREAM points at the test's server instead of app:3000.
    writeFileSync(
      path.join(dir, "Caddyfile"),
      `{\n\tlocal_certs\n\tskip_install_trust\n\thttp_port ${ports.http}\n\thttps_port ${ports.https}\n\tadmin off\n\tstorage file_system ${dir}/caddy\n}\nimport ${CADDYFILE}\n`,
    );
    const upstream = new URL(app.url).host;
    proxy = spawn(CADDY, ["run", "--adapter", "caddyfile", "--config", path.join(dir, "Caddyfile")], {
      env: { PATH: process.env.PATH, HOME: dir, XDG_DATA_HOME: dir, XDG_CONFIG_HOME: dir, DEJINY_DOMAIN: DOMAIN, DEJINY_UPSTREAM: upstream } as unknown as NodeJS.ProcessEnv,
      stdio: ["ignore", "pipe", "pipe"],
    });
    proxy.stdout!.on("data", (chunk) => (proxyLog += chunk));
    proxy.stderr!.on("data", (chunk) => (proxyLog += chunk));
    // Ready once it answers over TLS with a certificate of its CA for the domain.
    for (let attempt = 0; ; attempt++) {
      try {
        ca = readFileSync(path.join(dir, "caddy", "pki", "authorities", "local", "root.crt"));
        if ((await send(`${origin}/healthz`)).status === 200) break;
      } catch (error) {
        if (attempt > 100 || proxy.exitCode !== null) throw new Error(`Caddy did not start: ${error}\n${proxyLog}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  });
  afterAll(async () => {
    if (proxy && proxy.exitCode === null) {
      const exited = new Promise((resolve) => proxy.once("exit", resolve));
      proxy.kill("SIGTERM");
      await exited;
    }
    await app?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("redirects http:// to https:// and serves the pages over TLS, with HSTS", async () => {
    const plain = await send(`http://${DOMAIN}:${ports.http}/posts?tag=Ostatn%C3%A9`);
    expect(plain.status).toBe(308);
    // To the standard https port: the test's high one is not named (in production it is 443).
    expect(plain.headers.location).toBe(`https://${DOMAIN}/posts?tag=Ostatn%C3%A9`);

    const page = await send(`${origin}/posts`);
    expect(page.status).toBe(200);
    expect(page.body).toContain("<h1");
    expect(page.headers["strict-transport-security"]).toBe("max-age=31536000; includeSubDomains");
  });

  it("passes a form POST through with its Origin: same-site is accepted (a Secure cookie), cross-site refused", async () => {
    const fields = { intent: "register", displayName: "Za proxy", email: "proxy@example.com", password: "dlhe-heslo-1", confirmPassword: "dlhe-heslo-1" };
    const registered = await postForm(fields, { Origin: origin });
    expect(registered.status, registered.body).toBe(303);
    const cookie = registered.headers["set-cookie"]!.find((line) => line.startsWith("dejiny_session="))!;
    expect(cookie).toMatch(/; Secure/i);

    const account = await send(`${origin}/account`, { headers: { Cookie: cookie.split(";")[0] } });
    expect(account.status).toBe(200);
    expect(account.body).toContain("Za proxy");

    const forged = await postForm({ ...fields, email: "forged@example.com" }, { Origin: "https://evil.example" });
    expect(forged.status).toBe(403);
  });
});
