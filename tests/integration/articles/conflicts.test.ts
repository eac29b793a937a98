import { beforeAll, describe, expect, inject, it } from "vitest";
import { Client, registerUser } from "../../../scripts/lib/client";
import { makeImage } from "../../../scripts/lib/images";
import { postForm } from "../../../scripts/lib/publish";
import { CONFLICT_MESSAGES } from "~/lib/conflicts";
import { ADMIN_NOTICES } from "~/lib/notices";
import { PERIOD_MESSAGES } from "~/lib/time/periods";
import { pageStatus, readDatabase } from "../../support/http";

const base = inject("baseUrl");
const databasePath = inject("databasePath");
const run = Date.now().toString(36);

const db = <T>(query: (d: import("better-sqlite3").Database) => T, write = false) => readDatabase(databasePath, query, write);
const logEntries = (action: string) =>
  db((d) => d.prepare("SELECT actor_name AS actor, detail FROM moderation_log WHERE action = ? ORDER BY id").all(action) as { actor: string; detail: string }[]);
const conflictId = (name: string) => db((d) => (d.prepare("SELECT id FROM conflicts WHERE name = ?").get(name) as { id: number } | undefined)?.id);

let admin: Client;
let adminName: string;

async function publish(client: Client, title: string, period: string, tags: string[]) {
  const form = postForm(title, `Text ${title}.`, await makeImage("jpeg", 320, 200), { tags });
  form.append("period", period);
  const response = await client.request("/create-post", { method: "POST", body: form, headers: { Origin: base } });
  expect(response.status).toBe(303);
  return response.headers.get("location")!.split("/").pop()!;
}

beforeAll(async () => {
  adminName = `Správca konfliktov ${run}`;
  const registered = await registerUser(base, { displayName: adminName });
  admin = registered.client;
  db((d) => d.prepare("UPDATE users SET is_admin = 1 WHERE email = ?").run(registered.email), true);
  // The background (dated in a century nobody else writes about), out of historical order; one with another tag.
  await publish(admin, `Pozadie neskôr ${run}`, "7640", ["Dejiny Afriky"]);
  await publish(admin, `Pozadie skôr ${run}`, "okolo 7610", ["Dejiny Afriky"]);
  await publish(admin, `Iný tag ${run}`, "7620", ["Umenie"]);
  await publish(admin, `Mimo obdobia ${run}`, "7700", ["Dejiny Afriky"]);
});

const entry = (fields: Record<string, string | string[]>) => ({ id: "new", intent: "save", name: "", summary: "", period: "", position: "5", ...fields });

describe("Aktuálne konflikty", () => {
  it("shows the demo's entries, each with its background articles", async () => {
    const { response, doc } = await new Client(base).get("/conflicts");
    expect(response.status).toBe(200);
    const names = doc.querySelectorAll(".conflict h2").map((h) => h.text);
    expect(names).toEqual(expect.arrayContaining(["Vojna na Ukrajine", "Napätie v Taiwanskom prielive", "Konflikty na Blízkom východe"]));
    const ukraine = doc.querySelectorAll(".conflict").find((s) => s.querySelector("h2")!.text === "Vojna na Ukrajine")!;
    expect(ukraine.querySelectorAll("li").map((li) => li.querySelector("a")!.text)).toEqual(
      expect.arrayContaining(["Stalingrad: Bitka, ktorá zlomila chrbticu Wehrmachtu", "Berlínsky múr: Betónová hranica, ktorá padla omylom"]),
    );
  });

  it("an admin adds an entry on /admin (logged): its background is the articles with its tags in its period, in historical order", async () => {
    const name = `Spor ${run}`;
    const form = await admin.get("/admin");
    expect(form.doc.querySelector("#konflikty")?.text).toMatch(/^Aktuálne konflikty/);
    expect(form.doc.querySelector('form.conflict-form[action="/admin/conflicts"] #conflict-new-name')).not.toBeNull();

    const saved = await admin.post("/admin/conflicts", entry({ name, summary: "Krátke zhrnutie.\nDruhý riadok.", tags: ["Dejiny Afriky"], period: "7600 – 7650" }));
    expect([saved.response.status, saved.response.headers.get("location")]).toEqual([303, "/admin#konflikty"]);
    expect(pageStatus((await admin.get("/admin")).doc)).toBe(ADMIN_NOTICES.conflict);
    expect(logEntries("createConflict").at(-1)).toEqual({ actor: adminName, detail: name });

    const { doc } = await new Client(base).get("/conflicts");
    const section = doc.querySelectorAll(".conflict").find((s) => s.querySelector("h2")!.text === name)!;
    expect(section.querySelector(".conflict-summary")!.text).toBe("Krátke zhrnutie.\nDruhý riadok.");
    expect(section.querySelectorAll("li").map((li) => li.text.trim())).toEqual([`okolo 7610: Pozadie skôr ${run}`, `7640: Pozadie neskôr ${run}`]);
  });

  it("an admin edits and removes an entry, each logged, and the page follows at once", async () => {
    const name = `Úprava ${run}`;
    await admin.post("/admin/conflicts", entry({ name, summary: "Zhrnutie.", tags: ["Umenie"] }));
    const id = String(conflictId(name));
    const edited = await admin.post("/admin/conflicts", entry({ id, name: `${name} 2`, summary: "Nové zhrnutie.", tags: [], period: "7600 – 7650" }));
    expect(edited.response.status).toBe(303);
    expect(logEntries("editConflict").at(-1)).toEqual({ actor: adminName, detail: `${name} → ${name} 2` });
    let page = await new Client(base).get("/conflicts");
    const section = page.doc.querySelectorAll(".conflict").find((s) => s.querySelector("h2")!.text === `${name} 2`)!;
    // No tag: every article of its period.
    expect(section.querySelectorAll("li a").map((a) => a.text)).toEqual([`Pozadie skôr ${run}`, `Iný tag ${run}`, `Pozadie neskôr ${run}`]);

    const removed = await admin.post("/admin/conflicts", { id, intent: "delete" });
    expect(removed.response.status).toBe(303);
    expect(logEntries("deleteConflict").at(-1)).toEqual({ actor: adminName, detail: `${name} 2` });
    page = await new Client(base).get("/conflicts");
    expect(page.html).not.toContain(`${name} 2`);
    const again = await admin.post("/admin/conflicts", { id, intent: "delete" });
    expect(again.response.status).toBe(404);
  });

  it.each([
    ["no name", { name: "", summary: "Zhrnutie.", tags: ["Umenie"] }, CONFLICT_MESSAGES.nameMissing, "name"],
    ["no summary", { name: "Bez zhrnutia", summary: "  ", tags: ["Umenie"] }, CONFLICT_MESSAGES.summaryMissing, "summary"],
    ["a tag not among the 30", { name: "Zlý tag", summary: "Zhrnutie.", tags: ["Atlantída"] }, CONFLICT_MESSAGES.tags, "tags"],
    ["neither tags nor a period", { name: "Bez pozadia", summary: "Zhrnutie.", tags: [] }, CONFLICT_MESSAGES.noBackground, "tags"],
    ["a reversed period", { name: "Obrátené", summary: "Zhrnutie.", period: "1991 – 1914" }, PERIOD_MESSAGES.reversed, "period"],
    ["a name of 10,000 characters", { name: "x".repeat(10_000), summary: "Zhrnutie.", tags: ["Umenie"] }, CONFLICT_MESSAGES.nameTooLong, "name"],
  ])("refuses %s with its message, what was typed kept, nothing stored or logged", async (_, fields, message, field) => {
    const logged = logEntries("createConflict").length;
    const count = db((d) => (d.prepare("SELECT count(*) AS n FROM conflicts").get() as { n: number }).n);
    const { response, doc } = await admin.post("/admin/conflicts", entry(fields));
    expect(response.status).toBe(400);
    expect(doc.querySelector("#conflict-new-error")?.text).toBe(message);
    expect(doc.querySelector(`#conflict-new-${field}`)?.getAttribute("aria-invalid")).toBe("true");
    if (field !== "tags" && typeof fields[field as keyof typeof fields] === "string") {
      const typed = fields[field as keyof typeof fields] as string;
      const shown = doc.querySelector(`#conflict-new-${field}`)!;
      expect(shown.tagName === "TEXTAREA" ? shown.text : shown.getAttribute("value")).toBe(typed);
    }
    expect(logEntries("createConflict")).toHaveLength(logged);
    expect(db((d) => (d.prepare("SELECT count(*) AS n FROM conflicts").get() as { n: number }).n)).toBe(count);
  });

  it("is only for admins: anyone else gets 404 and changes nothing", async () => {
    const { client } = await registerUser(base);
    const count = db((d) => (d.prepare("SELECT count(*) AS n FROM conflicts").get() as { n: number }).n);
    expect((await client.post("/admin/conflicts", entry({ name: "Cudzí", summary: "Zhrnutie.", tags: ["Umenie"] }))).response.status).toBe(404);
    expect((await new Client(base).post("/admin/conflicts", entry({ name: "Cudzí", summary: "Zhrnutie.", tags: ["Umenie"] }))).response.status).not.toBe(303);
    expect(db((d) => (d.prepare("SELECT count(*) AS n FROM conflicts").get() as { n: number }).n)).toBe(count);
  });
});
