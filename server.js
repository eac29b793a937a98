// The HTTP server: cached pages, static files, uploaded images and the Remix
// app. Everything the app decides (configuration, database, start-up, the
// rules of the page cache) lives in app/ and is reached through the server
// build's entry module.
import { createRequestHandler } from "@remix-run/express";
import { createRequestHandler as createFetchHandler } from "@remix-run/node";
import { matchRoutes } from "@remix-run/react";
import compression from "compression";
import express from "express";
import { readdirSync } from "node:fs";
import { createServer } from "node:http";
import path from "node:path";

const dev = process.argv.includes("--dev");
process.env.NODE_ENV ??= dev ? "development" : "production";

const viteDevServer = dev
  ? await import("vite").then((vite) => vite.createServer({ server: { middlewareMode: true } }))
  : undefined;

async function loadBuild() {
  return viteDevServer
    ? viteDevServer.ssrLoadModule("virtual:remix/server-build")
    : import("./build/server/index.js");
}

let build;
try {
  build = await loadBuild();
} catch (error) {
  // A configuration mistake is the self-hoster's to fix: say what, not where.
  if (error?.name === "EnvError" || error?.constructor?.name === "EnvError") {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}
const app$ = build.entry.module;
const { env, sqlite } = app$;
await app$.startup();

// ---------------------------------------------------------------- every response

/** Log line, security headers and a fresh CSP nonce for every response. */
function beginResponse(req, res) {
  const started = performance.now();
  const info = { userId: null };
  res.on("finish", () =>
    app$.logRequest({ method: req.method, url: req.url, status: res.statusCode, ms: performance.now() - started, userId: info.userId }),
  );
  const nonce = app$.newNonce();
  // The dev server's own scripts go without.
  if (!viteDevServer) for (const [name, value] of Object.entries(app$.securityHeaders(nonce))) res.setHeader(name, value);
  return { nonce, info };
}

// ---------------------------------------------------------------- the page cache
// What may be cached and for whom: app/services/page-cache.server.ts.

const renderForCache = createFetchHandler(build, process.env.NODE_ENV);
const filling = new Map();

/** The app's routes as a tree, to tell which route an address matches before rendering anything. */
function routeTree(parentId) {
  return Object.values(build.routes)
    .filter((route) => route.parentId === parentId)
    .map((route) => ({ id: route.id, path: route.path, index: route.index, caseSensitive: route.caseSensitive, children: routeTree(route.id) }));
}
const routes = viteDevServer ? [] : routeTree(undefined);

/** What Express serves from files (the built client, uploaded images): never a page of the app. */
const clientFiles = new Set(viteDevServer ? [] : readdirSync("build/client", { recursive: true }).map((file) => `/${file.split(path.sep).join("/")}`));
function servedFromFiles(pathname) {
  if (pathname.startsWith("/images/")) return true;
  try {
    return clientFiles.has(decodeURIComponent(pathname));
  } catch {
    return false;
  }
}

/** A malformed %-escape is Express's to answer (400), not a page's. */
function decodable(pathname) {
  try {
    decodeURI(pathname);
    return true;
  } catch {
    return false;
  }
}

/** The route of the app that answers an address (the deepest match), before anything is rendered. */
function matchRoute(pathname) {
  // Remix answers its own requests: `.data` (single fetch) and `/__manifest` (lazy route discovery).
  if (servedFromFiles(pathname) || pathname.endsWith(".data") || pathname === "/__manifest" || !decodable(pathname)) return undefined;
  const match = matchRoutes(routes, pathname)?.at(-1);
  return match && { id: match.route.id, params: match.params };
}

async function fillPage(page, req) {
  const renderedAt = app$.pageVersion();
  const request = new Request(page.renderUrl, { headers: { cookie: req.headers.cookie ?? "", "user-agent": "dejiny-page-cache" } });
  const response = await renderForCache(request, { clientAddress: req.socket.remoteAddress ?? "unknown", cspNonce: app$.NONCE_PLACEHOLDER });
  const html = await response.text();
  // A page that is not what its key says (e.g. the article was just deleted) is rendered afresh instead.
  if (response.status !== page.status || response.headers.has("set-cookie")) return null;
  return app$.storePage(page.key, html, response.headers.get("content-type"), renderedAt, page.status);
}

function acceptsGzip(header = "") {
  return header.split(",").some((part) => {
    const [coding, ...params] = part.trim().split(";");
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    return coding.trim() === "gzip" && (!q || Number(q.slice(2)) > 0);
  });
}

/** Serve the request from the page cache if it can be; false when the app must handle it. */
async function serveCachedPage(req, res, nonce) {
  if (viteDevServer) return false;
  const url = new URL(req.url, env.publicUrl);
  const page = await app$.pageKey(req.method, url, req.headers.cookie, matchRoute);
  if (!page) return false;
  let entry = app$.getPage(page.key);
  if (!entry) {
    // Concurrent first requests for a page share one rendering.
    if (!filling.has(page.key)) filling.set(page.key, fillPage(page, req).finally(() => filling.delete(page.key)));
    entry = await filling.get(page.key);
    if (!entry) return false;
  }
  const gzip = acceptsGzip(req.headers["accept-encoding"]);
  const body = app$.renderPage(entry, nonce, gzip);
  res.statusCode = entry.status;
  res.setHeader("Content-Type", entry.contentType);
  res.setHeader("Content-Length", body.length);
  res.setHeader("Cache-Control", app$.pageCacheControl({ signedIn: page.signedIn, method: req.method, status: entry.status }));
  res.setHeader("Vary", "Accept-Encoding, Cookie");
  if (gzip) res.setHeader("Content-Encoding", "gzip");
  res.end(req.method === "HEAD" ? undefined : body);
  return true;
}

// ---------------------------------------------------------------- everything else

const app = express();
app.disable("x-powered-by");
// The client address (for throttling) comes from the socket, or from the
// proxy's header only when the self-hoster says a proxy is in front.
app.set("trust proxy", env.trustProxy ? 1 : false);
app.use(compression());

// Refuse state-changing requests made by other sites (CSRF), for every route.
app.use((req, res, next) => {
  if (app$.isCrossSiteRequest(req.method, req.headers)) {
    return res.status(403).type("text/plain; charset=utf-8").send("Požiadavka z cudzej stránky bola odmietnutá.");
  }
  // The check above has decided (and, for these methods, that Origin is a
  // well-formed origin). Remix compares Origin with the Host header once more,
  // and behind a proxy Host names the proxy's upstream, not the site: it gets
  // the host of the origin that was accepted.
  if (req.headers.origin && req.method === "POST") req.headers["x-forwarded-host"] = new URL(req.headers.origin).host;
  next();
});

// An upload refused part-way (e.g. an image over 2 MB) is answered before the
// browser has sent it all: discard the rest, so the browser gets the answer
// and the connection stays usable, without keeping the bytes anywhere.
app.use((req, res, next) => {
  res.on("finish", () => {
    if (!req.complete && !req.destroyed) {
      req.removeAllListeners("data");
      req.resume();
    }
  });
  next();
});

// Uploaded images: only names the image store writes; never a path.
app.get("/images/:name", (req, res) => {
  if (!app$.VARIANT_FILE.test(req.params.name)) return res.status(404).type("text/plain").send("Not found");
  res.sendFile(req.params.name, {
    root: env.uploadsDir,
    immutable: true,
    maxAge: "1y",
    dotfiles: "deny",
    headers: app$.IMAGE_HEADERS,
  }, (error) => {
    if (error && !res.headersSent) res.status(404).type("text/plain").send("Not found");
  });
});

if (viteDevServer) {
  app.use(viteDevServer.middlewares);
} else {
  // Built assets carry a content hash in their names: cache them for good.
  app.use("/assets", express.static("build/client/assets", { immutable: true, maxAge: "1y", redirect: false }));
  app.use(express.static("build/client", { maxAge: "1h", redirect: false }));
}

app.all(
  "*",
  createRequestHandler({
    build: viteDevServer ? loadBuild : build,
    mode: process.env.NODE_ENV,
    getLoadContext: (req, res) => ({ clientAddress: req.ip ?? "unknown", cspNonce: res.locals.cspNonce }),
  }),
);

// Anything that still fails: a plain answer, the details only in the log.
// (Express marks what the client got wrong, e.g. a malformed %-escape, as 400.)
app.use((error, req, res, _next) => {
  const status = error.status >= 400 && error.status < 500 ? error.status : 500;
  if (status === 500) console.error(error);
  if (!res.headersSent) res.status(status).type("text/plain; charset=utf-8").send(status === 500 ? "Unexpected Application Error!" : "Bad request");
});

// ---------------------------------------------------------------- the server

const METHODS = new Set(["GET", "HEAD", "POST"]);
const HOST = /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/;

/** A Host header the URL parser accepts (e.g. no port above 65535). */
function validHost(host = "") {
  if (!HOST.test(host)) return false;
  try {
    return Boolean(new URL(`http://${host}/`).host);
  } catch {
    return false;
  }
}

/** `?_data=` is Remix's data protocol from before single fetch: this app never asks for it. */
function asksForLegacyData(url) {
  const query = url.indexOf("?");
  // Decoded as Remix will decode it (`%5Fdata` and `_%64ata` are `_data` too).
  return query !== -1 && new URLSearchParams(url.slice(query + 1)).has("_data");
}

const server = createServer((req, res) => {
  const { nonce, info } = beginResponse(req, res);
  // Only what the site answers to: no TRACE, no `*` or absolute-form targets, no malformed Host.
  if (!METHODS.has(req.method)) {
    res.writeHead(405, { "Content-Type": "text/plain; charset=utf-8", Allow: "GET, HEAD, POST" });
    return res.end("Method not allowed");
  }
  if (!req.url.startsWith("/") || !validHost(req.headers.host) || asksForLegacyData(req.url)) {
    res.writeHead(400, { "Content-Type": "text/plain; charset=utf-8" });
    return res.end("Bad request");
  }
  // The site's own address is PUBLIC_URL; a proxy's idea of the host is never used.
  delete req.headers["x-forwarded-host"];
  if (!/^https?$/.test(req.headers["x-forwarded-proto"] ?? "http")) delete req.headers["x-forwarded-proto"];
  res.locals = { cspNonce: nonce };
  app$.requestInfo.run(info, () => {
    serveCachedPage(req, res, nonce)
      .catch((error) => {
        console.error("Page cache failed; rendering instead", error);
        return false;
      })
      .then((served) => served || app(req, res));
  });
});

// A request must arrive whole within two minutes (a 2 MB upload on a slow
// phone takes about one): a client trickling bytes cannot hold an upload slot longer.
server.requestTimeout = 120_000;

server.listen(env.port, env.host, () => {
  const { port } = server.address();
  console.info(`Dejiny listening on http://${env.host.includes(":") ? `[${env.host}]` : env.host}:${port}`);
});

// The container's stop: take no new connections, let open requests finish,
// then close the database cleanly (a WAL checkpoint). Give up after 10 s.
function shutdown(signal) {
  console.info(`${signal}: finishing open requests, then closing the database.`);
  server.close(() => {
    sqlite.close();
    process.exit(0);
  });
  // Connections kept alive close as soon as their last request is answered.
  setInterval(() => server.closeIdleConnections(), 100).unref();
  setTimeout(() => {
    console.error("Open requests did not finish in 10 s; stopping anyway.");
    sqlite.close();
    process.exit(1);
  }, 10_000).unref();
}
process.once("SIGTERM", () => shutdown("SIGTERM"));
process.once("SIGINT", () => shutdown("SIGINT"));
