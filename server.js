// The HTTP server: static files, uploaded images and the Remix app.
// Everything the app decides (configuration, database, start-up) lives in
// app/ and is reached through the server build's entry module.
import { createRequestHandler } from "@remix-run/express";
import compression from "compression";
import express from "express";

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
const {
  env,
  startup,
  sqlite,
  VARIANT_FILE,
  isCrossSiteRequest,
  newNonce,
  securityHeaders,
  IMAGE_HEADERS,
  logRequest,
  requestInfo,
} = build.entry.module;
await startup();

const app = express();
app.disable("x-powered-by");
// The client address (for throttling) comes from the socket, or from the
// proxy's header only when the self-hoster says a proxy is in front.
app.set("trust proxy", env.trustProxy ? 1 : false);
app.use(compression());

// One log line per request; the app notes the signed-in user as it learns it.
app.use((req, res, next) => {
  const started = performance.now();
  const info = { userId: null };
  res.on("finish", () =>
    logRequest({ method: req.method, url: req.originalUrl, status: res.statusCode, ms: performance.now() - started, userId: info.userId }),
  );
  requestInfo.run(info, next);
});

// Security headers on every response, with a fresh CSP nonce (the dev server's own scripts go without).
app.use((req, res, next) => {
  res.locals.cspNonce = newNonce();
  if (!viteDevServer) res.set(securityHeaders(res.locals.cspNonce));
  next();
});

// Refuse state-changing requests made by other sites (CSRF), for every route.
app.use((req, res, next) => {
  if (isCrossSiteRequest(req.method, req.headers)) {
    return res.status(403).type("text/plain; charset=utf-8").send("Požiadavka z cudzej stránky bola odmietnutá.");
  }
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
  if (!VARIANT_FILE.test(req.params.name)) return res.status(404).type("text/plain").send("Not found");
  res.sendFile(req.params.name, {
    root: env.uploadsDir,
    immutable: true,
    maxAge: "1y",
    dotfiles: "deny",
    headers: IMAGE_HEADERS,
  }, (error) => {
    if (error && !res.headersSent) res.status(404).type("text/plain").send("Not found");
  });
});

if (viteDevServer) {
  app.use(viteDevServer.middlewares);
} else {
  // Built assets carry a content hash in their names: cache them for good.
  app.use("/assets", express.static("build/client/assets", { immutable: true, maxAge: "1y" }));
  app.use(express.static("build/client", { maxAge: "1h" }));
}

app.all(
  "*",
  createRequestHandler({
    build: viteDevServer ? loadBuild : build,
    mode: process.env.NODE_ENV,
    getLoadContext: (req, res) => ({ clientAddress: req.ip ?? "unknown", cspNonce: res.locals.cspNonce }),
  }),
);

const server = app.listen(env.port, env.host, () => {
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
