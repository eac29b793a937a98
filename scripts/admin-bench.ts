// What the admin pages cost on a big site: 100,000 accounts, one of them
// with 5,000 articles to remove. Builds a site in a temporary folder from the
// built server (run `npm run build` first):  npm run bench:admin
import Database from "better-sqlite3";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client, GOOD_PASSWORD, registerUser } from "./lib/client";
import { startServer } from "./lib/server";
import { execFileSync } from "node:child_process";

const USERS = 100_000;
const SPAM_POSTS = 5_000;
const dataDir = mkdtempSync(path.join(tmpdir(), "dejiny-admin-bench-"));
let server = await startServer({ DEMO_CONTENT: "off" }, dataDir);
const { email: adminEmail } = await registerUser(server.url, { displayName: "Meracia Adminka" });
const { email: spammer } = await registerUser(server.url, { displayName: "Spamer Veľký" });
await server.stop();
const db = new Database(server.databasePath);
const now = Date.now();
const insertUser = db.prepare("INSERT INTO users (id, display_name, email, search_text, password_hash, created_at) VALUES (?, ?, ?, ?, NULL, ?)");
const fold = (t: string) => t.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
const names = ["Ján", "Štefan", "Ľudovít", "Mária", "Žofia", "Čestmír", "Anna", "Peter"];
db.transaction(() => {
  for (let i = 0; i < USERS; i++) insertUser.run(`u${i}`, `${names[i % names.length]} Priezvisko${i}`, `user${i}@example.com`, fold(`${names[i % names.length]} Priezvisko${i} user${i}@example.com`), now - i * 1000);
})();
const spammerId = (db.prepare("SELECT id FROM users WHERE email = ?").get(spammer) as { id: string }).id;
const insertPost = db.prepare("INSERT INTO posts (id, title, content, excerpt, image, image_width, image_height, author_id, created_at, updated_at) VALUES (?, ?, '<p>x</p>', 'x', ?, 800, 600, ?, ?, ?)");
const insertTag = db.prepare("INSERT INTO post_tags (post_id, tag, created_at) VALUES (?, 'Ostatné', ?)");
db.transaction(() => {
  for (let i = 0; i < SPAM_POSTS; i++) {
    insertPost.run(`spam${i}`, `Spam ${i}`, `k${String(i).padStart(15, "0")}`, spammerId, now - i, now - i);
    insertTag.run(`spam${i}`, now - i);
  }
})();
db.close();
server = await startServer({ DEMO_CONTENT: "off" }, dataDir);
execFileSync(process.execPath, ["scripts/run-in-build.js", "runAdminCommand", "grant", adminEmail], {
  env: { PATH: process.env.PATH, DATABASE_PATH: server.databasePath, UPLOADS_DIR: server.uploadsDir } as unknown as NodeJS.ProcessEnv,
});
const admin = new Client(server.url);
await admin.post("/signinsignup", { intent: "signin", email: adminEmail, password: GOOD_PASSWORD });

async function time(label: string, path: string, runs = 20) {
  const times: number[] = [];
  let bytes = 0;
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    const { html, response } = await admin.get(path);
    if (response.status !== 200) throw new Error(`${path}: ${response.status}`);
    bytes = html.length;
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  console.log(`${label}: median ${times[runs >> 1].toFixed(1)} ms, max ${times.at(-1)!.toFixed(1)} ms, ${Math.round(bytes / 1024)} kB HTML`);
}
await time(`/admin (${USERS} accounts)`, "/admin");
await time("/admin?q=stefan (diacritics-insensitive, 12.5k hits)", "/admin?q=stefan");
await time("/admin?q=priezvisko99999 (1 hit)", "/admin?q=priezvisko99999");
await time("/admin?page=4000 (last page)", "/admin?page=4000");
await time("/admin/log", "/admin/log");
const started = performance.now();
const removed = await admin.post(`/admin/users/${spammerId}`, { intent: "removeArticles", confirm: "yes" });
console.log(`remove ${SPAM_POSTS} articles of one account: ${removed.response.status} in ${(performance.now() - started).toFixed(0)} ms`);
const health = performance.now();
await admin.get("/posts");
console.log(`next /posts: ${(performance.now() - health).toFixed(1)} ms`);
await server.stop();
rmSync(dataDir, { recursive: true, force: true });
