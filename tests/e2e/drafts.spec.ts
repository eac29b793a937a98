import type { Page } from "@playwright/test";
import { uniqueEmail } from "../../scripts/lib/client";
import { makeImage } from "../../scripts/lib/images";
import { chooseTags, expect, expectNoAxeViolations, isSameDocument, markDocument, snapshot, test, pageStatus } from "./fixtures";

const PASSWORD = "konceptove-heslo-1";

async function open(page: Page, path: string, jsEnabled: boolean) {
  await page.goto(path);
  if (jsEnabled) await page.waitForLoadState("networkidle");
}

/** A new account, signed in in this page's browser context. */
async function signUp(page: Page, name: string) {
  const response = await page.request.post("/signinsignup", {
    form: { intent: "register", displayName: `Autorka Konceptov ${name}`, email: uniqueEmail(name), password: PASSWORD, confirmPassword: PASSWORD },
    headers: { Origin: new URL(page.url() === "about:blank" ? process.env.E2E_BASE_URL! : page.url()).origin },
    maxRedirects: 0,
  });
  expect(response.status()).toBe(303);
}

test("an author saves a draft, previews it and publishes it", { tag: "@flow" }, async ({ page, jsEnabled }, testInfo) => {
  const title = `Koncept ${testInfo.project.name} ${Date.now()}`;
  await signUp(page, `koncept-${testInfo.project.name}`);
  await open(page, "/create-post", jsEnabled);

  // Only a title and some text: enough for a draft.
  await page.getByLabel("Nadpis").fill(title);
  await page.getByLabel("Text článku").fill("Prvý odsek o <b>Veľkej Morave</b> [1].<script>window.__x = 1</script>\nDruhý riadok.");
  await page.getByLabel(/^Zdroje/).fill("Dejiny Slovenska I, 1986 https://example.com/dejiny");
  await page.getByLabel(/Obrázok/).setInputFiles({ name: "morava.jpg", mimeType: "image/jpeg", buffer: await makeImage("jpeg", 1000, 620) });
  if (jsEnabled) await expect(page.locator(".image-preview img")).toBeVisible();
  await page.getByRole("button", { name: "Uložiť koncept" }).click();
  await expect(page).toHaveURL(/\/drafts\/[\w-]+$/);
  const draftUrl = new URL(page.url()).pathname;
  await expect(pageStatus(page)).toHaveText("Koncept je uložený. Čitatelia ho nevidia.");
  await expect(page.getByLabel("Nadpis")).toHaveValue(title);
  await expect(page.locator(".image-preview img")).toBeVisible();

  // The account page lists it.
  await open(page, "/account", jsEnabled);
  const listed = page.locator(".draft-list li").filter({ hasText: title });
  await expect(listed).toContainText("nový článok");
  await listed.scrollIntoViewIfNeeded();
  await snapshot(page, testInfo, "drafts-account");
  if (jsEnabled) await expectNoAxeViolations(page);

  // Continued: tags, then the preview.
  await listed.getByRole("link", { name: title }).click();
  await expect(page).toHaveURL(new RegExp(`${draftUrl}$`));
  // Said once: coming back, the draft's page says nothing.
  await expect(pageStatus(page)).toHaveCount(0);
  if (jsEnabled) {
    await page.waitForLoadState("networkidle");
    await page.getByLabel(/^Tagy/).selectOption("Morava");
    await markDocument(page);
  } else {
    await page.getByRole("checkbox", { name: "Morava", exact: true }).check();
  }
  await page.getByRole("button", { name: "Náhľad" }).click();
  const preview = page.getByRole("region", { name: "Náhľad — článok ešte nie je uverejnený" });
  await expect(preview).toBeVisible();
  await expect(preview.getByRole("heading", { name: title })).toBeVisible();
  await expect(preview.locator(".post-content b")).toHaveText("Veľkej Morave");
  await expect(preview.locator(".post-content script")).toHaveCount(0);
  await expect(preview.getByRole("link", { name: "Zdroj č. 1" })).toBeVisible();
  await expect(preview.locator(".post-sources a").first()).toHaveAttribute("href", "https://example.com/dejiny");
  await expect(preview.locator(".post-tags li")).toHaveText(["Morava"]);
  await expect(preview.locator("img")).toBeVisible();
  // The form is kept below it.
  await expect(page.getByLabel("Nadpis")).toHaveValue(title);
  if (jsEnabled) {
    // Remix's form: no full page load, and the preview has the focus.
    expect(await isSameDocument(page)).toBe(true);
    await expect(preview).toBeFocused();
    await expectNoAxeViolations(page);
  }
  await snapshot(page, testInfo, "preview");
  // Nothing is published by a preview.
  expect(await page.evaluate(() => (window as unknown as { __x?: number }).__x)).toBeUndefined();

  await page.getByRole("button", { name: "Uverejniť" }).click();
  const dialog = page.getByRole("dialog", { name: title });
  await expect(dialog).toBeVisible();
  await expect(dialog.locator(".post-content b")).toHaveText("Veľkej Morave");
  await expect(dialog.locator(".post-tags li")).toHaveText(["Morava"]);

  // The draft is gone with its publishing.
  await open(page, "/account", jsEnabled);
  await expect(page.locator(".draft-list li").filter({ hasText: title })).toHaveCount(0);
  expect((await page.request.get(draftUrl)).status()).toBe(404);
});

test("an author previews an edit, keeps it as a draft while readers see the article unchanged, then publishes it", { tag: "@flow" }, async ({ page, jsEnabled }, testInfo) => {
  const title = `Úprava ${testInfo.project.name} ${Date.now()}`;
  await signUp(page, `uprava-${testInfo.project.name}`);
  await open(page, "/create-post", jsEnabled);
  await page.getByLabel("Nadpis").fill(title);
  await page.getByLabel("Text článku").fill("Pôvodný text.");
  await page.getByLabel(/Obrázok/).setInputFiles({ name: "uprava.jpg", mimeType: "image/jpeg", buffer: await makeImage("jpeg", 900, 560) });
  if (jsEnabled) {
    await expect(page.locator(".image-preview img")).toBeVisible();
    await page.getByLabel(/^Tagy/).selectOption("Osobnosti");
  } else {
    await page.getByRole("checkbox", { name: "Osobnosti", exact: true }).check();
  }
  await page.getByRole("button", { name: "Uverejniť" }).click();
  const dialog = page.getByRole("dialog", { name: title });
  await expect(dialog).toBeVisible();
  const articleUrl = new URL(page.url()).pathname;

  // Every part the edit form changes is kept with the draft: a tag added, a new image.
  await dialog.getByRole("link", { name: "Edit" }).click();
  await page.getByPlaceholder("Edit content").fill("Nový text s <i>kurzívou</i>.");
  await chooseTags(page, jsEnabled, ["Umenie"]);
  await page.getByLabel(/Nový obrázok/).setInputFiles({ name: "nova.png", mimeType: "image/png", buffer: await makeImage("png", 640, 480) });
  if (jsEnabled) await expect(page.locator(".image-preview img")).toBeVisible();
  await page.getByLabel("Čo ste zmenili?").fill("Nový text");
  await page.getByRole("button", { name: "Náhľad" }).click();
  const preview = page.getByRole("region", { name: "Náhľad — článok ešte nie je uverejnený" });
  await expect(preview.locator(".post-content i")).toHaveText("kurzívou");
  // Without JavaScript, in the picker's order.
  const tags = jsEnabled ? ["Osobnosti", "Umenie"] : ["Umenie", "Osobnosti"];
  await expect(preview.locator(".post-tags li")).toHaveText(tags);
  await expect(preview.locator("img.article-preview-image")).toHaveAttribute("width", "640");
  await expect(page.getByPlaceholder("Edit content")).toHaveValue("Nový text s <i>kurzívou</i>.");
  if (jsEnabled) await expectNoAxeViolations(page);
  await snapshot(page, testInfo, "edit-preview");

  await page.getByRole("button", { name: "Uložiť koncept" }).click();
  await expect(page).toHaveURL(/\/drafts\/[\w-]+$/);
  await expect(pageStatus(page)).toHaveText("Koncept je uložený. Čitatelia ho nevidia.");
  await expect(page.getByRole("heading", { name: "Koncept úpravy článku" })).toBeVisible();
  await expect(page.getByLabel("Čo ste zmenili?")).toHaveValue("Nový text");
  await expect(page.locator(".image-preview img")).toBeVisible();
  if (jsEnabled) await expectNoAxeViolations(page);

  // Readers (another browser, signed out) see the article as it was.
  const reader = await page.context().browser()!.newPage();
  await reader.goto(`${process.env.E2E_BASE_URL}${articleUrl}`);
  await expect(reader.locator(".post-content")).toHaveText("Pôvodný text.");
  await reader.close();

  await page.getByRole("button", { name: "Uverejniť" }).click();
  await expect(page).toHaveURL(new RegExp(`${articleUrl}$`));
  await expect(page.getByRole("dialog", { name: title }).locator(".post-content i")).toHaveText("kurzívou");
  await expect(page.getByRole("dialog", { name: title }).locator(".post-tags li")).toHaveText(tags);
  await expect(page.getByRole("dialog", { name: title }).locator("img.overlay-image")).toHaveAttribute("width", "640");
  await open(page, `${articleUrl}/history`, jsEnabled);
  await expect(page.locator(".history-table tbody tr").first()).toContainText("Nový text");
});

test("an author whose article is deleted while its edit and a pending edit's draft are open keeps what they typed, as a new article's draft", { tag: "@flow" }, async ({ page, jsEnabled }, testInfo) => {
  const title = `Zmazaný pod rukami ${testInfo.project.name} ${Date.now()}`;
  await signUp(page, `zmazany-${testInfo.project.name}`);
  const origin = { Origin: process.env.E2E_BASE_URL! };
  const image = { name: "clanok.jpg", mimeType: "image/jpeg", buffer: await makeImage("jpeg", 480, 300) };
  const published = await page.request.post("/create-post", { multipart: { title, content: "Pôvodný text.", tags: "Osobnosti", image }, headers: origin, maxRedirects: 0 });
  expect(published.status()).toBe(303);
  const articleUrl = published.headers().location;
  const kept = await page.request.post(`${articleUrl}?edit`, { form: { intent: "draft", title, content: "Text konceptu.", sources: "", summary: "Oprava", baseRevision: "1" }, headers: origin, maxRedirects: 0 });
  const draftUrl = kept.headers().location;

  // The pending edit's draft in one tab, the article's edit form in another.
  await open(page, draftUrl, jsEnabled);
  await expect(page.getByRole("heading", { name: "Koncept úpravy článku" })).toBeVisible();
  const editing = await page.context().newPage();
  await open(editing, `${articleUrl}?edit`, jsEnabled);
  // Meanwhile the article is deleted.
  expect((await page.request.post(articleUrl, { form: { intent: "delete", confirm: "yes" }, headers: origin, maxRedirects: 0 })).status()).toBe(303);

  const notice = "Článok, ktorý ste upravovali, bol medzitým odstránený. Váš text sme uložili ako koncept nového článku: ak ho chcete uverejniť, doplňte tagy a obrázok.";
  await page.getByLabel("Text článku").fill("Text, ktorý sa nesmie stratiť.");
  await page.getByRole("button", { name: "Uverejniť" }).click();
  await expect(page).toHaveURL(new RegExp(`${draftUrl}$`));
  await expect(pageStatus(page)).toHaveText(notice);
  await expect(page.getByRole("heading", { name: "Koncept článku" })).toBeVisible();
  await expect(page.getByLabel("Text článku")).toHaveValue("Text, ktorý sa nesmie stratiť.");
  if (jsEnabled) await expectNoAxeViolations(page);
  await snapshot(page, testInfo, "draft-article-gone");

  await editing.getByPlaceholder("Edit content").fill("Úprava, ktorá sa tiež nesmie stratiť.");
  await editing.getByRole("button", { name: "Save" }).click();
  await expect(editing).toHaveURL(/\/drafts\/[\w-]+$/);
  expect(new URL(editing.url()).pathname).not.toBe(draftUrl);
  await expect(pageStatus(editing)).toHaveText(notice);
  await expect(editing.getByLabel("Nadpis")).toHaveValue(title);
  await expect(editing.getByLabel("Text článku")).toHaveValue("Úprava, ktorá sa tiež nesmie stratiť.");
  await editing.close();
});

test("an edit of a deleted article that a draft cannot hold comes back as typed, saying why, and is kept once corrected", { tag: "@flow" }, async ({ page, jsEnabled }, testInfo) => {
  await signUp(page, `nedrzany-${testInfo.project.name}`);
  const origin = { Origin: process.env.E2E_BASE_URL! };
  const image = { name: "clanok.jpg", mimeType: "image/jpeg", buffer: await makeImage("jpeg", 480, 300) };
  const title = `Priveľa zdrojov ${testInfo.project.name} ${Date.now()}`;
  const published = await page.request.post("/create-post", { multipart: { title, content: "Pôvodný text.", tags: "Osobnosti", image }, headers: origin, maxRedirects: 0 });
  const articleUrl = published.headers().location;
  await open(page, `${articleUrl}?edit`, jsEnabled);
  expect((await page.request.post(articleUrl, { form: { intent: "delete", confirm: "yes" }, headers: origin, maxRedirects: 0 })).status()).toBe(303);

  // 31 sources: more than an article (or a draft) may have.
  await page.getByPlaceholder("Edit content").fill("Text, ktorý ostane.");
  await page.getByLabel(/^Zdroje/).fill(Array.from({ length: 31 }, (_, i) => `Zdroj ${i + 1}`).join("\n"));
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("alert")).toHaveText(
    "Článok, ktorý ste upravovali, bol medzitým odstránený. Váš text je vo formulári nižšie, ale nepodarilo sa ho uložiť: Článok môže mať najviac 30 zdrojov (jeden na riadok).",
  );
  // Without JavaScript the article's page is gone: the text comes back in the new article's form.
  if (!jsEnabled) await expect(page.getByRole("heading", { name: "Článok sa nenašiel" })).toBeVisible();
  await expect(page.getByLabel("Text článku")).toHaveValue("Text, ktorý ostane.");
  await page.getByLabel(/^Zdroje/).fill("Jeden zdroj");
  await page.getByRole("button", { name: jsEnabled ? "Save" : "Uložiť koncept" }).click();
  await expect(page).toHaveURL(/\/drafts\/[\w-]+$/);
  // With JavaScript the edit form stayed, and says the article is gone; without, its text came back in the new article's form, saved as a draft.
  await expect(pageStatus(page)).toContainText(jsEnabled ? "Článok, ktorý ste upravovali, bol medzitým odstránený." : "Koncept je uložený.");
  await expect(page.getByLabel("Nadpis")).toHaveValue(title);
  await expect(page.getByLabel("Text článku")).toHaveValue("Text, ktorý ostane.");
});
