import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { periodWords } from "~/lib/period-words";
import { tagToken } from "~/lib/search";
import { Client } from "../../../scripts/lib/client";
import { startServer, type RunningServer } from "../../../scripts/lib/server";
import { readDatabase } from "../../support/http";

// Data folders left by earlier versions of the site (scripts/make-upgrade-fixture.ts makes them).
const FIXTURES = fileURLToPath(new URL("../../fixtures/", import.meta.url));
const fixtures = readdirSync(FIXTURES).filter((name) => name.startsWith("upgrade-"));
const migrations = (JSON.parse(readFileSync(fileURLToPath(new URL("../../../drizzle/meta/_journal.json", import.meta.url)), "utf8")) as { entries: unknown[] }).entries.length;

type Fixture = { commit: string; user: { email: string; password: string; displayName: string }; article: string };

it("has at least one data folder of an earlier version", () => {
  expect(fixtures.length).toBeGreaterThan(0);
});

describe.each(fixtures)("a site upgraded from %s", (name) => {
  const fixture: Fixture = JSON.parse(readFileSync(path.join(FIXTURES, name, "fixture.json"), "utf8"));
  const dir = mkdtempSync(path.join(tmpdir(), "dejiny-upgrade-"));
  let server: RunningServer;
  let titles: string[];
  const query = <T>(sql: string) => readDatabase(server.databasePath, (db) => db.prepare(sql).all() as T[]);

  beforeAll(async () => {
    cpSync(path.join(FIXTURES, name, "data"), path.join(dir, "data"), { recursive: true });
    cpSync(path.join(FIXTURES, name, "uploads"), path.join(dir, "uploads"), { recursive: true });
    titles = readDatabase(path.join(dir, "data", "dejiny.db"), (db) => db.prepare("SELECT title FROM posts").pluck().all() as string[]);
    // As an upgraded container starts: demo on (it must not publish them again), no SESSION_SECRET.
    server = await startServer({ DEMO_CONTENT: "on" }, dir);
  });
  afterAll(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("starts on it: the database is whole and every migration is recorded", () => {
    expect(query("PRAGMA integrity_check")).toEqual([{ integrity_check: "ok" }]);
    expect(query<{ n: number }>("SELECT count(*) AS n FROM __drizzle_migrations")[0].n).toBe(migrations);
    expect(existsSync(path.join(dir, "data", "session-secret"))).toBe(true);
  });

  it("lists the same articles, and no demo is published again", async () => {
    expect(titles.length).toBeGreaterThan(1);
    const limit = Math.ceil((titles.length + 1) / 9) * 9;
    const { doc } = await new Client(server.url).get(`/posts?limit=${limit}`);
    expect(doc.querySelectorAll(".card-title").map((title) => title.text.trim()).sort()).toEqual([...titles].sort());
    expect(query<{ n: number }>("SELECT count(*) AS n FROM posts")[0].n).toBe(titles.length);
  });

  it("has every article in the titles' search index, its tags as tagToken writes them (migration 0020), then its period's words (0021)", () => {
    const rows = query<{ tags: string; tagList: string; periodStart: number | null }>(
      `SELECT t.tags, (SELECT json_group_array(tag) FROM post_tags g WHERE g.post_id = t.post_id) AS tagList, p.period_start AS periodStart
       FROM post_texts t JOIN posts p ON p.id = t.post_id`,
    );
    expect(rows).toHaveLength(titles.length);
    const sorted = (words: string[]) => [...words].sort().join(" ");
    for (const { tags, tagList, periodStart } of rows) {
      expect(sorted(tags.split(" "))).toBe(sorted([...(JSON.parse(tagList) as string[]).map(tagToken), ...periodWords(periodStart)]));
    }
    expect(query<{ n: number }>("SELECT count(*) AS n FROM post_title_search_docsize")).toEqual([{ n: titles.length }]);
  });

  it("gives every article its current state as revision 1, by its author", () => {
    const unmatched = query<{ id: string }>(`
      SELECT p.id FROM posts p
      WHERE NOT EXISTS (
        SELECT 1 FROM revisions r
        WHERE r.post_id = p.id AND r.number = 1 AND r.editor_id = p.author_id AND r.title = p.title AND r.content = p.content
          AND r.image = p.image AND r.created_at = p.updated_at AND r.size = length(p.title) + length(p.content))
      OR (SELECT count(*) FROM revisions r WHERE r.post_id = p.id) != 1`);
    expect(unmatched).toEqual([]);
    expect(query<{ n: number }>("SELECT count(*) AS n FROM revisions")[0].n).toBe(titles.length);
  });

  it("shows the user's article with its image, and the user signs in with their password", async () => {
    const client = new Client(server.url);
    const [{ id }] = readDatabase(server.databasePath, (db) => db.prepare("SELECT id FROM posts WHERE title = ?").all(fixture.article) as { id: string }[]);
    const { response, doc } = await client.get(`/posts/${id}`);
    expect(response.status).toBe(200);
    expect(doc.querySelector("#post-title")?.text).toBe(fixture.article);
    const src = doc.querySelector("article img")!.getAttribute("src")!;
    const image = await client.request(src);
    expect(image.status).toBe(200);
    expect(image.headers.get("content-type")).toMatch(/^image\/(webp|jpeg)$/);
    expect((await image.arrayBuffer()).byteLength).toBeGreaterThan(1000);

    const signIn = await client.post("/signinsignup", { intent: "signin", email: fixture.user.email, password: fixture.user.password });
    expect(signIn.response.status).toBe(303);
    expect(await client.isSignedIn()).toBe(true);
  });
});
