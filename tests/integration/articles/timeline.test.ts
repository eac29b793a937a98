import { parse } from "node-html-parser";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { Client, registerUser } from "../../../scripts/lib/client";
import { makeImage } from "../../../scripts/lib/images";
import { postForm } from "../../../scripts/lib/publish";
import { dayOfYear } from "~/lib/time/dates";
import { readDatabase } from "../../support/http";

const base = inject("baseUrl");
const databasePath = inject("databasePath");

/**
 * The articles of these tests are dated in centuries nobody else writes
 * about (the 78th to the 80th, and the 80th before Christ), so the shared
 * server's other articles never come between them.
 */
const run = Date.now().toString(36);
const today = dayOfYear(Date.now());
const todayTyped = `${today % 100}. ${Math.floor(today / 100)}.`;

const ARTICLES = {
  ancient: { period: "okolo 7950 pred Kr. – 7900 pred Kr.", tags: ["Starovek"] },
  early: { period: "7705", tags: ["Stredovek"] },
  middle: { period: `${todayTyped} 7950`, tags: ["Stredovek"] },
  late: { period: "7960 – 7965", tags: ["Objavy"] },
  hidden: { period: `${todayTyped} 7955`, tags: ["Stredovek"] },
  undated: { period: "", tags: ["Stredovek"] },
} as const;
type Name = keyof typeof ARTICLES;
const ids = {} as Record<Name, string>;
const titleOf = (name: Name) => `Čas ${name} ${run}`;

async function publish(client: Client, name: Name): Promise<string> {
  const { period, tags } = ARTICLES[name];
  const form = postForm(titleOf(name), `Text článku ${name} o hľadanom slove tajomnik${run}.`, await makeImage("jpeg", 320, 200), { tags: [...tags] });
  form.append("period", period);
  const response = await client.request("/create-post", { method: "POST", body: form, headers: { Origin: base } });
  expect(response.status, name).toBe(303);
  return response.headers.get("location")!.split("/").pop()!;
}

const titles = (doc: ReturnType<typeof parse>, selector: string) => doc.querySelectorAll(selector).map((el) => el.text.trim());
const ours = (list: string[]) => list.filter((title) => title.endsWith(run));

beforeAll(async () => {
  const { client } = await registerUser(base);
  for (const name of Object.keys(ARTICLES) as Name[]) ids[name] = await publish(client, name);
  readDatabase(databasePath, (db) => db.prepare("UPDATE posts SET hidden_at = ? WHERE id = ?").run(Date.now(), ids.hidden), true);
  // A draft with a period is nobody's article.
  const draft = postForm(`Čas draft ${run}`, "Koncept.", await makeImage("jpeg", 320, 200), { tags: ["Stredovek"] });
  draft.append("period", `${todayTyped} 7951`);
  draft.append("intent", "draft");
  expect((await client.request("/create-post", { method: "POST", body: draft, headers: { Origin: base } })).status).toBe(303);
});

// The other files on this server count the lists' articles from the database: no hidden article of ours is left among them.
afterAll(() => {
  readDatabase(databasePath, (db) => db.prepare("UPDATE posts SET hidden_at = NULL WHERE id = ?").run(ids.hidden), true);
});

describe("the timeline", () => {
  it("lists every readable dated article in historical order, by century, with its period, and an index of the centuries", async () => {
    const { response, doc } = await new Client(base).get("/timeline?century=-80");
    expect(response.status).toBe(200);
    const entries = doc.querySelectorAll(".timeline-entries li").filter((li) => li.text.endsWith(run));
    expect(entries.map((li) => li.text.trim())).toEqual([
      `okolo 7950 pred Kr. – 7900 pred Kr.: ${titleOf("ancient")}`,
      `7705: ${titleOf("early")}`,
      `${todayTyped} 7950: ${titleOf("middle")}`,
      `7960 – 7965: ${titleOf("late")}`,
    ]);
    expect(entries[0].querySelector("a")!.getAttribute("href")).toBe(`/posts/${ids.ancient}`);
    // Grouped by century, each heading an anchor the index links to.
    const headings = doc.querySelectorAll(".timeline-century h2").map((h) => [h.id, h.text]);
    expect(headings).toContainEqual(["storocie-80-pred-kr", "80. storočie pred Kr."]);
    expect(headings).toContainEqual(["storocie-78", "78. storočie"]);
    const index = doc.querySelectorAll(".timeline-index a").map((a) => a.getAttribute("href"));
    expect(index).toContain("#storocie-80-pred-kr");
    expect(index).toContain("#storocie-80");
    // From the start, the demo's centuries come first, and ours are reached through the index.
    const start = await new Client(base).get("/timeline");
    expect(start.doc.querySelectorAll(".timeline-index a").some((a) => a.text === "80. storočie pred Kr.")).toBe(true);
  });

  it("never shows a hidden article, a draft or an undated article", async () => {
    const { html } = await new Client(base).get("/timeline?century=-80");
    expect(html).not.toContain(titleOf("hidden"));
    expect(html).not.toContain(`Čas draft ${run}`);
    expect(html).not.toContain(titleOf("undated"));
  });

  it("keeps a page after an article, at the address its link writes, the same for every visitor", async () => {
    const after = `/timeline?after=${7705 * 10_000}.${ids.early}`;
    const first = await new Client(base).get(after);
    const entries = first.doc.querySelectorAll(".timeline-entries li").filter((li) => li.text.endsWith(run));
    expect(entries.map((li) => li.text.trim())).toEqual([`${todayTyped} 7950: ${titleOf("middle")}`, `7960 – 7965: ${titleOf("late")}`]);
    // Kept: its scripts named by hash, not by a nonce of one response; the same bytes again.
    const again = await fetch(`${base}${after}`);
    expect(again.headers.get("content-security-policy")).not.toContain("nonce");
    expect(await again.text()).toBe(first.html);
    // Another spelling of the same place is rendered for its one response.
    const other = await fetch(`${base}/timeline?after=0${7705 * 10_000}.${ids.early}`);
    expect(other.headers.get("content-security-policy")).toContain("nonce");
  });

  it("sends any other address to the timeline's start", async () => {
    for (const junk of ["?century=0", "?century=abc", "?after=x", "?page=2"]) {
      const { response } = await new Client(base).get(`/timeline${junk}`);
      expect([response.status, response.headers.get("location")], junk).toEqual([302, "/timeline"]);
    }
  });
});

describe("the list filtered by time", () => {
  it("shows a century's articles in historical order, offering the centuries that have articles", async () => {
    const { doc } = await new Client(base).get("/posts?century=80");
    expect(ours(titles(doc, ".card-title"))).toEqual([titleOf("middle"), titleOf("late")]);
    expect(doc.querySelector("h1")!.text).toBe("Všetky články: 80. storočie");
    const options = doc.querySelectorAll("#period-century option").map((o) => o.getAttribute("value"));
    expect(options).toEqual(expect.arrayContaining(["-80", "78", "80"]));
    expect(options).not.toContain("79");
    expect(doc.querySelector("#period-century option[selected]")?.getAttribute("value")).toBe("80");
    // Cards keep the filter in their links, and the article's way back returns to it.
    const link = doc.querySelectorAll(".card a").find((a) => a.text.includes(titleOf("late")))!;
    expect(link.getAttribute("href")).toBe(`/posts/${ids.late}?century=80`);
  });

  it("takes a range of years (negative before Christ), combinable with a tag and a search", async () => {
    const bc = await new Client(base).get("/posts?from=-7960&to=-7000");
    expect(ours(titles(bc.doc, ".card-title"))).toEqual([titleOf("ancient")]);
    expect(bc.doc.querySelector("h1")!.text).toBe("Všetky články: od roku 7960 pred Kr. do roku 7000 pred Kr.");
    // The hidden article (7955) is not in it.
    const range = await new Client(base).get("/posts?from=7700&to=7959");
    expect(ours(titles(range.doc, ".card-title"))).toEqual([titleOf("early"), titleOf("middle")]);
    const tagged = await new Client(base).get(`/posts?tag=Stredovek&century=80`);
    expect(ours(titles(tagged.doc, ".card-title"))).toEqual([titleOf("middle")]);
    const searched = await new Client(base).get(`/posts?q=tajomnik${run}&century=80`);
    expect(ours(titles(searched.doc, ".card-title"))).toEqual([titleOf("late"), titleOf("middle")]);
  });

  it("sends the form's empty fields and unreadable values to the list they mean", async () => {
    const cases: [string, string][] = [
      ["/posts?century=&from=&to=", "/posts"],
      ["/posts?tag=Stredovek&century=80&from=&to=", "/posts?tag=Stredovek&century=80"],
      ["/posts?century=&from=-500&to=", "/posts?from=-500"],
      ["/posts?from=500&to=-500", "/posts"],
      ["/posts?century=0", "/posts"],
      ["/posts?from=99999", "/posts"],
    ];
    for (const [asked, meant] of cases) {
      const { response } = await new Client(base).get(asked);
      expect([response.status, response.headers.get("location")], asked).toEqual([302, meant]);
    }
    // The same list however its values are %-escaped is not sent anywhere.
    const escaped = await new Client(base).get("/posts?tag=Dejiny%20Slovenska&century=%38%30");
    expect(escaped.response.status).toBe(200);
  });
});

describe("an article's neighbours in time", () => {
  it("links to the readable dated articles before and after it (Predtým / Potom), skipping a hidden one", async () => {
    const { doc } = await new Client(base).get(`/posts/${ids.middle}`);
    const nav = doc.querySelector("nav.period-neighbours")!;
    expect(nav.querySelector(".period-before")!.text).toBe(`Predtým (7705): ← ${titleOf("early")}`);
    expect(nav.querySelector(".period-before a")!.getAttribute("href")).toBe(`/posts/${ids.early}`);
    // The hidden article (7955) lies between them.
    expect(nav.querySelector(".period-after")!.text).toBe(`Potom (7960 – 7965): ${titleOf("late")} →`);
  });

  it("are not shown for an undated article", async () => {
    const { doc } = await new Client(base).get(`/posts/${ids.undated}`);
    expect(doc.querySelector("nav.period-neighbours")).toBeNull();
  });
});

describe("Na dnešný deň", () => {
  it("lists on the landing page the articles whose precise date falls on today, not a hidden one or a draft", async () => {
    const { doc } = await new Client(base).get("/");
    const section = doc.querySelector("section.on-this-day")!;
    expect(section.querySelector("h2")!.text).toBe("Na dnešný deň");
    const listed = titles(section, "li");
    expect(listed).toContain(`${todayTyped} 7950: ${titleOf("middle")}`);
    expect(listed.join(" ")).not.toContain(titleOf("hidden"));
    expect(listed.join(" ")).not.toContain(`Čas draft ${run}`);
  });
});
