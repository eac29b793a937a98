import { describe, expect, inject, it } from "vitest";
import { Client, registerUser } from "../../../scripts/lib/client";
import { makeImage } from "../../../scripts/lib/images";
import { postForm, saveEdit } from "../../../scripts/lib/publish";
import { PERIOD_MESSAGES } from "~/lib/time/periods";
import { expectFieldRefused, readDatabase } from "../../support/http";

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

  it("takes a day to the end of its own year, and a year to the end of its century, as ranges: without JavaScript and as a data request", async () => {
    const { client } = await registerUser(base);
    const { response } = await create(client, `Do konca roka ${Date.now()}`, "29. 8. 1526 – 1526");
    expect(response.status).toBe(303);
    const id = response.headers.get("location")!.split("/").pop()!;
    expect(periodOf(id)).toEqual({ period: "29. 8. 1526 – 1526", period_start: 15_260_829, period_day: 829 });
    expect(jsonLd((await new Client(base).get(`/posts/${id}`)).html)).toMatchObject({ temporalCoverage: "1526-08-29/1526" });
    const form = await client.get(`/posts/${id}?edit`);
    expect(form.doc.querySelector("#period-understood")?.text).toBe("Rozumiem: od 29. augusta 1526 do konca roka.");

    // With JavaScript the same form goes to the route's data, and is answered with the article's address.
    const title = `Do konca storočia ${Date.now()}`;
    const sent = postForm(title, "Text.", await makeImage("jpeg", 480, 300), { tags: ["Stredovek"] });
    sent.append("period", "1526 – 16. stor.");
    const data = await client.request("/create-post.data", { method: "POST", body: sent, headers: { Origin: base } });
    const payload = await data.text();
    expect(payload).not.toContain(PERIOD_MESSAGES.reversed);
    const posted = readDatabase(databasePath, (db) => db.prepare("SELECT id FROM posts WHERE title = ?").get(title) as { id: string } | undefined);
    expect(posted).toBeDefined();
    expect(payload).toContain(`/posts/${posted!.id}`);
    expect(periodOf(posted!.id)).toEqual({ period: "1526 – 16. stor.", period_start: 15_260_000, period_day: null });
  });

  it("says what it understood as Slovak says a range (od roku 1848 do roku 1849), on the form the server answers", async () => {
    const { client } = await registerUser(base);
    const { response } = await create(client, `Revolúcia ${Date.now()}`, "1848 – 1849");
    const id = response.headers.get("location")!.split("/").pop()!;
    const understood = async () => (await client.get(`/posts/${id}?edit`)).doc.querySelector("#period-understood")?.text;
    expect(await understood()).toBe("Rozumiem: od roku 1848 do roku 1849.");
    const cases: [typed: string, words: string][] = [
      ["9. stor. – 1526", "od 9. storočia do roku 1526"],
      ["1840. roky – 1867", "od 40. rokov 19. storočia do roku 1867"],
      ["9. – 10. stor.", "od 9. do 10. storočia"],
      ["okolo 500 pred Kr. – 476", "približne od roku 500 pred Kr. do roku 476 po Kr."],
    ];
    for (const [typed, words] of cases) {
      expect((await saveEdit(client, id, { title: "Revolúcia", content: "Text.", period: typed })).response.status).toBe(303);
      expect(await understood(), typed).toBe(`Rozumiem: ${words}.`);
    }
    // A refused form (no title) comes back with the period as typed, and what it means.
    const refused = await saveEdit(client, id, { title: "", content: "Text.", period: "1848 – 1849" }, `/posts/${id}?edit`);
    expect(refused.response.status).toBe(400);
    expect(refused.doc.querySelector("#period-understood")?.text).toBe("Rozumiem: od roku 1848 do roku 1849.");
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
