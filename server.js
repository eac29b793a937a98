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
const { env, startup, sqlite, VARIANT_FILE, isCrossSiteRequest } = build.entry.module;
await startup();

const app = express();
app.disable("x-powered-by");
// The client address (for throttling) comes from the socket, or from the
// proxy's header only when the self-hoster says a proxy is in front.
app.set("trust proxy", env.trustProxy ? 1 : false);
app.use(compression());

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
    headers: { "X-Content-Type-Options": "nosniff" },
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
    getLoadContext: (req) => ({ clientAddress: req.ip ?? "unknown" }),
  }),
);

const server = app.listen(env.port, env.host, () => {
  const { port } = server.address();
  console.info(`Dejiny listening on http://${env.host.includes(":") ? `[${env.host}]` : env.host}:${port}`);
});

function shutdown(signal) {
  console.info(`${signal}: finishing open requests, then closing the database.`);
  server.close(() => {
    sqlite.close();
    process.exit(0);
  });
  server.closeIdleConnections();
}
process.once("SIGTERM", () => shutdown("SIGTERM"));
process.once("SIGINT", () => shutdown("SIGINT"));
