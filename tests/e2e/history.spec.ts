import type { Page, TestInfo } from "@playwright/test";
import { registerUser } from "../../scripts/lib/client";
import { publish, saveEdit } from "../../scripts/lib/publish";
import { expect, expectNoAxeViolations, snapshot, test } from "./fixtures";

const FIRST = "Husiti porazili križiacke vojsko pri Domažliciach v roku 1431.";
const EDITED = "Husiti porazili piatu križiacku výpravu pri Domažliciach 14. augusta 1431.";

async function open(page: Page, path: string, jsEnabled: boolean) {
  await page.goto(path);
  if (jsEnabled) await page.waitForLoadState("networkidle");
}

async function check(page: Page, testInfo: TestInfo, jsEnabled: boolean, name: string) {
  await snapshot(page, testInfo, name);
  if (jsEnabled) await expectNoAxeViolations(page);
}

/** An author with a published article, signed in in this browser too (the session's cookie handed over). */
async function authorWithArticle(page: Page, testInfo: TestInfo, name: string) {
  const base = process.env.E2E_BASE_URL!;
  const author = await registerUser(base, { displayName: `${name} ${testInfo.project.name}` });
  const title = `Domažlice ${testInfo.project.name} ${Date.now()}`;
  const id = (await publish(author.client, title, ["Stredovek", "Dejiny Česka"], FIRST))!;
  expect(id).not.toBeNull();
  await page.context().addCookies([...author.client.cookies].map(([name, value]) => ({ name, value, url: base })));
  return { ...author, id, title };
}

test("an author edits with a summary, opens the history, compares two revisions, views the old one and restores it", { tag: "@flow" }, async ({ page, jsEnabled }, testInfo) => {
  const { id, title } = await authorWithArticle(page, testInfo, "Kronikárka");
  await open(page, `/posts/${id}`, jsEnabled);
  const dialog = page.getByRole("dialog", { name: title });
  // Not edited yet: no history link.
  await expect(dialog.getByRole("link", { name: /Upravené/ })).toHaveCount(0);

  await dialog.getByRole("link", { name: "Edit" }).click();
  await page.getByPlaceholder("Edit content").fill(EDITED);
  const summary = page.getByLabel("Čo ste zmenili?");
  await summary.fill("Presný dátum a názov výpravy");
  // A plain field, not set like the title above it.
  const font = (field: typeof summary) => field.evaluate((element) => `${getComputedStyle(element).fontFamily} ${getComputedStyle(element).fontWeight}`);
  expect(await font(summary)).toBe(await font(page.locator("#field-sources")));
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByPlaceholder("Edit title")).toHaveCount(0);
  await expect(dialog.locator(".post-content")).toContainText("14. augusta 1431");

  // The article links its history: "Upravené <date> · 1 úprava".
  await dialog.getByRole("link", { name: /^Upravené .+ · 1 úprava$/ }).click();
  await expect(page).toHaveURL(new RegExp(`/posts/${id}/history$`));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("História článku");
  const rows = page.locator(".history-table tbody tr");
  await expect(rows).toHaveCount(2);
  await expect(rows.first().locator('[data-label="Popis zmeny"]')).toHaveText("Presný dátum a názov výpravy");
  await check(page, testInfo, jsEnabled, "history");

  // The newest two are chosen at first: compare them.
  await page.getByRole("button", { name: "Porovnať vybrané verzie" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Porovnanie verzií");
  const text = page.locator("#diff-text + .diff-text");
  await expect(text.locator("ins").first()).toBeVisible();
  await expect(text.locator("del").first()).toBeVisible();
  await expect(text.locator("ins")).toContainText(["piatu križiacku výpravu"]);
  await expect(text.locator("del")).toContainText(["križiacke vojsko"]);
  // Insertions framed, not underlined (that reads as a link); deletions struck through.
  await expect(text.locator("ins").first()).toHaveCSS("text-decoration-line", "none");
  await expect(text.locator("ins").first()).toHaveCSS("border-top-style", "solid");
  await expect(text.locator("del").first()).toHaveCSS("text-decoration-line", "line-through");
  await check(page, testInfo, jsEnabled, "compare");

  // The older one as readers saw it: marked as old, linked to the current article.
  await page.locator(".comparison-sides").getByRole("link", { name: "verzia 1" }).click();
  const notice = page.locator(".revision-notice");
  await expect(notice).toContainText("Staršia verzia");
  await expect(notice.getByRole("link", { name: "Zobraziť aktuálny článok" })).toHaveAttribute("href", `/posts/${id}`);
  await expect(page.locator(".revision-article")).toContainText(FIRST);
  await check(page, testInfo, jsEnabled, "old-revision");

  // Restore it: the server asks first (with JavaScript too: the same step, without a reload).
  await page.getByRole("button", { name: "Obnoviť túto verziu" }).click();
  const confirm = page.getByRole("form", { name: /Obnoviť túto verziu\?/ });
  await expect(confirm).toBeVisible();
  await snapshot(page, testInfo, "restore-confirm");
  await confirm.getByRole("button", { name: "Obnoviť" }).click();

  // A new revision, named after the one restored; the history is whole.
  await expect(page).toHaveURL(new RegExp(`/posts/${id}/history$`));
  await expect(rows).toHaveCount(3);
  await expect(rows.first().locator('[data-label="Popis zmeny"]')).toHaveText(/^Obnovená verzia z \d{1,2}\. \d{1,2}\. \d{4}/);
  await check(page, testInfo, jsEnabled, "restored");
  await open(page, `/posts/${id}`, jsEnabled);
  await expect(page.locator(".post-content")).toContainText(FIRST);
});

test("a save based on an older revision is refused with the difference, its text kept; saving again goes through", { tag: "@flow" }, async ({ page, jsEnabled }, testInfo) => {
  const { id, title, client } = await authorWithArticle(page, testInfo, "Letopiskyňa");
  await open(page, `/posts/${id}?edit`, jsEnabled);
  // Meanwhile, in another tab, the same article is saved.
  expect((await saveEdit(client, id, { title, content: `${FIRST} Bitka trvala jediný deň.`, summary: "Doplnená dĺžka bitky" })).response.status).toBe(303);

  await page.getByPlaceholder("Edit content").fill(EDITED);
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.locator("#edit-error")).toHaveText(/^Kým ste písali, článok upravil\(a\) Letopiskyňa .+ \(.+\)\. Vaše zmeny nie sú uložené/);
  await expect(page.getByPlaceholder("Edit content")).toHaveValue(EDITED);
  const diff = page.locator(".edit-conflict");
  await expect(diff).toContainText("Doplnená dĺžka bitky");
  await expect(diff.locator("#diff-text + .diff-text del")).toContainText(["križiacke vojsko", "Bitka trvala jediný deň."]);
  await check(page, testInfo, jsEnabled, "edit-conflict");

  // Read, and saved again: now based on the current revision, it goes through.
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByPlaceholder("Edit title")).toHaveCount(0);
  await expect(page.locator(".post-content")).toContainText("14. augusta 1431");
  await expect(page.getByRole("link", { name: /^Upravené .+ · 2 úpravy$/ })).toBeVisible();
});
