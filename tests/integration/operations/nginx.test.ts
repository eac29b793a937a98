// deploy/nginx/dejiny.conf, as a self-hoster installs it, run by Debian's real
// nginx in front of the built server: TLS with a self-signed certificate,
// HTTP → HTTPS, the client's address, forms through the proxy, HSTS, and the
// proxy cache, which must keep anonymous pages and never a signed-in one.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { request } from "node:https";
import { request as plainRequest } from "node:http";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GOOD_PASSWORD, uniqueEmail } from "../../../scripts/lib/client";
import { startServer, type RunningServer } from "../../../scripts/lib/server";
import { runBuildCommand } from "../../support/commands";

const NGINX = process.env.NGINX_PATH ?? "/usr/sbin/nginx";
const DOMAIN = "dejiny.test";

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

type Answer = { status: number; headers: Record<string, string | string[] | undefined>; body: Buffer; text: string };

/** One request to nginx, from a given loopback address (a "client" of its own), as a browser would send it. */
function send(
  port: number,
  pathname: string,
  {
    method = "GET",
    headers = {},
    body,
    from = "127.0.0.1",
    tls = true,
    servername = DOMAIN,
  }: { method?: string; headers?: Record<string, string>; body?: string | Buffer; from?: string; tls?: boolean; servername?: string } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const options = { host: "127.0.0.1", port, path: pathname, method, localAddress: from, servername, rejectUnauthorized: false, headers: { Host: `${DOMAIN}:${port}`, ...headers } };
    const req = (tls ? request : plainRequest)(options, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk) => chunks.push(chunk));
      res.on("end", () => {
        const raw = Buffer.concat(chunks);
        const body = res.headers["content-encoding"] === "gzip" ? gunzipSync(raw) : raw;
        resolve({ status: res.statusCode!, headers: res.headers, body: raw, text: body.toString() });
      });
    });
    req.on("error", reject);
    req.end(body);
  });
}

describe("the site behind nginx (deploy/nginx/dejiny.conf)", () => {
  let app: RunningServer;
  let nginx: ChildProcess;
  let nginxLog = "";
  const dir = mkdtempSync(path.join(tmpdir(), "dejiny-nginx-"));
  const ports = { http: 0, https: 0 };
  let origin = "";

  beforeAll(async () => {
    ports.http = await freePort();
    ports.https = await freePort();
    origin = `https://${DOMAIN}:${ports.https}`;
    app = await startServer({ PUBLIC_URL: origin, TRUST_PROXY: "true", SESSION_SECRET: "n".repeat(64), DEMO_CONTENT: "on" });
    const upstream = new URL(app.url).host;

    execFileSync("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", `/CN=${DOMAIN}`, "-keyout", path.join(dir, "key.pem"), "-out", path.join(dir, "cert.pem")], { stdio: "ignore" });
    // The installed file with only what a self-hoster changes: domain, certificate, the app's address; and this test's ports and folders.
    const site = readFileSync("deploy/nginx/dejiny.conf", "utf8")
      .replaceAll("dejiny.example", DOMAIN)
      .replace(`/etc/letsencrypt/live/${DOMAIN}/fullchain.pem`, path.join(dir, "cert.pem"))
      .replace(`/etc/letsencrypt/live/${DOMAIN}/privkey.pem`, path.join(dir, "key.pem"))
      .replace("server 127.0.0.1:3000;", `server ${upstream};`)
      .replace("/var/cache/nginx/dejiny", path.join(dir, "cache"))
      .replace(/listen 80 default_server;\n\s*listen \[::\]:80 default_server;/, `listen 127.0.0.1:${ports.http} default_server;`)
      .replace(/listen 443 ssl http2 default_server;\n\s*listen \[::\]:443 ssl http2 default_server;/, `listen 127.0.0.1:${ports.https} ssl http2 default_server;`)
      .replace(/listen 80;\n\s*listen \[::\]:80;/, `listen 127.0.0.1:${ports.http};`)
      .replace(/listen 443 ssl http2;\n\s*listen \[::\]:443 ssl http2;/, `listen 127.0.0.1:${ports.https} ssl http2;`)
      // nginx's own redirect keeps the test's port (a real site is on 443).
      .replace("return 301 https://$host$request_uri;", `return 301 https://$host:${ports.https}$request_uri;`);
    expect(site.replace(/^\s*#.*$/gm, "")).not.toMatch(/letsencrypt|:3000|listen (80|443)|example/);
    mkdirSync(path.join(dir, "temp"));
    writeFileSync(path.join(dir, "dejiny.conf"), site);
    writeFileSync(
      path.join(dir, "nginx.conf"),
      // As root (CI), nginx's workers would be "nobody", shut out of this test's private folder.
      `${process.getuid?.() === 0 ? "user root;" : ""} pid ${dir}/nginx.pid; error_log ${dir}/error.log; events {}
       http { access_log off; client_body_temp_path ${dir}/temp/body; proxy_temp_path ${dir}/temp/proxy; fastcgi_temp_path ${dir}/temp/fcgi;
              uwsgi_temp_path ${dir}/temp/uwsgi; scgi_temp_path ${dir}/temp/scgi; include ${dir}/dejiny.conf; }`,
    );
    nginx = spawn(NGINX, ["-p", dir, "-c", path.join(dir, "nginx.conf"), "-g", "daemon off;"], { stdio: ["ignore", "pipe", "pipe"] });
    nginx.stderr!.on("data", (chunk) => (nginxLog += chunk));
    for (let i = 0; ; i++) {
      const status = await send(ports.https, "/healthz").then((answer) => answer.status, () => 0);
      if (status === 200) break;
      if (i > 50) throw new Error(`nginx did not answer (${status}): ${nginxLog} ${readFileSync(path.join(dir, "error.log"), "utf8")}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });

  afterAll(async () => {
    nginx?.kill("SIGTERM");
    await app?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("sends plain HTTP to HTTPS, and HTTPS carries HSTS", async () => {
    const plain = await send(ports.http, "/posts?tag=Morava", { tls: false });
    expect(plain.status).toBe(301);
    expect(plain.headers.location).toBe(`${origin}/posts?tag=Morava`);
    const page = await send(ports.https, "/posts");
    expect(page.status).toBe(200);
    expect(page.headers["strict-transport-security"]).toBe("max-age=31536000; includeSubDomains");
  });

  it("keeps an anonymous page and serves it from the cache, compressed or not, with its policy", async () => {
    const first = await send(ports.https, "/conflicts", { headers: { "Accept-Encoding": "gzip" } });
    expect(first.headers["x-cache-status"]).toBe("MISS");
    const second = await send(ports.https, "/conflicts", { headers: { "Accept-Encoding": "gzip" } });
    expect(second.headers["x-cache-status"]).toBe("HIT");
    expect(second.headers["content-encoding"]).toBe("gzip");
    expect(second.text).toBe(first.text);
    // The policy names the page's scripts by hash: valid for everyone the proxy hands the page to.
    expect(second.headers["content-security-policy"]).toMatch(/script-src 'self'( 'sha256-[\w+/=]{44}')+;/);
    const withoutGzip = await send(ports.https, "/conflicts");
    expect(withoutGzip.headers["content-encoding"]).toBeUndefined();
    expect(withoutGzip.text).toBe(first.text);
  });

  it("lets a hidden article and its image go once their minute is over: visitors then get 404, never the copy it kept", async () => {
    const id = /href="\/posts\/([\w-]+)"/.exec((await send(ports.https, "/posts")).text)![1];
    const page = await send(ports.https, `/posts/${id}`);
    expect(page.headers["x-cache-status"]).toBe("MISS");
    expect((await send(ports.https, `/posts/${id}`)).headers["x-cache-status"]).toBe("HIT");
    const image = /<meta property="og:image" content="https?:\/\/[^/"]+(\/images\/[^"]+)"/.exec(page.text)![1];
    expect([(await send(ports.https, image)).headers["x-cache-status"], (await send(ports.https, image)).headers["x-cache-status"]]).toEqual(["MISS", "HIT"]);
    const hidden = await runBuildCommand("runAdminCommand", ["hide", id, "Skryté pre test proxy."], app);
    expect(hidden.code, hidden.output).toBe(0);
    // The app's own page cache forgets it at once; nginx keeps its copies for the minute it allows a page and an image.
    await new Promise((resolve) => setTimeout(resolve, 62_000));
    for (let i = 0; i < 3; i++) {
      for (const path of [`/posts/${id}`, image]) {
        const answer = await send(ports.https, path);
        expect([answer.status, answer.headers["x-cache-status"]], path).toEqual([404, "EXPIRED"]);
      }
    }
    // An admin still gets the image, private and past the cache; the next visitor does not get their copy.
    const email = uniqueEmail("nginx-admin");
    const registered = await register("Správkyňa Obrázkov", email);
    expect((await runBuildCommand("runAdminCommand", ["grant", email], app)).code).toBe(0);
    const cookie = [registered.headers["set-cookie"]].flat().join().match(/dejiny_session=[^;]+/)![0];
    const admins = await send(ports.https, image, { headers: { Cookie: cookie } });
    expect([admins.status, admins.headers["cache-control"], admins.headers["x-cache-status"]]).toEqual([200, "private, no-store", "BYPASS"]);
    expect((await send(ports.https, image)).status).toBe(404);
  });

  /** The sign-in page's form, posted through nginx from `from` as a browser on the site would. */
  const postForm = (fields: Record<string, string>, { from = "127.0.0.1", headers = {} }: { from?: string; headers?: Record<string, string> } = {}) =>
    send(ports.https, "/signinsignup", {
      method: "POST",
      from,
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: origin, ...headers },
      body: new URLSearchParams(fields).toString(),
    });
  const register = (displayName: string, email: string) =>
    postForm({ intent: "register", displayName, email, password: GOOD_PASSWORD, confirmPassword: GOOD_PASSWORD });

  it("keeps an image once, whatever query its address carries", async () => {
    const src = /src="(\/images\/[^"]+)"/.exec((await send(ports.https, "/posts")).text)![1];
    const answers = [];
    for (const query of ["", "?1", "?2"]) answers.push(await send(ports.https, `${src}${query}`));
    expect(answers.map((answer) => [answer.status, answer.headers["x-cache-status"]])).toEqual([
      [200, "MISS"],
      [200, "HIT"],
      [200, "HIT"],
    ]);
  });

  it("keeps no search (nobody learns what others looked for), and answers no other name", async () => {
    for (let i = 0; i < 2; i++) expect((await send(ports.https, "/posts?q=morava")).headers["x-cache-status"]).toBe("BYPASS");
    // A made-up name neither reaches the site nor fills the cache: no TLS for it, and nothing over plain HTTP.
    await expect(send(ports.https, "/posts", { servername: "iny.invalid", headers: { Host: "iny.invalid" } })).rejects.toThrow();
    await expect(send(ports.https, "/posts", { headers: { Host: "iny.invalid" } })).rejects.toThrow();
    await expect(send(ports.http, "/posts", { tls: false, headers: { Host: "iny.invalid" } })).rejects.toThrow();
  });

  it("takes the client's address from nginx, not from what a client writes", async () => {
    const email = uniqueEmail("nginx");
    expect((await register("Za proxy", email)).status).toBe(303);
    const wrong = (from: string, forwardedFor?: string) =>
      postForm({ intent: "signin", email, password: "zle-heslo-123" }, { from, headers: forwardedFor ? { "X-Forwarded-For": forwardedFor } : {} });
    // Ten wrong passwords from one address lock the account from that address only…
    for (let i = 0; i < 10; i++) expect((await wrong("127.0.0.2")).status).toBe(400);
    expect((await wrong("127.0.0.2")).status).toBe(429);
    // …which a client cannot escape by naming another address itself: nginx adds the one it saw.
    expect((await wrong("127.0.0.2", "198.51.100.7")).status).toBe(429);
    // Another client (another address, as nginx saw it) is not locked out.
    expect((await wrong("127.0.0.3")).status).toBe(400);
  });

  it("passes forms through with their Origin check, and never keeps a signed-in page or one that sets a cookie", async () => {
    const registered = await register("Tajná Čitateľka", uniqueEmail("nginx-reader"));
    expect(registered.status).toBe(303);
    const setCookie = [registered.headers["set-cookie"]].flat().join();
    expect(setCookie).toMatch(/dejiny_session=.*; Secure/);
    expect(registered.headers["x-cache-status"]).not.toBe("HIT");
    // A form from another site is refused through the proxy as without it.
    const forged = await send(ports.https, "/signout", { method: "POST", headers: { Origin: "https://evil.example" } });
    expect(forged.status).toBe(403);

    const cookie = setCookie.match(/dejiny_session=[^;]+/)![0];
    for (const pathname of ["/posts", "/", "/posts?tag=Morava"]) {
      // The anonymous page is in the cache first, so a mistake would show.
      await send(ports.https, pathname);
      const signedIn = await send(ports.https, pathname, { headers: { Cookie: cookie } });
      expect(signedIn.text, pathname).toContain("Tajná Čitateľka");
      expect(signedIn.headers["x-cache-status"], pathname).toBe("BYPASS");
      expect(signedIn.headers["cache-control"], pathname).toBe("private, no-store");
      // The next visitor gets the anonymous page, never the reader's.
      const visitor = await send(ports.https, pathname);
      expect(visitor.text, pathname).not.toContain("Tajná Čitateľka");
      expect(visitor.text, pathname).toContain("Prihlásiť sa");
    }
  });

  it("refuses a body no form can send, and lets a normal one through", async () => {
    const huge = await send(ports.https, "/create-post", { method: "POST", headers: { Origin: origin, "Content-Type": "multipart/form-data; boundary=x" }, body: Buffer.alloc(4 * 1024 * 1024) });
    expect(huge.status).toBe(413);
    const tags = await send(ports.https, "/tags.json");
    expect(JSON.parse(tags.text)).toHaveLength(30);
  });
});
