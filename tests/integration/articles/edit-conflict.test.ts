import { describe, expect, inject, it } from "vitest";
import { REVISION_MESSAGES } from "~/lib/revisions";
import { Client, registerUser } from "../../../scripts/lib/client";
import { editBase, publish } from "../../../scripts/lib/publish";
import { readDatabase } from "../../support/http";

const base = inject("baseUrl");
const databasePath = inject("databasePath");

const TITLE = "Konflikt: Bitka pri Moháči";
const FIRST = "Bitka sa odohrala v roku 1526 pri Moháči.";

const revisionsOf = (postId: string) =>
  readDatabase(databasePath, (db) => db.prepare("SELECT number, title, content, summary FROM revisions WHERE post_id = ? ORDER BY number").all(postId)) as {
    number: number;
    title: string;
    content: string;
    summary: string;
  }[];
const currentContent = (postId: string) => readDatabase(databasePath, (db) => db.prepare("SELECT content FROM posts WHERE id = ?").pluck().get(postId)) as string;

async function article() {
  const displayName = `Autorka ${Date.now() % 100000}`;
  const author = await registerUser(base, { displayName });
  const id = (await publish(author.client, TITLE, ["Osmanská ríša"], FIRST))!;
  expect(id).not.toBeNull();
  return { ...author, displayName, id };
}

async function admin() {
  const displayName = `Správca ${Date.now() % 100000}`;
  const account = await registerUser(base, { displayName });
  readDatabase(databasePath, (db) => db.prepare("UPDATE users SET is_admin = 1 WHERE email = ?").run(account.email), true);
  return { ...account, displayName };
}

const save = (client: Client, id: string, baseRevision: string | null, fields: Record<string, string>) =>
  client.post(`/posts/${id}?edit`, { intent: "save", title: TITLE, content: FIRST, ...(baseRevision !== null && { baseRevision }), ...fields });

/** What the refused answer's form holds: the typed fields and the revision it is now based on. */
function formOf(doc: Awaited<ReturnType<Client["post"]>>["doc"]) {
  return {
    title: doc.querySelector("#edit-title")?.getAttribute("value"),
    content: doc.querySelector("#edit-content")?.text,
    summary: doc.querySelector('input[name="summary"]')?.getAttribute("value"),
    base: doc.querySelector('input[name="baseRevision"]')?.getAttribute("value"),
  };
}

describe("two editors saving at once", () => {
  it("refuses the later save based on an older revision with 409, names who saved and when, keeps its text and shows the difference; saving again goes through", async () => {
    const author = await article();
    const editor = await admin();
    // Both open the edit form at revision 1.
    const [authorBase, editorBase] = await Promise.all([editBase(author.client, author.id), editBase(editor.client, author.id)]);
    expect(authorBase).toBe("1");
    expect(editorBase).toBe("1");

    const first = await save(editor.client, author.id, editorBase, { content: "Bitka sa odohrala v roku 1526 pri Moháči na Dunaji.", summary: "Doplnené miesto" });
    expect(first.response.status).toBe(303);

    const typed = "Bitka sa odohrala 29. augusta 1526 pri Moháči.";
    const late = await save(author.client, author.id, authorBase, { content: typed, summary: "Presný dátum" });
    expect(late.response.status).toBe(409);
    const error = late.doc.querySelector("#edit-error")!.text;
    expect(error).toMatch(new RegExp(`^Kým ste písali, článok upravil\\(a\\) ${editor.displayName} \\(\\d{1,2}\\. \\d{1,2}\\. \\d{4},? \\d{1,2}:\\d{2}\\)\\. Vaše zmeny nie sú uložené`));
    // Nothing was written: the editor's text stands, two revisions.
    expect(revisionsOf(author.id).map((r) => r.number)).toEqual([1, 2]);
    expect(currentContent(author.id)).toContain("na Dunaji");
    // The form again, what was typed kept, now based on the current revision.
    expect(formOf(late.doc)).toEqual({ title: TITLE, content: typed, summary: "Presný dátum", base: "2" });
    // The current article against what was typed, word by word.
    const diff = late.doc.querySelector(".edit-conflict")!;
    expect(diff.text).toContain(`verzia 2`);
    expect(diff.text).toContain("Doplnené miesto");
    const text = diff.querySelector("#diff-text + .diff-text")!;
    const marked = (tag: string) => text.querySelectorAll(tag).map((e) => e.text.replace(/\s+/g, " "));
    expect(marked("ins")).toEqual(["[pridané: 29. augusta]"]);
    expect(marked("del").join(" ")).toMatch(/^\[odstránené: v roku ?\].*\[odstránené: ?na Dunaji\]$/);
    expect(diff.querySelector("#diff-nadpis + p")!.text).toBe("Bez zmeny.");

    // Having read it, the author saves again from the answer's form: it goes through as revision 3.
    const again = await save(author.client, author.id, formOf(late.doc).base!, { content: typed, summary: "Presný dátum" });
    expect(again.response.status).toBe(303);
    expect(revisionsOf(author.id).map(({ number, summary }) => ({ number, summary }))).toEqual([
      { number: 1, summary: "" },
      { number: 2, summary: "Doplnené miesto" },
      { number: 3, summary: "Presný dátum" },
    ]);
    expect(currentContent(author.id)).toBe(typed);
  });

  it("counts the saves in between when there were several, naming the last", async () => {
    const author = await article();
    const opened = await editBase(author.client, author.id);
    for (const content of ["Druhá verzia.", "Tretia verzia."]) expect((await save(author.client, author.id, await editBase(author.client, author.id), { content })).response.status).toBe(303);
    const late = await save(author.client, author.id, opened, { content: "Z prvej karty." });
    expect(late.response.status).toBe(409);
    expect(late.doc.querySelector("#edit-error")!.text).toMatch(new RegExp(`^Kým ste písali, článok dostal 2 úpravy, naposledy od ${author.displayName} \\(`));
    expect(formOf(late.doc).base).toBe("3");
  });

  it("refuses a save whose base revision is missing, malformed or ahead of the article with 400, its text kept, nothing written", async () => {
    const author = await article();
    for (const baseRevision of [null, "", "abc", "0", "-1", "1.0", "1e0", " 1", "01", "9".repeat(12), "2"]) {
      const typed = `Text z formulára ${JSON.stringify(baseRevision)}.`;
      const refused = await save(author.client, author.id, baseRevision, { content: typed });
      expect(refused.response.status, String(baseRevision)).toBe(400);
      expect(refused.doc.querySelector("#edit-error")!.text).toBe(REVISION_MESSAGES.staleForm);
      expect(formOf(refused.doc)).toMatchObject({ content: typed, base: "1" });
      expect(refused.doc.querySelector(".edit-conflict .diff-text ins")).not.toBeNull();
    }
    expect(revisionsOf(author.id).map((r) => r.number)).toEqual([1]);
    expect(currentContent(author.id)).toBe(FIRST);
  });

  it("lets exactly one of two saves sent at the same moment from the same base through, however their sanitising interleaves", async () => {
    const author = await article();
    const editor = await admin();
    const opened = await editBase(author.client, author.id);
    // Long bodies with markup keep the sanitiser busy between reading the form and writing.
    const body = (who: string) => `<p>${who}: <b>odsek</b> s <i>textom</i>.</p>\n`.repeat(600);
    const answers = await Promise.all([
      save(author.client, author.id, opened, { content: body("Autorka") }),
      save(editor.client, author.id, opened, { content: body("Správca") }),
    ]);
    expect(answers.map((a) => a.response.status).sort()).toEqual([303, 409]);
    expect(revisionsOf(author.id).map((r) => r.number)).toEqual([1, 2]);
  });

  it("answers a stale save sent by JavaScript (a data request) with 409 and the form's new base", async () => {
    const author = await article();
    const opened = await editBase(author.client, author.id);
    expect((await save(author.client, author.id, opened, { content: "Medzitým." })).response.status).toBe(303);
    const response = await author.client.request(`/posts/${author.id}.data?edit`, {
      method: "POST",
      headers: { Origin: base, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ intent: "save", baseRevision: opened, title: TITLE, content: "Z druhej karty." }),
    });
    expect(response.status).toBe(409);
    const payload = await response.text();
    expect(payload).toContain("Kým ste písali");
    expect(payload).toContain("Z druhej karty.");
    expect(revisionsOf(author.id)).toHaveLength(2);
  });
});
