import { cpSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { SUBSCRIPTION_MESSAGES } from "~/lib/subscriptions";
import { Client } from "../../../scripts/lib/client";
import { startServer, type RunningServer } from "../../../scripts/lib/server";
import { registerConfirmedUser } from "../../support/accounts";
import { readDatabase } from "../../support/http";

/**
 * The subscription links' key is the database's, not the session secret's
 * (docs/subscriptions.md): a link the server made still opens the settings
 * after a restart with a new SESSION_SECRET, which signs everyone out. A
 * read-only replica checks links with the copy's key, and one whose copy
 * has none answers them as invalid, without failing and without making one.
 * Servers of their own: they are restarted with other settings.
 */

const root = mkdtempSync(path.join(tmpdir(), "dejiny-sublinks-"));
const primaryDir = path.join(root, "primary");
const replicaDir = path.join(root, "replica");
const replicaDatabase = path.join(replicaDir, "data", "dejiny.db");
const servers: RunningServer[] = [];
const secret = (name: string) => `subscription-links-${name}-`.padEnd(48, "x");
const KEY = "subscription_link_key";
/** The settings link the first server made. */
let settings: string;

afterAll(async () => {
  for (const server of servers) await server.stop();
  rmSync(root, { recursive: true, force: true });
});

async function start(env: Record<string, string>, dir: string) {
  const server = await startServer({ DEMO_CONTENT: "off", ...env }, dir);
  servers.push(server);
  return server;
}

const keyIn = (databasePath: string) => readDatabase(databasePath, (db) => db.prepare("SELECT value FROM app_meta WHERE key = ?").pluck().get(KEY)) as string | undefined;

describe("the subscription links' key", () => {
  it("is kept in the database: a link still opens the settings after a restart with a new SESSION_SECRET, and on a replica whose copy holds it", async () => {
    const first = await start({ SESSION_SECRET: secret("first") }, primaryDir);
    const { client, email } = await registerConfirmedUser(first.url, first.databasePath);
    const { response } = await client.post("/odber", { zdroj: "odber", tags: "Stredovek", frequency: "instant" });
    settings = response.headers.get("location")!;
    expect(settings).toMatch(/^\/odber\/nastavenia\?token=[\w-]{22}\.[\w-]{43}$/);
    expect(Buffer.from(keyIn(first.databasePath)!, "base64url")).toHaveLength(32);
    await first.stop();

    const second = await start({ SESSION_SECRET: secret("second") }, primaryDir);
    // The new secret signed everyone out…
    const signedOut = new Client(second.url);
    signedOut.cookies = client.cookies;
    expect(await signedOut.isSignedIn()).toBe(false);
    // …and the link still works.
    const page = await new Client(second.url).get(settings);
    expect(page.response.status).toBe(200);
    expect(page.doc.querySelector("main")?.text).toContain(email);
    expect(page.doc.querySelector('input[name="tags"][value="Stredovek"]')?.hasAttribute("checked")).toBe(true);
    await second.stop();

    mkdirSync(path.dirname(replicaDatabase), { recursive: true });
    cpSync(second.databasePath, replicaDatabase);
    const replica = await start({ SESSION_SECRET: secret("replica"), READ_ONLY: "on" }, replicaDir);
    expect((await new Client(replica.url).get(settings)).response.status).toBe(200);
    await replica.stop();
  });

  it("is not made by a replica whose copy has none: the links it cannot check are invalid, and it goes on serving", async () => {
    readDatabase(replicaDatabase, (db) => db.prepare("DELETE FROM app_meta WHERE key = ?").run(KEY), true);
    const replica = await start({ SESSION_SECRET: secret("replica"), READ_ONLY: "on" }, replicaDir);
    // The link the previous test opened on this copy.
    const page = await new Client(replica.url).get(settings);
    expect(page.response.status).toBe(404);
    expect(page.doc.querySelector(".form-error")?.text).toBe(SUBSCRIPTION_MESSAGES.manageInvalid);
    expect((await new Client(replica.url).get("/posts")).response.status).toBe(200);
    expect(replica.child.exitCode).toBeNull();
    expect(keyIn(replicaDatabase)).toBeUndefined();
  });
});
