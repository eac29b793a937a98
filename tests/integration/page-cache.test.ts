import Database from "better-sqlite3";
import { describe, expect, inject, it } from "vitest";
import { Client, registerUser } from "../../scripts/lib/client";
import { publish } from "../../scripts/lib/publish";

const base = inject("baseUrl");
const databasePath = inject("databasePath");

describe("the page cache", () => {
  it("never hands one reader's page to another", async () => {
    const alice = await registerUser(base, { displayName: "Alica Cachová" });
    const bob = await registerUser(base, { displayName: "Bob Cachový" });
    for (let i = 0; i < 2; i++) {
      const a = await alice.client.get("/posts");
      const b = await bob.client.get("/posts");
      const visitor = await new Client(base).get("/posts");
      expect(a.doc.querySelector(".nav-account")?.text).toBe("Prihlásený ako Alica Cachová");
      expect(a.html).not.toContain("Bob Cachový");
      expect(b.doc.querySelector(".nav-account")?.text).toBe("Prihlásený ako Bob Cachový");
      expect(b.html).not.toContain("Alica Cachová");
      expect(visitor.doc.querySelector(".nav-signout")).toBeNull();
      expect(a.response.headers.get("cache-control")).toBe("private, no-store");
    }
  });

  it("shows an admin's Edit buttons only once they are an admin, and only to them", async () => {
    const author = await registerUser(base);
    const id = (await publish(author.client, "Článok pre cache"))!;
    const other = await registerUser(base);
    const editLinks = async (client: Client) => (await client.get(`/posts/${id}`)).doc.querySelectorAll(".overlay-bar a").filter((a) => a.text === "Edit").length;
    expect(await editLinks(other.client)).toBe(0);
    const db = new Database(databasePath);
    db.prepare("UPDATE users SET is_admin = 1 WHERE email = ?").run(other.email);
    db.close();
    expect(await editLinks(other.client)).toBe(1);
    expect(await editLinks(new Client(base))).toBe(0);
  });

  it("shows a new, an edited and a deleted article to every reader at once", async () => {
    const { client } = await registerUser(base);
    const visitor = new Client(base);
    const titles = async () => (await visitor.get("/posts")).doc.querySelectorAll(".card-title").map((t) => t.text);
    await titles();
    const id = (await publish(client, "Čerstvý článok"))!;
    expect(await titles()).toContain("Čerstvý článok");
    await client.post(`/posts/${id}`, { intent: "save", title: "Čerstvo upravený", content: "Nový text" });
    expect(await titles()).toContain("Čerstvo upravený");
    expect((await visitor.get(`/posts/${id}`)).doc.querySelector(".post-content")?.text).toBe("Nový text");
    await client.post(`/posts/${id}`, { intent: "delete", confirm: "yes" });
    expect(await titles()).not.toContain("Čerstvo upravený");
    expect((await visitor.get(`/posts/${id}`)).response.status).toBe(404);
  });
});
