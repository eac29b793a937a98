import type { Page } from "@playwright/test";
import { readFileSync } from "node:fs";
import { uniqueEmail } from "../../scripts/lib/client";
import { makeImage } from "../../scripts/lib/images";
import { POST_MESSAGES } from "../../app/lib/rules";
import { SOURCE_MESSAGES } from "../../app/lib/sources";
import { expect, expectNoAxeViolations, snapshot, test } from "./fixtures";

const PASSWORD = "autorske-heslo-1";
const TAGS = ["Stredovek", "Umenie", "Dejiny Slovenska"];
const ALL_TAGS: string[] = JSON.parse(readFileSync("public/tags.json", "utf8"));

async function open(page: Page, path: string, jsEnabled: boolean) {
  await page.goto(path);
  if (jsEnabled) await page.waitForLoadState("networkidle");
}

async function registerAndOpen(page: Page, jsEnabled: boolean, name: string) {
  await open(page, "/create-post", jsEnabled);
  await expect(page).toHaveURL(/\/signinsignup\?redirectTo=\/create-post$/);
  await page.getByRole("link", { name: "Zaregistrujte sa" }).click();
  // No two accounts may look alike: each test's author has a name of its own.
  await page.getByLabel("Zobrazované meno").fill(`Autor Článkov ${name}`);
  await page.getByLabel("E-mail").fill(uniqueEmail(name));
  await page.getByLabel("Heslo", { exact: true }).fill(PASSWORD);
  await page.getByLabel("Potvrdenie hesla").fill(PASSWORD);
  await page.getByRole("button", { name: "Zaregistrovať sa" }).click();
  await expect(page).toHaveURL(/\/create-post$/);
  await expect(page.getByRole("heading", { name: "Pridať článok" })).toBeVisible();
  if (jsEnabled) await page.waitForLoadState("networkidle");
}

test("an author publishes, edits and deletes an article", { tag: "@flow" }, async ({ page, jsEnabled }, testInfo) => {
  const title = `Kroniky ${testInfo.project.name} ${Date.now()}`;
  await registerAndOpen(page, jsEnabled, testInfo.project.name);
  await snapshot(page, testInfo, "create");
  if (jsEnabled) await expectNoAxeViolations(page);

  // A refusal first: no tags. The spec's message, and the input kept.
  await page.getByLabel("Nadpis").fill(title);
  await page.getByLabel("Text článku").fill("Prvý odsek o stredoveku.\nDruhý riadok.");
  await page.getByLabel(/Obrázok/).setInputFiles({ name: "kronika.jpg", mimeType: "image/jpeg", buffer: await makeImage("jpeg", 1000, 620) });
  if (jsEnabled) {
    // Sent ahead, with a progress bar, then shown as a preview.
    await expect(page.locator(".image-preview img")).toBeVisible();
  }
  await page.getByRole("button", { name: "Uverejniť" }).click();
  await expect(page.getByRole("alert")).toHaveText("Please fill in all fields and select at least one tag.");
  await expect(page.getByLabel("Nadpis")).toHaveValue(title);
  // The image was kept: it need not be picked again.
  await expect(page.locator(".image-preview img")).toBeVisible();
  await snapshot(page, testInfo, "create-error");
  if (jsEnabled) await expectNoAxeViolations(page);

  if (jsEnabled) {
    const select = page.getByLabel(/^Tagy/);
    for (const tag of TAGS) await select.selectOption(tag);
    await select.selectOption(TAGS[0]);
    await expect(page.locator("#tag-message")).toHaveText("Tag already added.");
    // Chosen in the order picked, each with its remove button, named in words.
    await expect(page.locator(".chosen-tags button")).toHaveText(TAGS.map((tag) => `Odobrať tag ${tag}`));
  } else {
    for (const tag of TAGS) await page.getByRole("checkbox", { name: tag, exact: true }).check();
  }
  await page.getByRole("button", { name: "Uverejniť" }).click();

  // Lands on the new article.
  const dialog = page.getByRole("dialog", { name: title });
  await expect(dialog).toBeVisible();
  await expect(dialog.locator(".post-content")).toContainText("Druhý riadok.");
  // In the order chosen: with JavaScript the order of picking, without it the order of the checkboxes.
  const order = jsEnabled ? TAGS : [...TAGS].sort((a, b) => ALL_TAGS.indexOf(a) - ALL_TAGS.indexOf(b));
  await expect(dialog.locator(".post-tags li")).toHaveText(order);
  // The word after it, in the status region, over the article's layer.
  const notice = page.locator('.action-notice[role="status"]');
  await expect(notice).toHaveText("Článok je uverejnený.");
  await expect(notice.locator("p")).toBeInViewport();
  await snapshot(page, testInfo, "published");

  // First in the list and under each of its tags (or second: the other worker may publish at the same moment).
  for (const path of ["/posts", ...TAGS.map((t) => `/posts?tag=${encodeURIComponent(t)}`)]) {
    await open(page, path, jsEnabled);
    await expect(page.locator(".card-title").first()).toBeVisible();
    // Said once: not on the next page.
    await expect(notice).toHaveText("");
    expect((await page.locator(".card-title").allInnerTexts()).slice(0, 2)).toContain(title);
  }

  // Edit.
  await page.locator(".card").filter({ hasText: title }).getByRole("link").click();
  await dialog.getByRole("link", { name: "Edit" }).click();
  const titleField = page.getByPlaceholder("Edit title");
  const contentField = page.getByPlaceholder("Edit content");
  await expect(contentField).toHaveValue("Prvý odsek o stredoveku.\nDruhý riadok.");
  expect((await contentField.boundingBox())!.height).toBeGreaterThanOrEqual(250);
  if (jsEnabled) {
    await titleField.fill("");
    await expect(page.getByRole("button", { name: "Save" })).toBeDisabled();
    await expectNoAxeViolations(page);
  }
  await snapshot(page, testInfo, "edit");
  await titleField.fill(`${title} (upravené)`);
  await page.getByRole("button", { name: "Save" }).click();
  const edited = page.getByRole("dialog", { name: `${title} (upravené)` });
  await expect(edited).toBeVisible();
  await expect(notice).toHaveText("Zmeny sú uložené.");
  await expect(page.getByPlaceholder("Edit title")).toHaveCount(0);

  // Cancel leaves it unchanged.
  await edited.getByRole("link", { name: "Edit" }).click();
  await page.getByPlaceholder("Edit title").fill("Toto sa neuloží");
  await page.getByRole("link", { name: "Cancel" }).click();
  await expect(edited).toBeVisible();

  // Delete.
  await edited.getByRole("link", { name: "Edit" }).click();
  if (jsEnabled) {
    page.once("dialog", async (d) => {
      expect(d.message()).toBe("Are you sure you want to delete this post?");
      await d.accept();
    });
    await page.getByRole("button", { name: "Delete" }).click();
  } else {
    await page.getByRole("button", { name: "Delete" }).click();
    const confirm = page.getByRole("form", { name: "Are you sure you want to delete this post?" });
    await expect(confirm).toContainText("Are you sure you want to delete this post?");
    await snapshot(page, testInfo, "delete-confirm");
    await confirm.getByRole("button", { name: "Delete" }).click();
  }
  // Back on the list it was opened from, without the article.
  await expect(page).toHaveURL(/\/posts\?tag=Dejiny\+Slovenska$/);
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(notice).toHaveText("Článok je odstránený.");
  await expect(page.locator(".card-title").first()).toBeVisible();
  expect(await page.locator(".card-title").allInnerTexts()).not.toContain(`${title} (upravené)`);
});

test("a reader sees no Edit button", async ({ page, jsEnabled }) => {
  await open(page, "/posts", jsEnabled);
  await page.locator(".card").first().getByRole("link").click();
  await expect(page.getByRole("dialog")).toBeVisible();
  await expect(page.getByRole("link", { name: "Edit" })).toHaveCount(0);
});

test("an author cites sources: [n] leads to the source, ↩ back to the text, and they are edited with the article", { tag: "@flow" }, async ({ page, jsEnabled }, testInfo) => {
  const title = `Pramene ${testInfo.project.name} ${Date.now()}`;
  await registerAndOpen(page, jsEnabled, `zdroje-${testInfo.project.name}`);
  await page.getByLabel("Nadpis").fill(title);
  await page.getByLabel("Text článku").fill("Hrad vznikol v 13. storočí [1].\nPrvá písomná zmienka je z roku 1253 [2].");
  const sources = page.getByRole("textbox", { name: /^Zdroje/ });
  await sources.fill("Plaček, M.: Hrady a zámky na Slovensku. Bratislava 2007.\nListina z roku 1253 https://example.org/listina-1253");
  if (jsEnabled) await page.getByLabel(/^Tagy/).selectOption("Stredovek");
  else await page.getByRole("checkbox", { name: "Stredovek", exact: true }).check();
  await page.getByLabel(/Obrázok/).setInputFiles({ name: "hrad.jpg", mimeType: "image/jpeg", buffer: await makeImage("jpeg", 800, 500) });
  if (jsEnabled) await expect(page.locator(".image-preview img")).toBeVisible();
  await page.getByRole("button", { name: "Uverejniť" }).click();

  const dialog = page.getByRole("dialog", { name: title });
  await expect(dialog).toBeVisible();
  const list = dialog.getByRole("region", { name: "Zdroje" });
  await expect(list.getByRole("listitem")).toHaveCount(2);
  const link = list.getByRole("link", { name: "Listina z roku 1253" });
  await expect(link).toHaveAttribute("href", "https://example.org/listina-1253");
  await expect(link).toHaveAttribute("rel", "nofollow ugc noopener");
  await snapshot(page, testInfo, "sources");
  if (jsEnabled) await expectNoAxeViolations(page);

  await dialog.getByRole("link", { name: "Zdroj č. 2" }).click();
  await expect(page).toHaveURL(/#zdroj-2$/);
  await expect(list.locator("li:target")).toContainText("Listina z roku 1253");
  await list.getByRole("link", { name: "Späť na zmienku [2] v texte" }).click();
  await expect(page).toHaveURL(/#zmienka-2$/);

  // Edited with the article: a broken link is refused with its message, and nothing changes.
  await dialog.getByRole("link", { name: "Edit" }).click();
  const field = page.getByRole("textbox", { name: /^Zdroje/ });
  await expect(field).toHaveValue("Plaček, M.: Hrady a zámky na Slovensku. Bratislava 2007.\nListina z roku 1253 https://example.org/listina-1253");
  await field.fill("Plaček, M.: Hrady a zámky na Slovensku.\nListina https://");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("alert")).toHaveText(SOURCE_MESSAGES.badLink(2));
  // A link counts as it is stored: each "€" of its address as the nine characters of %E2%82%AC.
  const encoded = `Listina https://example.org/${"€".repeat(230)}`;
  await page.getByRole("textbox", { name: /^Zdroje/ }).fill(encoded);
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("alert")).toHaveText(SOURCE_MESSAGES.linkTooLong(1));
  await expect(page.getByRole("textbox", { name: /^Zdroje/ })).toHaveValue(encoded);
  // So does the text, judged once sanitised (on the server): a link in it stored past 150,000 bytes.
  const text = `<a href="http://a/${"€".repeat(20_000)}">odkaz</a>`;
  await page.getByRole("textbox", { name: /^Zdroje/ }).fill("Plaček, M.: Hrady a zámky na Slovensku.");
  await page.getByLabel("Text článku").fill(text);
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("alert")).toHaveText(POST_MESSAGES.contentStoredTooLong);
  expect((await page.getByLabel("Text článku").inputValue()) === text).toBe(true);
  await page.goto(page.url().replace(/[?#].*$/, ""));
  await expect(page.getByRole("region", { name: "Zdroje" }).getByRole("listitem")).toHaveCount(2);

  // Gone again, so that the other journeys see the list they expect.
  await page.getByRole("link", { name: "Edit" }).click();
  if (jsEnabled) {
    page.once("dialog", (d) => void d.accept());
    await page.getByRole("button", { name: "Delete" }).click();
  } else {
    await page.getByRole("button", { name: "Delete" }).click();
    await page.getByRole("form", { name: "Are you sure you want to delete this post?" }).getByRole("button", { name: "Delete" }).click();
  }
  await expect(page).toHaveURL(/\/posts$/);
});
