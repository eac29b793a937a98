import type { Page } from "@playwright/test";
import { registerUser } from "../../scripts/lib/client";
import { makeImage } from "../../scripts/lib/images";
import { chooseTags, expect, expectNoAxeViolations, snapshot, test } from "./fixtures";

const MARKDOWN = [
  "Misia prišla na **pozvanie** kniežaťa [1].",
  "",
  "## Príčiny",
  "",
  "- 862: posolstvo",
  "- 863: príchod misie",
  "",
  "> Tento národ je pokrstený, no nemá učiteľa.",
  "> — Život Konštantína",
].join("\n");

async function open(page: Page, path: string, jsEnabled: boolean) {
  await page.goto(path);
  if (jsEnabled) await page.waitForLoadState("networkidle");
}

test("an author writes in Markdown, then edits the article's tags, image and period, and the comparison shows each", async ({ page, jsEnabled }, testInfo) => {
  const base = process.env.E2E_BASE_URL!;
  const author = await registerUser(base, { displayName: `Markdown ${testInfo.project.name}` });
  await page.context().addCookies([...author.client.cookies].map(([name, value]) => ({ name, value, url: base })));
  const title = `Misia ${testInfo.project.name} ${Date.now()}`;

  // Written in Markdown, with the hint's example at hand.
  await open(page, "/create-post", jsEnabled);
  await expect(page.locator("#content-hint")).toContainText("## Príčiny");
  await page.getByLabel("Nadpis").fill(title);
  await page.getByLabel("Obdobie").fill("862 – 863");
  await page.getByLabel("Text článku").fill(MARKDOWN);
  await page.getByLabel(/^Zdroje/).fill("Život Konštantína a Metoda, 9. storočie");
  await chooseTags(page, jsEnabled, ["Stredovek", "Morava"]);
  await page.getByLabel(/Obrázok/).setInputFiles({ name: "misia.jpg", mimeType: "image/jpeg", buffer: await makeImage("jpeg", 1000, 620) });
  if (jsEnabled) await expect(page.locator(".image-preview img")).toBeVisible();
  await page.getByRole("button", { name: "Uverejniť" }).click();

  const dialog = page.getByRole("dialog", { name: title });
  const body = dialog.locator(".post-content");
  await expect(body.getByRole("heading", { level: 2, name: "Príčiny" })).toBeVisible();
  await expect(body.locator("strong")).toHaveText("pozvanie");
  await expect(body.locator("ul > li")).toHaveText(["862: posolstvo", "863: príchod misie"]);
  await expect(body.locator("blockquote cite")).toHaveText("Život Konštantína");
  await expect(dialog.getByRole("link", { name: "Zdroj č. 1" })).toBeVisible();

  // Edit: the text comes back as written; other tags, a new image, another period.
  await dialog.getByRole("link", { name: "Edit" }).click();
  await expect(page.getByPlaceholder("Edit content")).toHaveValue(MARKDOWN);
  if (jsEnabled) {
    await page.getByRole("button", { name: "Odobrať tag Morava" }).click();
    await chooseTags(page, jsEnabled, ["Osobnosti"]);
  } else {
    await page.getByRole("checkbox", { name: "Morava", exact: true }).uncheck();
    await chooseTags(page, jsEnabled, ["Osobnosti"]);
  }
  await page.getByLabel("Obdobie").fill("863 – 885");
  await page.getByLabel(/Nový obrázok/).setInputFiles({ name: "nova.png", mimeType: "image/png", buffer: await makeImage("png", 900, 600) });
  if (jsEnabled) await expect(page.locator(".image-preview img")).toBeVisible();
  await snapshot(page, testInfo, "markdown-edit-form");
  if (jsEnabled) await expectNoAxeViolations(page);
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.locator('.action-notice[role="status"]')).toHaveText("Zmeny sú uložené.");
  await expect(dialog.locator(".post-tags li")).toHaveText(["Stredovek", "Osobnosti"]);

  // The comparison of the two revisions names each change.
  await dialog.getByRole("link", { name: /^Upravené .+ · 1 úprava$/ }).click();
  await page.getByRole("button", { name: "Porovnať vybrané verzie" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Porovnanie verzií");
  const tags = page.locator('section[aria-labelledby="diff-tags"]');
  await expect(tags).toContainText("Pridané: Osobnosti");
  await expect(tags).toContainText("Odstránené: Morava");
  await expect(page.locator('section[aria-labelledby="diff-period"]')).toContainText("„862 – 863“ → „863 – 885“");
  const images = page.locator('section[aria-labelledby="diff-image"]');
  await expect(images).toContainText("Zmenený.");
  await expect(images.getByRole("img")).toHaveCount(2);
  for (const img of await images.getByRole("img").all()) expect(await img.evaluate((element: HTMLImageElement) => element.naturalWidth)).toBeGreaterThan(0);
  await snapshot(page, testInfo, "markdown-comparison");
  if (jsEnabled) await expectNoAxeViolations(page);
});
