// Record one gzip response of the app and start the ceiling server replaying it.
import { writeFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startListeningProcess } from "./processes.js";

const REPLAYED_HEADERS = ["content-type", "content-encoding"];
/** Headers Node writes itself for each answer. */
const NODE_HEADERS = new Set(["date", "connection", "keep-alive", "transfer-encoding", "content-length"]);

/** GET with node:http (fetch would decompress): status, headers and the body bytes as sent. */
export function getRaw(url, headers) {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        const chunks = [];
        res.on("data", (chunk) => chunks.push(chunk));
        res.on("end", () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on("error", reject);
      })
      .on("error", reject);
  });
}

/**
 * Record `url` as fetched with `headers` into `dir` and start a ceiling server replaying it: its
 * body with its type and encoding, or (`allHeaders`) with every header the app sent (the CSP, the
 * security headers, the validators: about 1.5 KB more for the load generator to read).
 */
export async function startCeiling(url, headers, dir, { allHeaders = false, name = allHeaders ? "all-headers" : "body" } = {}) {
  const response = await getRaw(url, headers);
  if (response.status !== 200) throw new Error(`GET ${url} answered ${response.status}`);
  const names = allHeaders ? Object.keys(response.headers).filter((name) => !NODE_HEADERS.has(name)) : REPLAYED_HEADERS.filter((name) => response.headers[name]);
  const replayed = Object.fromEntries(names.map((name) => [name, response.headers[name]]));
  const file = path.join(dir, `ceiling-response-${name}.json`);
  writeFileSync(file, JSON.stringify({ status: response.status, headers: replayed, body: response.body.toString("base64") }));
  const script = fileURLToPath(new URL("ceiling-server.js", import.meta.url));
  const server = await startListeningProcess([script, file], { env: { PATH: process.env.PATH } });
  return { ...server, bodyBytes: response.body.length, headers: replayed };
}
