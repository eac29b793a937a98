// Makes a data folder of this version of the site, for the upgrade test
// (tests/integration/operations/upgrade.test.ts), which starts every later version on a
// copy of each tests/fixtures/upgrade-*/ folder:
//
//   npm run build && npx vite-node scripts/make-upgrade-fixture.ts [folder]
//
// The folder (default tests/fixtures/upgrade-<short commit>) gets what the
// built server leaves on its first start with the demo articles, one
// registered user and one article of theirs: data/dejiny.db (stopped
// cleanly and checkpointed, so one file and no -wal/-shm) and uploads/.
// fixture.json names the user, their password and their article.
import Database from "better-sqlite3";
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { registerUser } from "./lib/client";
import { publish } from "./lib/publish";
import { startServer } from "./lib/server";

const user = { displayName: "Čitateľka Fixtúrová", email: "citatelka@example.com", password: "heslo-fixtury-42" };
const article = {
  title: "Ako sa robí záloha dejín",
  tags: ["Dejiny Slovenska"],
  content: "Článok registrovanej používateľky, uložený staršou verziou stránky.\nDruhý riadok.",
};

const git = (...args: string[]) => execFileSync("git", args, { encoding: "utf8" }).trim();
const commit = git("rev-parse", "--short", "HEAD");
const out = path.resolve(process.argv[2] ?? `tests/fixtures/upgrade-${commit}`);
if (existsSync(out)) throw new Error(`${out} exists already`);

const work = mkdtempSync(path.join(tmpdir(), "dejiny-fixture-"));
// An explicit secret: the fixture carries no session-secret file (git keeps no
// file modes, and a copy readable by others would rightly be refused).
const server = await startServer({ DEMO_CONTENT: "on", SESSION_SECRET: randomBytes(32).toString("hex") }, work);
try {
  const { client } = await registerUser(server.url, { displayName: user.displayName, email: user.email, password: user.password, confirmPassword: user.password });
  if (!(await publish(client, article.title, article.tags, article.content))) throw new Error(`publishing failed:\n${server.output()}`);
} finally {
  await server.stop();
}

// The server closed the database (a checkpoint); make sure nothing is left in a WAL file.
const db = new Database(server.databasePath);
db.pragma("wal_checkpoint(TRUNCATE)");
db.close();
for (const suffix of ["-wal", "-shm"]) if (existsSync(server.databasePath + suffix)) throw new Error(`${server.databasePath}${suffix} is still there`);

cpSync(server.databasePath, path.join(out, "data", "dejiny.db"));
cpSync(server.uploadsDir, path.join(out, "uploads"), { recursive: true });
writeFileSync(path.join(out, "fixture.json"), `${JSON.stringify({ commit, made: new Date().toISOString().slice(0, 10), user, article: article.title }, null, 2)}\n`);
writeFileSync(
  path.join(out, "README.md"),
  `# Upgrade fixture: the site at ${commit}

A data folder as the site at commit \`${commit}\` left it, for
\`tests/integration/operations/upgrade.test.ts\`: every later version must open it,
migrate it and serve the same articles.

Made on ${new Date().toISOString().slice(0, 10)} in a checkout of that commit (with
\`scripts/make-upgrade-fixture.ts\` copied in where it is missing) by
\`npm run build && npx vite-node scripts/make-upgrade-fixture.ts <folder>\`:
a first start with the demo articles, then ${user.displayName} (\`${user.email}\`,
password \`${user.password}\`, as in \`fixture.json\`) registered and published
"${article.title}". The server was stopped cleanly and the database
checkpointed: \`data/dejiny.db\` is one file. \`uploads/\` holds the images.
Do not change these files; make a new fixture for a new version instead.
`,
);
rmSync(work, { recursive: true, force: true });
console.log(`Wrote ${out}: ${readdirSync(path.join(out, "uploads")).length} image files.`);
