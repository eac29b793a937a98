import type { Page } from "@playwright/test";
import { uniqueEmail } from "../../scripts/lib/client";
import { makeImage } from "../../scripts/lib/images";
import { expect, expectNoAxeViolations, snapshot, test } from "./fixtures";

const PASSWORD = "casove-heslo-1";

async function visit(page: Page, path: string, jsEnabled: boolean) {
  await page.goto(path);
  if (jsEnabled) await page.waitForLoadState("networkidle");
}

/** A new author, signed in in this page's browser context. */
async function newAuthor(page: Page, name: string) {
  const response = await page.request.post("/signinsignup", {
    form: { intent: "register", displayName: `Kronikár Času ${name} ${Date.now().toString(36)}`, email: uniqueEmail(name), password: PASSWORD, confirmPassword: PASSWORD },
    headers: { Origin: process.env.E2E_BASE_URL! },
    maxRedirects: 0,
  });
  expect(response.status()).toBe(303);
}

test("an author gives a new article its period and finds it on the timeline", { tag: "@flow" }, async ({ page, jsEnabled }, testInfo) => {
  const title = `Bitka v čase ${testInfo.project.name} ${Date.now()}`;
  await newAuthor(page, `cas-${testInfo.project.name}`);
  await visit(page, "/create-post", jsEnabled);

  await page.getByLabel("Nadpis").fill(title);
  const period = page.getByLabel(/^Obdobie/);
  // A date that does not exist first: refused with what was typed kept, and why.
  await period.fill("31. 4. 8915");
  if (jsEnabled) await expect(page.locator("#period-understood")).toHaveText("");
  await page.getByLabel("Text článku").fill("Vojská sa stretli pri rieke.");
  await page.getByLabel(/Obrázok/).setInputFiles({ name: "bitka.jpg", mimeType: "image/jpeg", buffer: await makeImage("jpeg", 800, 500) });
  if (jsEnabled) await expect(page.locator(".image-preview img")).toBeVisible();
  if (jsEnabled) await page.getByLabel(/^Tagy/).selectOption("Vojenská stratégia");
  else await page.getByRole("checkbox", { name: "Vojenská stratégia", exact: true }).check();
  await page.getByRole("button", { name: "Uverejniť" }).click();
  await expect(page.getByRole("alert")).toHaveText("Dátum 31. 4. 8915 neexistuje: apríl má v tom roku 30 dní.");
  await expect(period).toHaveValue("31. 4. 8915");
  await expect(period).toHaveAttribute("aria-invalid", "true");
  await snapshot(page, testInfo, "period-refused");
  if (jsEnabled) await expectNoAxeViolations(page);

  // A real date: the form says what it understood (as the author types, with JavaScript; on the page the server sends, without).
  await period.fill("29. 8. 8915");
  if (jsEnabled) await expect(page.locator("#period-understood")).toHaveText("Rozumiem: 29. augusta 8915.");
  if (!jsEnabled) await page.getByRole("checkbox", { name: "Vojenská stratégia", exact: true }).check();
  await page.getByRole("button", { name: "Uverejniť" }).click();

  const article = page.getByRole("dialog", { name: title });
  await expect(article).toBeVisible();
  await expect(article.locator("h1 + .post-period")).toHaveText("Obdobie: 29. 8. 8915");

  // On the timeline, in its century, reached from the index; its link leads back to it.
  await visit(page, "/timeline", jsEnabled);
  await page.getByRole("link", { name: "90. storočie", exact: true }).click();
  // On the first page as the only century of its own, or on the page that starts with it.
  await expect(page).toHaveURL(/\/timeline(\?century=90)?#storocie-90$/);
  const entry = page.locator(".timeline-entries li", { hasText: title });
  await expect(entry).toHaveText(`29. 8. 8915: ${title}`);
  await snapshot(page, testInfo, "timeline");
  if (jsEnabled) await expectNoAxeViolations(page);
  await entry.getByRole("link").click();
  await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();

  // And in the list filtered by its century, offered by the filter.
  await visit(page, "/posts", jsEnabled);
  await page.getByLabel("Storočie").selectOption("90");
  await page.getByRole("button", { name: "Zobraziť" }).click();
  await expect(page).toHaveURL(/\/posts\?century=90$/);
  await expect(page.locator(".card-title", { hasText: title })).toBeVisible();
  await snapshot(page, testInfo, "century-list");
  if (jsEnabled) await expectNoAxeViolations(page);
});

test("the conflicts page and the landing page read well and pass axe", async ({ page, jsEnabled }, testInfo) => {
  await visit(page, "/conflicts", jsEnabled);
  await expect(page.getByRole("heading", { level: 2, name: "Vojna na Ukrajine" })).toBeVisible();
  await snapshot(page, testInfo, "conflicts");
  if (jsEnabled) await expectNoAxeViolations(page);
  await visit(page, "/", jsEnabled);
  if (jsEnabled) await expectNoAxeViolations(page);
});

test("the period field says a range as Slovak does, and takes a day to the end of its own year", async ({ page, jsEnabled }, testInfo) => {
  await newAuthor(page, `rozsah-${testInfo.project.name}`);
  await visit(page, "/create-post", jsEnabled);
  await page.getByLabel("Nadpis").fill(`Revolúcia ${testInfo.project.name} ${Date.now()}`);
  const period = page.getByLabel(/^Obdobie/);
  const understood = page.locator("#period-understood");
  if (jsEnabled) {
    // As the author types.
    for (const [typed, words] of [
      ["1848 – 1849", "od roku 1848 do roku 1849"],
      ["9. stor. – 1526", "od 9. storočia do roku 1526"],
      ["1840. roky – 1867", "od 40. rokov 19. storočia do roku 1867"],
    ]) {
      await period.fill(typed);
      await expect(understood).toHaveText(`Rozumiem: ${words}.`);
    }
  }
  await period.fill("29. 8. 1526 – 1526");
  if (jsEnabled) await expect(understood).toHaveText("Rozumiem: od 29. augusta 1526 do konca roka.");
  // A draft needs only a title: its page (the server's, without JavaScript) says the same.
  await page.getByRole("button", { name: "Uložiť koncept" }).click();
  await expect(page).toHaveURL(/\/drafts\/[\w-]+$/);
  await expect(page.getByLabel(/^Obdobie/)).toHaveValue("29. 8. 1526 – 1526");
  await expect(page.locator("#period-understood")).toHaveText("Rozumiem: od 29. augusta 1526 do konca roka.");
});
