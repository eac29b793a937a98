import { beforeAll, describe, expect, inject, it } from "vitest";
import { Client, registerUser } from "../../../scripts/lib/client";
import { publish, saveEdit } from "../../../scripts/lib/publish";
import { MODERATION_MESSAGES } from "~/lib/moderation/moderation";
import { grantAdmin, registerConfirmedUser } from "../../support/accounts";
import { readDatabase } from "../../support/http";

const base = inject("baseUrl");
const paths = { databasePath: inject("databasePath"), uploadsDir: inject("uploadsDir") };

/** Four passages and a heading, as an author types them. */
const TYPED = [
  "Veľkú Moravu založil Mojmír I.",
  "Vládol do roku 846.",
  "",
  "Cyril a Metod prišli na Moravu v roku 863 na pozvanie Rastislava.",
  "",
  "<h2>Dôsledky</h2>",
  "Staroslovienčina sa stala jazykom liturgie.",
  "<ul>",
  "<li>hlaholika</li>",
  "<li>preklady</li>",
  "</ul>",
].join("\n");
const SECOND = "Cyril a Metod prišli na Moravu v roku 863 na pozvanie Rastislava.";

type FlagRow = { reporter_id: string; reason: string; note: string; paragraph: number | null; passage: string; state: string };
const flagsOf = (postId: string) =>
  readDatabase(paths.databasePath, (db) => db.prepare("SELECT reporter_id, reason, note, paragraph, passage, state FROM reports WHERE post_id = ? ORDER BY id").all(postId) as FlagRow[]);
const userId = (email: string) => readDatabase(paths.databasePath, (db) => (db.prepare("SELECT id FROM users WHERE email = ?").get(email) as { id: string }).id);

const flagForm = (fields: Record<string, string> = {}) => ({ reason: "missingSource", note: "", ...fields });

let author: Client;
let reader: Client;
let readerEmail: string;
let postId: string;
beforeAll(async () => {
  ({ client: author } = await registerUser(base));
  ({ client: reader, email: readerEmail } = await registerUser(base));
  postId = (await publish(author, "Veľká Morava a jej odseky", ["Stredovek"], TYPED))!;
  expect(postId).toBeTruthy();
});

describe("an article's passages", () => {
  it("each have an anchor; 'Zdroj?' links only for a signed-in reader who may not edit the article", async () => {
    const anonymous = await new Client(base).get(`/posts/${postId}`);
    const anchors = anonymous.doc.querySelectorAll(".post-content [id^=odsek-]");
    expect(anchors.map((a) => a.id)).toEqual(["odsek-1", "odsek-2", "odsek-3", "odsek-4"]);
    expect(anonymous.doc.querySelector("#odsek-2")?.text).toBe(SECOND);
    expect(anonymous.doc.querySelector("#odsek-4 ul")).not.toBeNull();
    expect(anonymous.doc.querySelector(".post-content h2")?.getAttribute("id")).toBeUndefined();
    expect(anonymous.html).not.toContain("passage-flag");

    const signedIn = await reader.get(`/posts/${postId}`);
    const links = signedIn.doc.querySelectorAll(".post-content a.passage-flag");
    expect(links.map((a) => a.getAttribute("href"))).toEqual([1, 2, 3, 4].map((n) => `/posts/${postId}/report?odsek=${n}`));
    expect(signedIn.doc.querySelector("#odsek-2 a.passage-flag")?.text).toBe("Zdroj? (označiť odsek 2)");

    // Its author edits instead, and so does an admin.
    expect((await author.get(`/posts/${postId}`)).html).not.toContain("passage-flag");
    const { client: admin, email } = await registerUser(base);
    grantAdmin(paths.databasePath, email);
    expect((await admin.get(`/posts/${postId}`)).html).not.toContain("passage-flag");
  });
});

describe("flagging a passage", () => {
  it("shows the passage quoted with the passage's reasons, and stores the server's text of it, whatever the form says", async () => {
    const form = await reader.get(`/posts/${postId}/report?odsek=2`);
    expect(form.response.status).toBe(200);
    expect(form.doc.querySelector("h1")?.text).toBe("Označiť odsek");
    expect(form.doc.querySelector(".passage-quote")?.text).toBe(`Odsek 2: „${SECOND}“`);
    expect(form.doc.querySelectorAll('input[name="reason"]').map((r) => r.getAttribute("value"))).toEqual(["missingSource", "inaccurate", "otherPassage"]);
    expect(form.doc.querySelector('input[value="missingSource"]')?.hasAttribute("checked")).toBe(true);

    const sent = await reader.post(`/posts/${postId}/report?odsek=2`, flagForm({ note: "Kde je prameň k roku 863?", passage: "podvrh", paragraph: "1" }));
    expect(sent.response.status).toBe(200);
    expect(sent.doc.querySelector('[role="status"]')?.text).toContain("hlásenie sme prijali");
    expect(flagsOf(postId)).toEqual([{ reporter_id: userId(readerEmail), reason: "missingSource", note: "Kde je prameň k roku 863?", paragraph: 2, passage: SECOND, state: "open" }]);
  });

  it("refuses a second open flag of the same passage with its message and the note kept; another passage, or the whole article, is fine", async () => {
    const again = await reader.post(`/posts/${postId}/report?odsek=2`, flagForm({ reason: "inaccurate", note: "Ešte raz" }));
    expect(again.response.status).toBe(400);
    expect(again.doc.querySelector("#report-error")?.text).toBe(MODERATION_MESSAGES.passageDuplicate);
    expect(again.doc.querySelector("#field-note")?.text).toBe("Ešte raz");
    expect(again.doc.querySelector('input[value="inaccurate"]')?.hasAttribute("checked")).toBe(true);
    expect(flagsOf(postId)).toHaveLength(1);

    expect((await reader.post(`/posts/${postId}/report?odsek=4`, flagForm({ reason: "otherPassage" }))).response.status).toBe(200);
    expect((await reader.post(`/posts/${postId}/report`, { reason: "misinformation" })).response.status).toBe(200);
    expect(flagsOf(postId).map((f) => [f.paragraph, f.reason, f.passage])).toEqual([
      [2, "missingSource", SECOND],
      [4, "otherPassage", "hlaholika preklady"],
      [null, "misinformation", ""],
    ]);
  });

  it("answers 400 with a clear message to a passage the article does not have, or a garbled number, and stores nothing", async () => {
    const { client } = await registerUser(base);
    const before = flagsOf(postId).length;
    for (const odsek of ["5", "99", "0", "-1", "abc", "", "2.0", "9".repeat(50)]) {
      const page = await client.get(`/posts/${postId}/report?odsek=${encodeURIComponent(odsek)}`);
      expect(page.response.status, odsek).toBe(400);
      expect(page.doc.querySelector(".form-error")?.text).toBe(MODERATION_MESSAGES.noSuchPassage);
      expect(page.doc.querySelector("input[name=reason]")).toBeNull();
      const sent = await client.post(`/posts/${postId}/report?odsek=${encodeURIComponent(odsek)}`, flagForm());
      expect(sent.response.status, odsek).toBe(400);
      expect(sent.html).toContain(MODERATION_MESSAGES.noSuchPassage);
    }
    // A reason of the article's list is not one for a passage.
    const wrong = await client.post(`/posts/${postId}/report?odsek=1`, { reason: "spam" });
    expect(wrong.response.status).toBe(400);
    expect(wrong.doc.querySelector("#report-error")?.text).toBe(MODERATION_MESSAGES.passageReason);
    expect(flagsOf(postId)).toHaveLength(before);
  });

  it("refuses control and bidi characters in the note, keeping what was typed", async () => {
    const { client } = await registerUser(base);
    const before = flagsOf(postId).length;
    for (const note of ["zvonček \u0007", "obrátene \u202Etxet", "únik \u001B[31m"]) {
      const sent = await client.post(`/posts/${postId}/report?odsek=1`, flagForm({ note }));
      expect(sent.response.status).toBe(400);
      expect(sent.doc.querySelector("#report-error")?.text).toBe(MODERATION_MESSAGES.reportNoteControls);
      expect(sent.doc.querySelector("#field-note")?.getAttribute("aria-invalid")).toBe("true");
      expect(sent.doc.querySelector("#field-note")?.text).toBe(note);
    }
    expect(flagsOf(postId)).toHaveLength(before);
  });

  it("refuses its author: no form, and a sent one changes nothing", async () => {
    const page = await author.get(`/posts/${postId}/report?odsek=1`);
    expect(page.doc.querySelector("input[name=reason]")).toBeNull();
    const before = flagsOf(postId).length;
    const sent = await author.post(`/posts/${postId}/report?odsek=1`, flagForm());
    expect(sent.response.status).toBe(400);
    expect(sent.html).toContain(MODERATION_MESSAGES.reportOwn);
    expect(flagsOf(postId)).toHaveLength(before);
  });

  it("sends a visitor to sign in first", async () => {
    const { response } = await new Client(base).get(`/posts/${postId}/report?odsek=2`);
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toContain("/signinsignup?redirectTo=");
  });

  it("quotes the passage as it is when flagged, after the author's edit", async () => {
    const { client } = await registerUser(base);
    const edited = TYPED.replace(SECOND, "Cyril a Metod prišli v roku 863 [1].");
    expect((await saveEdit(author, postId, { title: "Veľká Morava a jej odseky", content: edited, sources: "Život Konštantína" })).response.status).toBe(303);
    expect((await client.post(`/posts/${postId}/report?odsek=2`, flagForm())).response.status).toBe(200);
    expect(flagsOf(postId).at(-1)).toMatchObject({ paragraph: 2, passage: "Cyril a Metod prišli v roku 863." });
  });
});

describe("the open flags", () => {
  it("are listed on the author's edit form, above the text, without who asked or their note for the editors", async () => {
    const { doc } = await author.get(`/posts/${postId}?edit`);
    const items = doc.querySelectorAll(".edit-form .passage-flags li").map((li) => li.text);
    expect(items).toEqual([
      `Odsek 2: „${SECOND}“ — Chýba zdroj`,
      "Odsek 2: „Cyril a Metod prišli v roku 863.“ — Chýba zdroj",
      "Odsek 4: „hlaholika preklady“ — Iné",
    ]);
    expect(doc.querySelector(".passage-flags a")?.getAttribute("href")).toBe(`/posts/${postId}#odsek-2`);
    // The list comes before the text field.
    const form = doc.querySelector(".edit-form")!.toString();
    expect(form.indexOf("passage-flags")).toBeLessThan(form.indexOf('id="edit-content"'));
    expect(doc.querySelector(".passage-flags")?.text).not.toContain("Používateľ");
    expect(doc.toString()).not.toContain("Kde je prameň k roku 863?");
  });

  it("arrive in the admins' queue, quoted with their passage's number", async () => {
    const { client: admin, email } = await registerUser(base);
    grantAdmin(paths.databasePath, email);
    const { doc } = await admin.get("/admin");
    const article = doc.querySelectorAll(".report-list > li").find((li) => li.querySelector(`a[href="/posts/${postId}"]`));
    expect(article).toBeDefined();
    const flag = article!.querySelectorAll("li").find((li) => li.text.includes("odsek 2"))!;
    expect(flag.querySelector(".muted")?.text).toMatch(/^Chýba zdroj · odsek 2 · nahlásil\(a\)/);
    expect(flag.querySelector("blockquote")?.text).toBe(SECOND);
    expect(flag.querySelector("p.report-note")?.text).toBe("Kde je prameň k roku 863?");
  });
});

describe("a flag's note for the editors", () => {
  const NOTE = "Som Ján Novák, tel. 0901 123 456: k roku 863 chýba prameň.";
  const mailsWithNote = () =>
    readDatabase(paths.databasePath, (db) => db.prepare("SELECT recipient FROM mail_outbox WHERE text LIKE '%Novák%' OR html LIKE '%Novák%' OR subject LIKE '%Novák%'").all());

  it("reaches the admins' queue only: never the author's edit form, its data (JavaScript), nor any mail, whatever is decided", async () => {
    // Confirmed: a fix request is mailed only to a confirmed address.
    const { client: writer, email: writerEmail } = await registerConfirmedUser(base, paths.databasePath);
    const id = (await publish(writer, "Poznámka len pre redakciu", ["Stredovek"], TYPED))!;
    const { client: flagger } = await registerUser(base);
    expect((await flagger.post(`/posts/${id}/report?odsek=2`, flagForm({ note: NOTE }))).response.status).toBe(200);

    // The author's edit form says which passage and why, without JavaScript and with it (its data).
    const page = await writer.get(`/posts/${id}?edit`);
    expect(page.doc.querySelectorAll(".passage-flags li").map((li) => li.text)).toEqual([`Odsek 2: „${SECOND}“ — Chýba zdroj`]);
    for (const path of [`/posts/${id}?edit`, `/posts/${id}.data?edit`, `/posts/${id}.data`, `/posts/${id}`, "/account"]) {
      const answer = await writer.request(path);
      expect(answer.status, path).toBe(200);
      expect(await answer.text(), path).not.toContain("Novák");
    }

    // Admins read it in their queue (their edit form lists the flags as the author's does).
    const { client: admin, email } = await registerUser(base);
    grantAdmin(paths.databasePath, email);
    const queue = await admin.get("/admin");
    const article = queue.doc.querySelectorAll(".report-list > li").find((li) => li.querySelector(`a[href="/posts/${id}"]`));
    expect(article?.querySelector("p.report-note")?.text).toBe(NOTE);
    expect((await admin.get(`/posts/${id}?edit`)).html).not.toContain("Novák");

    // Asked to fix it, the author is mailed what to fix: the decision's reason, never the note.
    const decided = await admin.post("/admin", { intent: "decide", post: id, decision: "requestFix", reason: "Doplňte prameň k roku 863." });
    expect(decided.response.status).toBe(303);
    const toAuthor = readDatabase(paths.databasePath, (db) => db.prepare("SELECT text FROM mail_outbox WHERE recipient = ?").all(writerEmail) as { text: string }[]);
    expect(toAuthor.some((mail) => mail.text.includes("Doplňte prameň k roku 863."))).toBe(true);
    expect(mailsWithNote()).toEqual([]);
    // The form says so to whoever writes one.
    const form = await flagger.get(`/posts/${id}/report?odsek=3`);
    expect(form.doc.querySelector("#note-hint")?.text).toBe("Poznámku si prečíta iba redakcia, autor článku ju neuvidí.");
    expect(form.doc.querySelector("#field-note")?.getAttribute("aria-describedby")).toBe("note-hint");
  });

  it("is not shown to an admin in the queue of their own article's reports, as its reporters' names are not", async () => {
    const { client: adminAuthor, email } = await registerUser(base);
    grantAdmin(paths.databasePath, email);
    const id = (await publish(adminAuthor, "Článok administrátora s odsekmi", ["Stredovek"], TYPED))!;
    const { client: flagger } = await registerUser(base);
    expect((await flagger.post(`/posts/${id}/report?odsek=1`, flagForm({ note: NOTE }))).response.status).toBe(200);
    const queue = await adminAuthor.get("/admin");
    const article = queue.doc.querySelectorAll(".report-list > li").find((li) => li.querySelector(`a[href="/posts/${id}"]`));
    expect(article?.text).toContain("nahlásil(a) čitateľ");
    expect(article?.text).not.toContain("Novák");
    expect((await adminAuthor.get(`/posts/${id}?edit`)).html).not.toContain("Novák");
  });
});
