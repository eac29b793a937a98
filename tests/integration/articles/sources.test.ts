import { describe, expect, inject, it } from "vitest";
import { Client, registerUser } from "../../../scripts/lib/client";
import { makeImage } from "../../../scripts/lib/images";
import { postForm, saveEdit } from "../../../scripts/lib/publish";
import { SOURCE_MESSAGES } from "~/lib/sources";
import { readDatabase } from "../../support/http";

const base = inject("baseUrl");
const databasePath = inject("databasePath");

const TYPED_SOURCES = [
  "Kováč, D.: Dejiny Slovenska. Praha: NLN, 1998.",
  "Štefánikova korešpondencia, SNA https://www.minv.sk/?slovensky-narodny-archiv",
  'Poznámka s <script>alert("x")</script> a odkazom javascript:alert(1)',
].join("\n");

async function publishWithSources(client: Client, sources: string, content = "Štefánik [1] študoval v Prahe [2]. Znova [1], a [9] nie je zdroj.") {
  const form = postForm("Štefánik a jeho pramene", content, await makeImage("jpeg", 480, 300), { tags: ["Osobnosti"] });
  form.append("sources", sources);
  const response = await client.request("/create-post", { method: "POST", body: form, headers: { Origin: base } });
  return { response, html: await response.text() };
}

const storedSources = (id: string) =>
  readDatabase(databasePath, (db) => JSON.parse((db.prepare("SELECT sources FROM posts WHERE id = ?").get(id) as { sources: string }).sources));

const jsonLd = (html: string) => JSON.parse(html.match(/<script type="application\/ld\+json">(.*?)<\/script>/s)![1]);

describe("sources of an article", () => {
  it("are published with it, cited by number in the text, listed under Zdroje with safe links, and given to search engines", async () => {
    const { client } = await registerUser(base);
    const { response } = await publishWithSources(client, TYPED_SOURCES);
    expect(response.status).toBe(303);
    const id = response.headers.get("location")!.split("/").pop()!;
    expect(storedSources(id)).toEqual([
      { text: "Kováč, D.: Dejiny Slovenska. Praha: NLN, 1998.", url: null },
      { text: "Štefánikova korešpondencia, SNA", url: "https://www.minv.sk/?slovensky-narodny-archiv" },
      { text: 'Poznámka s <script>alert("x")</script> a odkazom javascript:alert(1)', url: null },
    ]);

    const { html, doc } = await new Client(base).get(`/posts/${id}`);
    const citations = doc.querySelectorAll(".post-content sup.citation a");
    expect(citations.map((a) => [a.text, a.getAttribute("href"), a.getAttribute("id") ?? null])).toEqual([
      ["[1]", "#zdroj-1", "zmienka-1"],
      ["[2]", "#zdroj-2", "zmienka-2"],
      ["[1]", "#zdroj-1", null],
    ]);
    expect(doc.querySelector(".post-content")!.text).toContain("[9] nie je zdroj");

    const section = doc.querySelector("section.post-sources")!;
    expect(section.querySelector("h2")!.text).toBe("Zdroje");
    const items = section.querySelectorAll("li");
    expect(items.map((li) => li.getAttribute("id"))).toEqual(["zdroj-1", "zdroj-2", "zdroj-3"]);
    const link = items[1].querySelector("a:not(.source-back)")!;
    expect([link.getAttribute("href"), link.getAttribute("rel"), link.text]).toEqual([
      "https://www.minv.sk/?slovensky-narodny-archiv",
      "nofollow ugc noopener",
      "Štefánikova korešpondencia, SNA",
    ]);
    expect(items[0].querySelector(".source-back")!.getAttribute("href")).toBe("#zmienka-1");
    // Never cited: no way back.
    expect(items[2].querySelector(".source-back")).toBeNull();
    // The hostile source is text, escaped.
    expect(html).not.toContain('<script>alert("x")');
    expect(items[2].querySelectorAll("a")).toHaveLength(0);

    expect(jsonLd(html)).toMatchObject({
      "@type": "Article",
      headline: "Štefánik a jeho pramene",
      citation: [
        "Kováč, D.: Dejiny Slovenska. Praha: NLN, 1998.",
        { "@type": "CreativeWork", name: "Štefánikova korešpondencia, SNA", url: "https://www.minv.sk/?slovensky-narodny-archiv" },
        'Poznámka s <script>alert("x")</script> a odkazom javascript:alert(1)',
      ],
    });

    // The card's excerpt has no markers.
    const list = await new Client(base).get("/posts");
    const card = list.doc.querySelectorAll(".card").find((c) => c.querySelector("a")!.getAttribute("href") === `/posts/${id}`)!;
    expect(card.querySelector(".card-excerpt")!.text).toBe("Štefánik študoval v Prahe. Znova, a nie je zdroj.");
  });

  it("are edited with the article: the edit form shows them as typed, and bad ones change nothing", async () => {
    const { client } = await registerUser(base);
    const id = (await publishWithSources(client, "Prvý zdroj https://a.sk/")).response.headers.get("location")!.split("/").pop()!;
    const edit = await client.get(`/posts/${id}?edit`);
    expect(edit.doc.querySelector('label[for="field-sources"]')!.text).toContain("Zdroje");
    expect(edit.doc.querySelector("textarea#field-sources")!.text).toBe("Prvý zdroj https://a.sk/");

    const refused = await client.post(`/posts/${id}`, { intent: "save", title: "Nový nadpis", content: "Text [1]", sources: "Zlý odkaz https://" });
    expect(refused.response.status).toBe(400);
    expect(refused.doc.querySelector(".form-error")!.text).toBe(SOURCE_MESSAGES.badLink(1));
    expect(storedSources(id)).toEqual([{ text: "Prvý zdroj", url: "https://a.sk/" }]);

    const saved = await saveEdit(client, id, { title: "Nový nadpis", content: "Text [1]", sources: "Iný zdroj\r\nDruhý" });
    expect(saved.response.status).toBe(303);
    expect(storedSources(id)).toEqual([
      { text: "Iný zdroj", url: null },
      { text: "Druhý", url: null },
    ]);
    // Leaving the field empty removes them.
    await saveEdit(client, id, { title: "Nový nadpis", content: "Text [1]", sources: "" });
    const page = await client.get(`/posts/${id}`);
    expect(page.doc.querySelector("section.post-sources")).toBeNull();
    expect(page.doc.querySelector(".post-content sup")).toBeNull();
    expect(jsonLd(page.html)).not.toHaveProperty("citation");
  });

  it("refuses a create form with too many sources, and keeps what was typed", async () => {
    const { client } = await registerUser(base);
    const tooMany = Array.from({ length: 31 }, (_, i) => `Zdroj ${i + 1}`).join("\n");
    const { response, html } = await publishWithSources(client, tooMany);
    expect(response.status).toBe(400);
    expect(html).toContain(SOURCE_MESSAGES.tooMany);
    const { parse } = await import("node-html-parser");
    const doc = parse(html);
    expect(doc.querySelector("textarea#field-sources")!.text).toBe(tooMany);
    expect(doc.querySelector("textarea#field-sources")!.getAttribute("aria-invalid")).toBe("true");
  });

  it("lets links an author writes in the text work, safely", async () => {
    const { client } = await registerUser(base);
    const content = 'Pozri <a href="https://www.sav.sk/" onclick="x()">SAV</a> a <a href="javascript:alert(1)">toto</a>.';
    const id = (await publishWithSources(client, "", content)).response.headers.get("location")!.split("/").pop()!;
    const { doc } = await new Client(base).get(`/posts/${id}`);
    const links = doc.querySelectorAll(".post-content a");
    expect(links.map((a) => a.toString())).toEqual(['<a href="https://www.sav.sk/" rel="nofollow ugc noopener">SAV</a>', "<a>toto</a>"]);
    expect(doc.querySelector("section.post-sources")).toBeNull();
  });
});
