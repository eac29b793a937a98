import type { Page } from "@playwright/test";
import Database from "better-sqlite3";
import { uniqueEmail } from "../../scripts/lib/client";
import { SUBSCRIPTION_MESSAGES, SUBSCRIPTION_NOTICES } from "../../app/lib/subscriptions";
import { TEST_PUBLIC_URL } from "../support/accounts-env";
import { waitForMail } from "../../scripts/lib/resend-stand-in";
import { expect, expectNoAxeViolations, pageStatus, snapshot, test } from "./fixtures";

/**
 * Following the site by e-mail in the browser: the /odber form (from the
 * list's link), the confirmation mail's page and button, the settings page,
 * the unsubscribe page, and the footer's short form.
 */

const SUBJECT = /^Potvrdenie odberu/;

async function open(page: Page, path: string, jsEnabled: boolean) {
  await page.goto(path);
  if (jsEnabled) await page.waitForLoadState("networkidle");
}

/** The newest confirmation link mailed to `email`, as a path of this site. */
async function confirmationPath(email: string): Promise<string> {
  const mail = await waitForMail(process.env.E2E_RESEND_URL!, email, 0, SUBJECT);
  return mail.text.match(/\S+\/odber\/potvrdit\?token=\S+/)![0].replace(TEST_PUBLIC_URL, "");
}

/** What the database holds for `email`'s subscription (read-only), to see that the pages stored what they showed. */
function stored(email: string) {
  const db = new Database(process.env.E2E_DATABASE_PATH!, { readonly: true, fileMustExist: true });
  try {
    const row = db.prepare("SELECT id, status, frequency, consent_source FROM subscribers WHERE email = ?").get(email) as
      | { id: string; status: string; frequency: string; consent_source: string }
      | undefined;
    if (!row) return undefined;
    const tags = db.prepare("SELECT tag FROM subscription_tags WHERE subscriber_id = ? ORDER BY tag").pluck().all(row.id);
    const centuries = db.prepare("SELECT century FROM subscription_centuries WHERE subscriber_id = ? ORDER BY century").pluck().all(row.id);
    return { status: row.status, frequency: row.frequency, source: row.consent_source, tags, centuries };
  } finally {
    db.close();
  }
}

/** The page never scrolls sideways (clientWidth, not innerWidth: an emulated phone widens its window to a page that overflows). */
async function expectNoSidewaysScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
}

test("/odber from the list: the form reads well at the width, with no sideways scroll, and passes axe @flow", async ({ page, jsEnabled }, testInfo) => {
  await open(page, "/posts", jsEnabled);
  await page.getByRole("link", { name: "Nové články e-mailom" }).click();
  await expect(page).toHaveURL(/\/odber\?od=zoznam$/);
  if (jsEnabled) await page.waitForLoadState("networkidle");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Odber nových článkov e-mailom");
  const form = page.locator("main form");
  await expect(form.getByRole("group", { name: "Tagy" }).getByRole("checkbox")).toHaveCount(30);
  await expect(form.getByRole("group", { name: "Storočia" }).getByRole("checkbox")).toHaveCount(29);
  await expect(form.getByRole("radio", { name: /^Každý nový článok/ })).toBeChecked();
  await expectNoSidewaysScroll(page);
  await snapshot(page, testInfo, "odber", { fullPage: true });
  // Every box the same small size, whatever its label (not a text field's 44 px box, nor squeezed by a long label), and no label wider than its column.
  const boxes = await form.locator(".tag-checkboxes input").evaluateAll((inputs) => inputs.map((i) => `${Math.round(i.getBoundingClientRect().width)}×${Math.round(i.getBoundingClientRect().height)}`));
  expect(boxes).toHaveLength(61);
  expect(new Set(boxes)).toEqual(new Set(["18×18"]));
  const overflowing = await form.locator(".tag-checkboxes label").evaluateAll((labels) => labels.filter((l) => l.scrollWidth > l.clientWidth).map((l) => l.textContent));
  expect(overflowing).toEqual([]);
  if (jsEnabled) await expectNoAxeViolations(page);
});

test("a visitor subscribes to a tag and a century weekly, confirms from the mail, changes the settings, and unsubscribes", { tag: "@flow" }, async ({ page, jsEnabled }, testInfo) => {
  const email = uniqueEmail(`odber-${testInfo.project.name}`);

  // The list's link opens the form as the list's (its consent's source).
  await open(page, "/posts", jsEnabled);
  await page.getByRole("link", { name: "Nové články e-mailom" }).click();
  await expect(page).toHaveURL(/\/odber\?od=zoznam$/);
  if (jsEnabled) await page.waitForLoadState("networkidle");
  const form = page.locator("main form");
  await form.getByLabel("E-mailová adresa").fill(email);
  await form.getByRole("group", { name: "Tagy" }).getByRole("checkbox", { name: "Stredovek", exact: true }).check();
  await form.getByRole("group", { name: "Storočia" }).getByRole("checkbox", { name: "15. storočie", exact: true }).check();
  await form.getByRole("radio", { name: /^Raz za týždeň/ }).check();
  await form.getByRole("button", { name: "Poslať odkaz na potvrdenie" }).click();
  await expect(pageStatus(page)).toHaveText(SUBSCRIPTION_NOTICES.subscribeSent);
  await expect(page).toHaveURL(/\/odber$/);
  expect(stored(email)).toEqual({ status: "pending", frequency: "weekly", source: "zoznam", tags: ["Stredovek"], centuries: [15] });

  // The mail's link opens a page that confirms nothing until its button is pressed.
  const confirmPath = await confirmationPath(email);
  await open(page, confirmPath, jsEnabled);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Potvrdenie odberu");
  expect(stored(email)?.status).toBe("pending");
  if (jsEnabled) await expectNoAxeViolations(page);
  await page.getByRole("button", { name: "Potvrdiť odber" }).click();

  // The settings page, by its signed link: the choices made on /odber.
  await expect(page).toHaveURL(/\/odber\/nastavenia\?token=[\w-]+\.[\w-]+$/);
  const settingsPath = new URL(page.url()).pathname + new URL(page.url()).search;
  const token = new URL(page.url()).searchParams.get("token")!;
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Nastavenia odberu");
  await expect(pageStatus(page)).toHaveText(SUBSCRIPTION_NOTICES.confirmed);
  await expect(page.locator("main")).toContainText(`Odber na adresu ${email}: Stredovek, 15. storočie; raz za týždeň prehľad nových článkov.`);
  const settings = page.locator("main form").filter({ has: page.getByRole("button", { name: "Uložiť nastavenia" }) });
  const tags = settings.getByRole("group", { name: "Tagy" });
  const centuries = settings.getByRole("group", { name: "Storočia" });
  await expect(tags.getByRole("checkbox", { name: "Stredovek", exact: true })).toBeChecked();
  await expect(tags.getByRole("checkbox", { checked: true })).toHaveCount(1);
  await expect(centuries.getByRole("checkbox", { name: "15. storočie", exact: true })).toBeChecked();
  await expect(centuries.getByRole("checkbox", { checked: true })).toHaveCount(1);
  await expect(settings.getByRole("radio", { name: /^Raz za týždeň/ })).toBeChecked();
  expect(stored(email)?.status).toBe("confirmed");
  await expectNoSidewaysScroll(page);
  // "Zrušenie odberu" stands apart from the save button above it.
  const saveBottom = (await settings.getByRole("button", { name: "Uložiť nastavenia" }).boundingBox())!;
  const endTop = (await page.getByRole("heading", { level: 2, name: "Zrušenie odberu" }).boundingBox())!;
  expect(endTop.y - (saveBottom.y + saveBottom.height)).toBeGreaterThanOrEqual(24);
  await snapshot(page, testInfo, "odber-nastavenia", { fullPage: true });
  if (jsEnabled) await expectNoAxeViolations(page);

  // Another tag instead, a century BC besides, and each article as it comes.
  await tags.getByRole("checkbox", { name: "Stredovek", exact: true }).uncheck();
  await tags.getByRole("checkbox", { name: "Starovek", exact: true }).check();
  await centuries.getByRole("checkbox", { name: "5. storočie pred Kr.", exact: true }).check();
  await settings.getByRole("radio", { name: /^Každý nový článok/ }).check();
  await settings.getByRole("button", { name: "Uložiť nastavenia" }).click();
  await expect(pageStatus(page)).toHaveText(SUBSCRIPTION_NOTICES.saved);
  await expect(page.locator("main")).toContainText(`Odber na adresu ${email}: Starovek, 5. storočie pred Kr., 15. storočie; každý nový článok hneď po uverejnení.`);
  expect(stored(email)).toEqual({ status: "confirmed", frequency: "instant", source: "zoznam", tags: ["Starovek"], centuries: [-5, 15] });
  // Opened afresh, the page shows what was saved.
  await open(page, settingsPath, jsEnabled);
  await expect(tags.getByRole("checkbox", { name: "Starovek", exact: true })).toBeChecked();
  await expect(tags.getByRole("checkbox", { name: "Stredovek", exact: true })).not.toBeChecked();
  await expect(centuries.getByRole("checkbox", { checked: true })).toHaveCount(2);
  await expect(settings.getByRole("radio", { name: /^Každý nový článok/ })).toBeChecked();
  if (jsEnabled) await expectNoAxeViolations(page);

  // The mails' unsubscribe link (List-Unsubscribe), opened in a browser: a page whose button ends the subscription.
  await open(page, `/odber/odhlasit?token=${token}`, jsEnabled);
  await expect(page).toHaveURL(/\/odber\/zrusit\?token=/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Zrušenie odberu");
  expect(stored(email)?.status).toBe("confirmed");
  await snapshot(page, testInfo, "odber-zrusit");
  if (jsEnabled) await expectNoAxeViolations(page);
  await page.getByRole("button", { name: "Zrušiť odber" }).click();
  await expect(page).toHaveURL(/\/odber\/zrusit\?hotovo$/);
  await expect(pageStatus(page)).toHaveText("Odber je zrušený. Už vám nič nepošleme.");
  expect(stored(email)).toBeUndefined();
  if (jsEnabled) await expectNoAxeViolations(page);

  // Ended: the settings link and the used confirmation link open nothing, and offer no button.
  await open(page, settingsPath, jsEnabled);
  await expect(page.getByRole("alert")).toHaveText(SUBSCRIPTION_MESSAGES.manageInvalid);
  await expect(page.getByRole("button", { name: "Uložiť nastavenia" })).toHaveCount(0);
  await open(page, confirmPath, jsEnabled);
  await expect(page.getByRole("alert")).toHaveText(SUBSCRIPTION_MESSAGES.linkInvalid);
  await expect(page.getByRole("button", { name: "Potvrdiť odber" })).toHaveCount(0);
  if (jsEnabled) await expectNoAxeViolations(page);
});

test("the footer's short form subscribes an address to every new article, and links to the full form @flow", async ({ page, jsEnabled }, testInfo) => {
  const email = uniqueEmail(`paticka-${testInfo.project.name}`);
  await open(page, "/conflicts", jsEnabled);
  const footer = page.locator(".site-footer");
  await footer.getByLabel("Nové články do schránky").fill(email);
  await footer.getByRole("button", { name: "Odoberať" }).click();
  await expect(page).toHaveURL(/\/odber$/);
  await expect(pageStatus(page)).toHaveText(SUBSCRIPTION_NOTICES.subscribeSent);
  expect(stored(email)).toEqual({ status: "pending", frequency: "instant", source: "paticka", tags: [], centuries: [] });
  expect(await confirmationPath(email)).toMatch(/^\/odber\/potvrdit\?token=[\w-]{43}$/);

  await footer.getByRole("link", { name: "Vybrať témy a frekvenciu" }).click();
  await expect(page).toHaveURL(/\/odber\?od=paticka$/);
  await expect(page.locator('main form input[name="zdroj"]')).toHaveValue("paticka");
});
