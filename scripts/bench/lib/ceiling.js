// Record one gzip response of the app and start the ceiling server replaying it.
import { writeFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startListeningProcess } from "./processes.js";

const REPLAYED_HEADERS = ["content-type", "content-encoding"];

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

/** Record `url` as fetched with `headers` into `dir` and start a ceiling server replaying it. */
export async function startCeiling(url, headers, dir) {
  const response = await getRaw(url, headers);
  if (response.status !== 200) throw new Error(`GET ${url} answered ${response.status}`);
  const replayed = Object.fromEntries(REPLAYED_HEADERS.filter((name) => response.headers[name]).map((name) => [name, response.headers[name]]));
  const file = path.join(dir, "ceiling-response.json");
  writeFileSync(file, JSON.stringify({ status: response.status, headers: replayed, body: response.body.toString("base64") }));
  const script = fileURLToPath(new URL("ceiling-server.js", import.meta.url));
  const server = await startListeningProcess([script, file], { env: { PATH: process.env.PATH } });
  return { ...server, bodyBytes: response.body.length, headers: replayed };
}
