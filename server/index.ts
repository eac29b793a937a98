// The HTTP server: cached pages, static files, uploaded images and the Remix
// app. Everything the app decides (configuration, database, start-up, who
// reads a page, whether its data changed) it reaches through one typed
// object, the build's `appForServer` (app/server-interface.server.ts).
import { createRequestHandler } from "@remix-run/express";
import { createRequestHandler as createFetchHandler, type ServerBuild } from "@remix-run/node";
import { matchRoutes } from "@remix-run/react";
import compression from "compression";
import express, { type ErrorRequestHandler } from "express";
import { readdirSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import path from "node:path";
import { BODY_MESSAGES } from "~/lib/rules";
import type { AppForServer } from "~/server-interface.server";
import type {} from "~/load-context";
import { isCrossSiteRequest } from "./csrf";
import { createDataAnswers, isDataRequest } from "./data-answers";
import { returnMemoryWhenQuiet } from "./idle-memory";
import { heldFileAnswers, SITE_FILE_MAX_AGE_SECONDS } from "./held-files";
import { canonicalImageName, heldImageAnswers, imageAnswers } from "./images";
import { logRequest } from "./log";
import { createPageCache, type RouteMatch } from "./page-cache";
import { createPlainAnswers } from "./plain-answers";
import { articleRead } from "./reads";
import { createSearchPages } from "./search-pages";
import { answerAndClose, MeteredRequest, watchBody } from "./request-body";
import { newNonce, securityHeaders } from "./security";

const dev = process.argv.includes("--dev");
process.env.NODE_ENV ??= dev ? "development" : "production";
const mode = process.env.NODE_ENV;

const viteDevServer = dev
  ? await import("vite").then((vite) => vite.createServer({ server: { middlewareMode: true } }))
  : undefined;

type Build = ServerBuild & { entry: { module: { appForServer: AppForServer } } };

async function loadBuild(): Promise<Build> {
  const loaded = viteDevServer
    ? ((await viteDevServer.ssrLoadModule("virtual:remix/server-build")) as Build)
    : ((await import(path.resolve("build/server/index.js"))) as Build);
  loaded.entry.module.appForServer.answerStorageFaults(loaded.routes);
  return loaded;
}

let build: Build;
try {
  build = await loadBuild();
} catch (error) {
  // A configuration mistake is the self-hoster's to fix: say what, not where.
  if ((error as Error)?.name === "EnvError") {
    console.error((error as Error).message);
    process.exit(1);
  }
  throw error;
}
const app$ = build.entry.module.appForServer;
const { env } = app$;
await app$.startup();

// ---------------------------------------------------------------- the page cache

type RouteTree = Parameters<typeof matchRoutes>[0];

/** The app's routes as a tree, to tell which route an address matches before rendering anything. */
function routeTree(parentId: string | undefined): RouteTree {
  return Object.values(build.routes)
    .filter((route) => route!.parentId === parentId)
    .map((route) => ({ id: route!.id, path: route!.path, index: route!.index, caseSensitive: route!.caseSensitive, children: routeTree(route!.id) }) as RouteTree[number]);
}
const routes = viteDevServer ? [] : routeTree(undefined);

/** What Express serves from files (the built client, uploaded images): never a page of the app. */
const clientFiles = new Set(
  viteDevServer ? [] : readdirSync("build/client", { recursive: true, encoding: "utf8" }).map((file) => `/${file.split(path.sep).join("/")}`),
);
function servedFromFiles(pathname: string): boolean {
  if (pathname.startsWith("/images/")) return true;
  try {
    return clientFiles.has(decodeURIComponent(pathname));
  } catch {
    return false;
  }
}

/** A malformed %-escape is Express's to answer (400), not a page's. */
function decodable(pathname: string): boolean {
  try {
    decodeURI(pathname);
    return true;
  } catch {
    return false;
  }
}

/** The route of the app that answers an address (the deepest match), before anything is rendered. */
function matchRoute(pathname: string): RouteMatch | undefined {
  // Remix answers its own requests: `.data` (single fetch) and `/__manifest` (lazy route discovery).
  if (servedFromFiles(pathname) || pathname.endsWith(".data") || pathname === "/__manifest" || !decodable(pathname)) return undefined;
  const match = matchRoutes(routes, pathname)?.at(-1);
  return match && { id: match.route.id!, params: match.params };
}

// The app's own handler, without Express (the dev server's goes through Vite's middleware).
const renderApp = createFetchHandler(build, mode);
// A new search: a visitor's page made from a kept page of the same list, its data without Remix's handler
// (DEJINY_SEARCH_SHORTCUTS=off leaves both to Remix, to compare: tests/integration/articles/search-pages.test.ts).
const searchShortcuts = !viteDevServer && process.env.DEJINY_SEARCH_SHORTCUTS !== "off";
const searchPage = searchShortcuts ? createSearchPages({ pages: app$.pages, render: renderApp, publicUrl: env.publicUrl }) : undefined;
// The headers of every answer, for the answers prepared once (a kept page's or an image's own policy replaces the nonce's).
const preparedSecurityHeaders = securityHeaders("", { https: env.secureCookies });
// The dev server renders every page afresh.
const pageCache = viteDevServer
  ? undefined
  : createPageCache({ pages: app$.pages, render: renderApp, matchRoute, publicUrl: env.publicUrl, searchPage, securityHeaders: preparedSecurityHeaders, trustProxy: env.trustProxy });
// Data requests (navigations with JavaScript: a search as the reader types) skip Express and its compression stream.
const dataAnswers = viteDevServer
  ? undefined
  : createDataAnswers({ render: renderApp, publicUrl: env.publicUrl, trustProxy: env.trustProxy, searchData: searchShortcuts ? app$.pages.searchData : undefined });

// Health, robots.txt and the tag list: answered before the page cache, Express and Remix.
const plainAnswers = createPlainAnswers({ app: app$, tagsFile: viteDevServer ? null : "build/client/tags.json" });

// ---------------------------------------------------------------- everything else

const answerImage = imageAnswers(app$);
const answerHeldImage = viteDevServer ? undefined : heldImageAnswers(app$, preparedSecurityHeaders);
// The built scripts and stylesheet (compressed at build time) and the site's pictures (the dev server's come from Vite).
const answerHeldFile = viteDevServer
  ? undefined
  : heldFileAnswers({ compressedAssets: "build/compressed/assets", pictures: "build/client/img", securityHeaders: preparedSecurityHeaders });

const app = express();
app.disable("x-powered-by");
// The client address (for throttling) comes from the socket, or from the
// proxy's header only when the self-hoster says a proxy is in front.
app.set("trust proxy", env.trustProxy ? 1 : false);
app.use(compression());

// Refuse state-changing requests made by other sites (CSRF), for every route.
app.use((req, res, next) => {
  if (isCrossSiteRequest(req.method, req.headers, env.publicUrl)) {
    res.status(403).type("text/plain; charset=utf-8").send("Z bezpečnostných dôvodov sme odmietli formulár odoslaný z inej stránky. Otvorte stránku Dejiny priamo a skúste to, prosím, znova.");
    return;
  }
  // The check above has decided (and, for these methods, that Origin is a
  // well-formed origin). Remix compares Origin with the Host header once more,
  // and behind a proxy Host names the proxy's upstream, not the site: it gets
  // the host of the origin that was accepted.
  if (req.headers.origin && req.method === "POST") req.headers["x-forwarded-host"] = new URL(req.headers.origin).host;
  next();
});

// A read-only replica (READ_ONLY) answers no form: every POST is a write
// (sign-ins too), and a proxy in front is meant to send them to the primary.
if (env.readOnly) {
  app.post("*", (_req, res) => {
    res.status(503).set("Retry-After", "60").type("text/plain; charset=utf-8").send("Stránka je teraz len na čítanie, zmeny sa nedajú uložiť. Skúste to, prosím, o chvíľu znova.");
  });
}

// Uploaded images at any other spelling of their address (encoded, a trailing slash…): the canonical one is answered before Express.
app.get("/images/:name", (req, res, next) => answerImage(req, res, req.params.name).catch(next));

if (viteDevServer) {
  app.use(viteDevServer.middlewares);
} else {
  // Built assets carry a content hash in their names: cache them for good.
  app.use("/assets", express.static("build/client/assets", { immutable: true, maxAge: "1y", redirect: false }));
  // Only the addresses of the build's other files reach the disk: a page or a data request costs no stat().
  const clientFile = express.static("build/client", { maxAge: SITE_FILE_MAX_AGE_SECONDS * 1000, redirect: false });
  app.use((req, res, next) => (servedFromFiles(req.path) ? clientFile(req, res, next) : next()));
}

app.all(
  "*",
  createRequestHandler({
    build: viteDevServer ? loadBuild : build,
    mode,
    getLoadContext: (req, res) => ({ clientAddress: req.ip ?? "unknown", cspNonce: res.locals.cspNonce as string }),
  }),
);

/** What a request the site cannot read is told (a malformed address, a header too large…): plain text. */
const BAD_REQUEST = "Chybná požiadavka.";

// Anything that still fails: a plain answer, the details only in the log.
// (Express marks what the client got wrong, e.g. a malformed %-escape, as 400.)
function answerFailure(error: { status?: unknown }, res: ServerResponse): void {
  const status = typeof error?.status === "number" && error.status >= 400 && error.status < 500 ? error.status : 500;
  if (status === 500) console.error(error);
  if (res.headersSent) return;
  res.writeHead(status, { "Content-Type": "text/plain; charset=utf-8" });
  res.end(status === 500 ? "Unexpected Application Error!" : BAD_REQUEST);
}
app.use(((error, _req, res, _next) => answerFailure(error, res)) as ErrorRequestHandler);

// ---------------------------------------------------------------- the server

const METHODS = new Set(["GET", "HEAD", "POST"]);
const HOST = /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/;

// The last Host header found valid: nearly every request names the same one (building a URL for it was 2 % of an image's cost).
let validHostSeen: string | undefined;

/** A Host header the URL parser accepts (e.g. no port above 65535). */
function validHost(host = ""): boolean {
  if (host === validHostSeen) return true;
  if (!HOST.test(host)) return false;
  try {
    if (!new URL(`http://${host}/`).host) return false;
  } catch {
    return false;
  }
  validHostSeen = host;
  return true;
}

/** `?_data=` is Remix's data protocol from before single fetch: this app never asks for it. */
function asksForLegacyData(url: string): boolean {
  const query = url.indexOf("?");
  // Decoded as Remix will decode it (`%5Fdata` and `_%64ata` are `_data` too).
  return query !== -1 && new URLSearchParams(url.slice(query + 1)).has("_data");
}

/** A target the site answers to: a path (no `*` or absolute form), a valid Host, no `_data`. */
function answerableTarget(req: IncomingMessage): boolean {
  return req.url!.startsWith("/") && validHost(req.headers.host) && !asksForLegacyData(req.url!);
}

/** A GET or HEAD with no body and an answerable target: what passes every check of the full path below. */
function plainRead(req: IncomingMessage): boolean {
  if (req.method !== "GET" && req.method !== "HEAD") return false;
  if (req.headers["content-length"] !== undefined || req.headers["transfer-encoding"] !== undefined) return false;
  return answerableTarget(req);
}

/**
 * What is ready in memory, asked for by a plain read: an image held at its
 * own address, a file of the build (a script compressed at build time, a
 * picture of the site), or a kept page whose reader is known at once. Answered in
 * one write, without the nonce, the request record or a promise. False when
 * it is not that: the full path then answers it.
 */
function answeredFromMemory(req: IncomingMessage, res: ServerResponse, info: { userId: string | null }): boolean {
  if (!answerHeldImage || !answerHeldFile || !pageCache || !plainRead(req) || plainAnswers.answers(req)) return false;
  const image = canonicalImageName(req.url!);
  if (image !== undefined) return answerHeldImage(req, res, image);
  if (answerHeldFile(req, res)) return true;
  return pageCache.answerKept(req, res, (userId) => (info.userId = userId));
}

/** A read of an article (server/reads.ts), counted by the app once the answer has gone, whichever path answered it. */
function noteRead(req: IncomingMessage, url: string, status: number): void {
  try {
    const postId = articleRead(req, url, status);
    if (postId !== null) app$.noteRead(postId, req.headers.cookie)?.catch((error) => console.error("A read could not be counted", error));
  } catch (error) {
    // A count is never worth a failing request (the answer has gone anyway), nor a crash.
    console.error("A read could not be counted", error);
  }
}

/** The log line of the request each connection is working on, for the answers Node gives itself (clientError). */
const requestOf = new WeakMap<Duplex, { log: (status: number) => void; res: ServerResponse }>();

// Timeouts are checked every 5 s (Node: every 30 s), so headersTimeout below means about 15 s, not 45.
const server = createServer({ IncomingMessage: MeteredRequest, connectionsCheckingInterval: 5_000 }, (incoming: IncomingMessage, res: ServerResponse) => {
  const req = incoming as MeteredRequest;
  // Log line, security headers and a fresh CSP nonce for every response.
  const started = performance.now();
  // As the client asked: Express's mounts (/assets) change req.url on the way.
  const url = req.url!;
  const info: { userId: string | null } = { userId: null };
  let logged = false;
  const log = (status: number) => {
    if (logged) return;
    logged = true;
    // A body not read to its end (refused, cut, or not needed for the answer): how much of it was.
    const bodyRead = req.complete ? undefined : req.bodyBytes;
    logRequest({ method: req.method!, url, status, ms: performance.now() - started, userId: info.userId, bodyRead });
  };
  const current = { log, res };
  requestOf.set(req.socket, current);
  res.on("finish", () => {
    log(res.statusCode);
    if (requestOf.get(req.socket) === current) requestOf.delete(req.socket);
    noteRead(req, url, res.statusCode);
  });
  if (answeredFromMemory(req, res, info)) return;
  const nonce = newNonce();
  // The dev server's own scripts go without.
  if (!viteDevServer) for (const [name, value] of Object.entries(securityHeaders(nonce, { https: env.secureCookies }))) res.setHeader(name, value);
  if (!watchBody(req, res, log)) return;

  // Only what the site answers to: no TRACE, no `*` or absolute-form targets, no malformed Host.
  if (!METHODS.has(req.method!)) {
    res.writeHead(405, { "Content-Type": "text/plain; charset=utf-8", Allow: "GET, HEAD, POST" });
    return res.end("Táto metóda nie je povolená.");
  }
  if (!answerableTarget(req)) {
    res.writeHead(400, { "Content-Type": "text/plain; charset=utf-8" });
    return res.end(BAD_REQUEST);
  }
  // The site's own address is PUBLIC_URL; a proxy's idea of the host is never used.
  delete req.headers["x-forwarded-host"];
  if (!/^https?$/.test(String(req.headers["x-forwarded-proto"] ?? "http"))) delete req.headers["x-forwarded-proto"];
  if (plainAnswers.serve(req, res)) return;
  app$.requestInfo.run(info, () => {
    // An image at its own address needs neither the page cache nor Express: it is most of what a page asks for.
    const image = req.method === "POST" ? undefined : canonicalImageName(req.url!);
    if (image) {
      answerImage(req, res, image).catch((error) => answerFailure(error, res));
      return;
    }
    if (dataAnswers && isDataRequest(req.method!, req.url!)) {
      dataAnswers(req, res, nonce).catch((error) => answerFailure(error, res));
      return;
    }
    (pageCache?.serve(req, res) ?? Promise.resolve(false))
      .catch((error) => {
        console.error("Page cache failed; rendering instead", error);
        return false;
      })
      .then((served) => {
        if (served) return;
        // Express's own request and response, with the nonce for the Remix handler.
        (res as express.Response).locals = { cspNonce: nonce };
        app(req, res);
      });
  });
});

// A request must arrive whole within two minutes (a 2 MB upload on a slow
// phone takes about one); a body that stalls is cut sooner (watchBody).
server.requestTimeout = 120_000;
// Headers come in one packet from any real client: one that sends them a
// line at a time (slowloris) is cut after 15 s instead of Node's 60.
server.headersTimeout = 15_000;
// An idle kept-alive connection stays open 65 s (Node: 5 s), longer than the
// proxies in front keep theirs (nginx 55 s, Caddy 55 s as deploy/ sets them),
// so the proxy closes first. Otherwise a request sent on a connection just
// as the server closes it gets no answer (seen under load: "other side
// closed"), and a proxy does not send a form again on its own.
server.keepAliveTimeout = 65_000;
// Each open connection costs a file descriptor and a few KB: past this
// many, new ones are closed at once instead of running the process out of
// descriptors (which would fail its own file and database opens). A proxy
// in front (deploy/nginx, compose's Caddy) keeps such floods off the site.
server.maxConnections = 4_000;

// What Node answers itself (a request out of time, malformed or oversized
// headers) is logged like any answer; a client that went away is not.
server.on("clientError", (error: NodeJS.ErrnoException, socket: Duplex) => {
  const current = requestOf.get(socket);
  if (error.code === "ECONNRESET" || !socket.writable || current?.res.headersSent) {
    socket.destroy();
    return;
  }
  const status = error.code === "ERR_HTTP_REQUEST_TIMEOUT" ? 408 : error.code === "HPE_HEADER_OVERFLOW" ? 431 : 400;
  if (current) current.log(status);
  else logRequest({ method: "-", url: "-", status, ms: 0, userId: null });
  answerAndClose(socket, status, status === 408 ? BODY_MESSAGES.tooSlow : BAD_REQUEST);
});

server.listen(env.port, env.host, () => {
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : env.port;
  returnMemoryWhenQuiet();
  if (env.passwordHashCost < 10) console.warn(`PASSWORD_HASH_COST is ${env.passwordHashCost}: passwords hashed now are cheap to guess; fine for tests, not for a real site.`);
  console.info(`Dejiny listening on http://${env.host.includes(":") ? `[${env.host}]` : env.host}:${port}`);
});

// The container's stop: take no new connections, let open requests finish,
// then write the counted reads and close the database cleanly (a WAL
// checkpoint). Give up after 10 s.
function shutdown(signal: string): void {
  console.info(`${signal}: finishing open requests, then closing the database.`);
  server.close(() => {
    app$.close();
    process.exit(0);
  });
  // Connections kept alive close as soon as their last request is answered.
  setInterval(() => server.closeIdleConnections(), 100).unref();
  setTimeout(() => {
    console.error("Open requests did not finish in 10 s; stopping anyway.");
    app$.close();
    process.exit(1);
  }, 10_000).unref();
}
process.once("SIGTERM", () => shutdown("SIGTERM"));
process.once("SIGINT", () => shutdown("SIGINT"));
