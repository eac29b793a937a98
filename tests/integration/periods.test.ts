import { describe, expect, inject, it } from "vitest";
import { Client, registerUser } from "../../scripts/lib/client";
import { makeImage } from "../../scripts/lib/images";
import { postForm, saveEdit } from "../../scripts/lib/publish";
import { PERIOD_MESSAGES } from "~/lib/periods";
import { expectFieldRefused, readDatabase } from "../support/http";

const base = inject("baseUrl");
const databasePath = inject("databasePath");

type PeriodRow = { period: string; period_start: number | null; period_day: number | null };
const periodOf = (id: string) => readDatabase(databasePath, (db) => db.prepare("SELECT period, period_start, period_day FROM posts WHERE id = ?").get(id) as PeriodRow);
const countTitled = (title: string) => readDatabase(databasePath, (db) => (db.prepare("SELECT count(*) AS n FROM posts WHERE title = ?").get(title) as { n: number }).n);
const jsonLd = (html: string) => JSON.parse(html.match(/<script type="application\/ld\+json">(.*?)<\/script>/s)![1]);

async function create(client: Client, title: string, period: string | null) {
  const form = postForm(title, `Text o udalosti ${title}.`, await makeImage("jpeg", 480, 300), { tags: ["Stredovek"] });
  if (period !== null) form.append("period", period);
  const response = await client.request("/create-post", { method: "POST", body: form, headers: { Origin: base } });
  const { parse } = await import("node-html-parser");
  const html = await response.text();
  return { response, html, doc: parse(html) };
}

describe("the period an article treats", () => {
  it("is published with it: stored as typed with its sort key, shown under the title on the card and the page, given to search engines", async () => {
    const { client } = await registerUser(base);
    const title = `Moháč ${Date.now()}`;
    const { response } = await create(client, title, " okolo 500 pred Kr.-476 ");
    expect(response.status).toBe(303);
    const id = response.headers.get("location")!.split("/").pop()!;
    expect(periodOf(id)).toEqual({ period: "okolo 500 pred Kr. – 476", period_start: -4_990_000, period_day: null });

    const { html, doc } = await new Client(base).get(`/posts/${id}`);
    expect(doc.querySelector("h1 + .post-period")?.text).toBe("Obdobie: okolo 500 pred Kr. – 476");
    expect(jsonLd(html)).toMatchObject({ "@type": "Article", temporalCoverage: "-0499/0476" });

    const list = await new Client(base).get("/posts");
    const card = list.doc.querySelectorAll(".card").find((c) => c.querySelector("a")!.getAttribute("href") === `/posts/${id}`)!;
    expect(card.querySelector(".card-title + .card-period")?.text).toBe("Obdobie: okolo 500 pred Kr. – 476");
  });

  it("is optional: an article without one shows none and has no temporalCoverage", async () => {
    const { client } = await registerUser(base);
    const { response } = await create(client, `Bez obdobia ${Date.now()}`, null);
    expect(response.status).toBe(303);
    const id = response.headers.get("location")!.split("/").pop()!;
    expect(periodOf(id)).toEqual({ period: "", period_start: null, period_day: null });
    const { html, doc } = await new Client(base).get(`/posts/${id}`);
    expect(doc.querySelector(".post-period")).toBeNull();
    expect(jsonLd(html)).not.toHaveProperty("temporalCoverage");
  });

  it.each([
    ["day 31 of a 30-day month", "31. 4. 1526", PERIOD_MESSAGES.day(31, 4, "1526", 30)],
    ["a reversed range", "885 – 862", PERIOD_MESSAGES.reversed],
    ["an absurd year", "20000 pred Kr.", PERIOD_MESSAGES.yearRange],
    ["mixed scripts", "1526 рred Kr.", PERIOD_MESSAGES.mixedScripts],
    ["10,000 characters", "1".repeat(10_000), PERIOD_MESSAGES.tooLong],
  ])("refuses %s on the create form with its message, what was typed kept, nothing stored", async (_, typed, message) => {
    const { client } = await registerUser(base);
    const title = `Zlé obdobie ${Date.now()}`;
    const reply = await create(client, title, typed);
    expectFieldRefused(reply, "period", message, typed);
    expect(countTitled(title)).toBe(0);
  });

  it("changes with an edit, kept by the revision (and a refused edit keeps what was typed and changes nothing)", async () => {
    const { client } = await registerUser(base);
    const { response } = await create(client, `Úprava obdobia ${Date.now()}`, "1526");
    const id = response.headers.get("location")!.split("/").pop()!;

    const refused = await saveEdit(client, id, { title: "Úprava", content: "Text.", period: "30. 2. 1526" }, `/posts/${id}?edit`);
    expect(refused.response.status).toBe(400);
    expect(refused.doc.querySelector("#edit-error")?.text).toBe(PERIOD_MESSAGES.day(30, 2, "1526", 28));
    expect(refused.doc.querySelector("#field-period")?.getAttribute("value")).toBe("30. 2. 1526");
    expect(refused.doc.querySelector("#field-period")?.getAttribute("aria-invalid")).toBe("true");
    expect(periodOf(id).period).toBe("1526");

    const saved = await saveEdit(client, id, { title: "Úprava", content: "Text.", period: "29. 8. 1526" });
    expect(saved.response.status).toBe(303);
    expect(periodOf(id)).toEqual({ period: "29. 8. 1526", period_start: 15_260_829, period_day: 829 });
    const revisions = readDatabase(databasePath, (db) => db.prepare("SELECT period FROM revisions WHERE post_id = ? ORDER BY number").all(id));
    expect(revisions).toEqual([{ period: "1526" }, { period: "29. 8. 1526" }]);

    // The edit form shows it, and says what it understood.
    const form = await client.get(`/posts/${id}?edit`);
    expect(form.doc.querySelector("#field-period")?.getAttribute("value")).toBe("29. 8. 1526");
    expect(form.doc.querySelector("#period-understood")?.text).toBe("Rozumiem: 29. augusta 1526.");
  });

  it("is kept by a draft, and published with it", async () => {
    const { client } = await registerUser(base);
    const form = postForm(`Koncept ${Date.now()}`, "Text konceptu.", await makeImage("jpeg", 480, 300), { tags: ["Stredovek"] });
    form.append("period", "9. stor.");
    form.append("intent", "draft");
    const saved = await client.request("/create-post", { method: "POST", body: form, headers: { Origin: base } });
    expect(saved.status).toBe(303);
    const draft = saved.headers.get("location")!.match(/^\/drafts\/([\w-]+)/)![1];
    const page = await client.get(`/drafts/${draft}`);
    expect(page.doc.querySelector("#field-period")?.getAttribute("value")).toBe("9. stor.");
    expect(page.doc.querySelector("#period-understood")?.text).toBe("Rozumiem: 9. storočie.");
    // Published from its page with the draft's own image.
    const publish = new FormData();
    for (const [name, value] of [["title", "Publikovaný koncept"], ["content", "Text konceptu."], ["tags", "Stredovek"], ["period", "9. stor."]]) publish.append(name, value);
    publish.append("image", new Blob([]), "");
    publish.append("intent", "publish");
    const published = await client.request(`/drafts/${draft}`, { method: "POST", body: publish, headers: { Origin: base } });
    expect(published.status).toBe(303);
    const id = published.headers.get("location")!.split("/").pop()!;
    expect(periodOf(id)).toEqual({ period: "9. stor.", period_start: 8_010_000, period_day: null });
  });
});
