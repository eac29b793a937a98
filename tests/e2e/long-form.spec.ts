import { expect, expectNoAxeViolations, snapshot, test } from "./fixtures";

// The demo's Moháč article: sections (h2), a quotation with its cite line, sources, and three edits.
test("a long article reads as an outline, now and in an old revision", async ({ page, jsEnabled }, testInfo) => {
  await page.goto(`/posts?q=${encodeURIComponent("Moháč 1526")}`);
  await page.locator(".card-link").filter({ hasText: "Moháč 1526" }).click();
  const article = page.locator(".post-content");
  await expect(page.getByRole("heading", { level: 1, name: /^Moháč 1526/ })).toBeVisible();
  await expect(article.getByRole("heading", { level: 2 })).toHaveText(["Dve nerovné armády", "Dve hodiny boja", "Krajina s dvoma kráľmi", "Čo Moháč znamenal pre Slovensko"]);
  if (jsEnabled) await page.waitForLoadState("networkidle");
  await article.locator("blockquote").scrollIntoViewIfNeeded();
  await expect(article.locator("blockquote cite")).toHaveText(/^Biskup František Perényi/);
  await snapshot(page, testInfo, "long-form-article");
  if (jsEnabled) await expectNoAxeViolations(page);

  // The history names each edit; the third revision shows the quotation, as readers saw it then (before the sections).
  await page.getByRole("link", { name: /^Upravené .* · 3 úpravy$/ }).click();
  await expect(page.getByRole("cell", { name: "Opravený dátum bitky" })).toBeVisible();
  await page.getByRole("link", { name: "3.", exact: true }).click();
  await expect(page.locator(".revision-notice")).toContainText("Doplnené zdroje a citát biskupa Perényiho");
  const old = page.locator(".revision-article .post-content");
  await expect(old.locator("h2")).toHaveCount(0);
  await old.locator("blockquote").scrollIntoViewIfNeeded();
  await snapshot(page, testInfo, "long-form-old-revision");
  if (jsEnabled) await expectNoAxeViolations(page);

  // A list and an h3 (the Štefánik article).
  await page.goto(`/posts?q=${encodeURIComponent("Štefánik astronóm")}`);
  await page.locator(".card-link").filter({ hasText: "Milan Rastislav Štefánik" }).click();
  await expect(page.locator(".post-content ul > li")).toHaveCount(3);
  await expect(page.locator(".post-content").getByRole("heading", { level: 3 })).toHaveText("Československé légie");
  if (jsEnabled) await page.waitForLoadState("networkidle");
  await page.locator(".post-content ul").scrollIntoViewIfNeeded();
  await snapshot(page, testInfo, "long-form-list");
  if (jsEnabled) await expectNoAxeViolations(page);
});
