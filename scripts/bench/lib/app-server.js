// The app's production server (`<config.serverEnv> node <config.nodeFlags>
// build/http/index.js`, as `npm start` runs it after building), started on a free port
// over a given data folder.
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startListeningProcess } from "./processes.js";

export const projectRoot = fileURLToPath(new URL("../../../", import.meta.url));
const config = JSON.parse(readFileSync(path.join(projectRoot, "package.json"), "utf8")).config;
const nodeFlags = config.nodeFlags.split(" ");
const serverEnv = Object.fromEntries(config.serverEnv.split(" ").map((pair) => pair.split("=")));

/** `npm run build` when there is no server build yet. */
export function ensureBuild() {
  if (existsSync(path.join(projectRoot, "build/server/index.js"))) return;
  console.log("No build found: npm run build");
  const result = spawnSync("npm", ["run", "build"], { cwd: projectRoot, stdio: "inherit" });
  if (result.status !== 0) throw new Error("npm run build failed");
}

export function dataPaths(dataDir) {
  return { databasePath: path.join(dataDir, "data", "dejiny.db"), uploadsDir: path.join(dataDir, "uploads") };
}

/** Start the server on the database and images under `dataDir`. `demo` publishes the demo articles on a first start. */
export function startAppServer(dataDir, { demo = false } = {}) {
  const { databasePath, uploadsDir } = dataPaths(dataDir);
  return startListeningProcess([...nodeFlags, "build/http/index.js"], {
    cwd: projectRoot,
    env: {
      PATH: process.env.PATH,
      ...serverEnv,
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: "0",
      DATABASE_PATH: databasePath,
      UPLOADS_DIR: uploadsDir,
      DEMO_CONTENT: demo ? "on" : "off",
      SESSION_SECRET: randomBytes(32).toString("hex"),
    },
  });
}

/** Register a new account through the real form; returns the signed-in `Cookie` header value. */
export async function registerUser(baseUrl) {
  const password = "bench-heslo-123";
  // No two accounts may look alike: the name carries the e-mail's random part.
  const id = randomBytes(4).toString("hex");
  const response = await fetch(`${baseUrl}/signinsignup`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: baseUrl },
    body: new URLSearchParams({
      intent: "register",
      displayName: `Bench Čitateľ ${id}`,
      email: `bench-${id}@example.com`,
      password,
      confirmPassword: password,
    }),
  });
  const cookie = response.headers.getSetCookie().find((c) => c.startsWith("dejiny_session="));
  if (response.status !== 303 || !cookie) {
    throw new Error(`registration failed: HTTP ${response.status}\n${(await response.text()).slice(0, 500)}`);
  }
  return cookie.split(";")[0];
}
