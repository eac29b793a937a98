import type { Page } from "@playwright/test";
import { expect, expectNoAxeViolations, isSameDocument, markDocument, snapshot, test, pageStatus } from "./fixtures";

async function open(page: Page, path: string, jsEnabled: boolean) {
  await page.goto(path);
  if (jsEnabled) await page.waitForLoadState("networkidle");
}

/** Type a search: with JavaScript the results follow the typing; without it, the reader sends the form. */
async function search(page: Page, text: string, jsEnabled: boolean) {
  const box = page.getByRole("searchbox", { name: "Hľadať v článkoch" });
  await box.fill(text);
  if (!jsEnabled) await box.press("Enter");
}

async function pickTag(page: Page, tag: string, phone: boolean) {
  await page.locator(".filter-button").click();
  if (phone) {
    await page.getByRole("dialog", { name: "Vyber tag" }).getByRole("link", { name: tag, exact: true }).click();
  } else {
    await page.locator(".tag-dropdown > summary").click();
    await page.locator(".tag-dropdown").getByRole("link", { name: tag, exact: true }).click();
  }
}

test("search: without diacritics, with a tag, into an article and back, and out of the search", async ({ page, jsEnabled, phone }, testInfo) => {
  await open(page, "/posts", jsEnabled);
  if (jsEnabled) await markDocument(page);
  await search(page, "stefanik", jsEnabled);
  await expect(page).toHaveURL(/\/posts\?q=stefanik$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Hľadanie");
  await expect(pageStatus(page).filter({ hasText: "Najlepšie zhody pre „stefanik“." })).toBeVisible();
  const first = page.locator(".card").first();
  await expect(first.locator(".card-title")).toContainText("Štefánik");
  await expect(first.locator(".card-title mark")).toHaveText("Štefánik");
  // With JavaScript the results came without a new page.
  if (jsEnabled) expect(await isSameDocument(page)).toBe(true);
  await snapshot(page, testInfo, "search-results");
  if (jsEnabled) await expectNoAxeViolations(page);

  // Into the first result and back to the same search.
  const title = (await first.locator(".card-title").textContent())!;
  await first.locator("a").click();
  await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
  await page.getByRole("link", { name: "Go back" }).click();
  // Without JavaScript, at the card of the article.
  await expect(page).toHaveURL(jsEnabled ? /\/posts\?q=stefanik$/ : /\/posts\?q=stefanik#card-[\w-]+$/);
  await expect(page.getByRole("searchbox", { name: "Hľadať v článkoch" })).toHaveValue("stefanik");

  // A tag narrows the search; the search keeps the tag.
  await pickTag(page, "Osobnosti", phone);
  await expect(page).toHaveURL(/\/posts\?q=stefanik&tag=Osobnosti$/);
  await expect(pageStatus(page).filter({ hasText: "s tagom „Osobnosti“" })).toBeVisible();
  await expect(page.locator(".card")).not.toHaveCount(0);

  // Nothing found: said so, with the way out (which keeps the tag).
  await search(page, "xyzneexistuje", jsEnabled);
  await expect(page).toHaveURL(/\/posts\?q=xyzneexistuje&tag=Osobnosti$/);
  await expect(pageStatus(page).filter({ hasText: "Pre „xyzneexistuje“ sme nenašli žiadny článok s tagom „Osobnosti“." })).toBeVisible();
  await expect(page.locator(".card")).toHaveCount(0);
  await snapshot(page, testInfo, "search-empty");
  if (jsEnabled) await expectNoAxeViolations(page);
  await page.getByRole("link", { name: "Zrušiť hľadanie" }).click();
  await expect(page).toHaveURL(/\/posts\?tag=Osobnosti$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Osobnosti");
  await expect(page.getByRole("searchbox", { name: "Hľadať v článkoch" })).toHaveValue("");
});

test("search: Načítaj viac brings the next results of the same search", async ({ page, jsEnabled }) => {
  await open(page, "/posts?q=a", jsEnabled);
  await expect(page.locator(".card")).toHaveCount(9);
  await page.getByRole("link", { name: "Načítaj viac" }).click();
  // Without JavaScript, at the first new result.
  await expect(page).toHaveURL(jsEnabled ? /\/posts\?q=a&limit=18$/ : /\/posts\?q=a&limit=18#card-[\w-]+$/);
  await expect(page.locator(".card")).not.toHaveCount(9);
  if (!jsEnabled) await expect(page.locator(".card").nth(9)).toBeInViewport();
  await expect(page.getByRole("searchbox", { name: "Hľadať v článkoch" })).toHaveValue("a");
});
