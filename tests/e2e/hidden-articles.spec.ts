import type { Page } from "@playwright/test";
import { registerUser } from "../../scripts/lib/client";
import { publish } from "../../scripts/lib/publish";
import { runBuildCommand } from "../support/commands";
import { expect, expectNoAxeViolations, snapshot, test, signIn } from "./fixtures";

async function openArticle(page: Page, postId: string, jsEnabled: boolean) {
  await page.goto(`/posts/${postId}`);
  if (jsEnabled) await page.waitForLoadState("networkidle");
}

/** Nothing wider than the screen. */
async function expectNoSidewaysScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
}

test("an admin hides an article from its page and shows it again; its author reads it with the notice", { tag: "@flow" }, async ({ browser, page, jsEnabled }, testInfo) => {
  const base = process.env.E2E_BASE_URL!;
  const { client: author, email: authorEmail } = await registerUser(base);
  const title = `Skrytý v prehliadači ${testInfo.project.name}`;
  const postId = (await publish(author, title))!;
  const { email: adminEmail } = await registerUser(base);
  const paths = { databasePath: process.env.E2E_DATABASE_PATH!, uploadsDir: process.env.E2E_UPLOADS_DIR! };
  expect((await runBuildCommand("runAdminCommand", ["grant", adminEmail], paths)).code).toBe(0);

  await signIn(page, adminEmail, jsEnabled);
  await openArticle(page, postId, jsEnabled);
  await page.locator(".visibility-box > summary").click();
  // A reason is required: the server says so, and the form stays open.
  await page.getByRole("button", { name: "Skryť článok" }).click();
  await expect(page.locator("#visibility-error")).toHaveText("Napíšte odôvodnenie: prečítajú si ho nahlasovatelia aj autor.");
  await expect(page.getByLabel(/Odôvodnenie/)).toHaveAttribute("aria-invalid", "true");
  await snapshot(page, testInfo, "hide-refused");
  if (jsEnabled) await expectNoAxeViolations(page);
  await expectNoSidewaysScroll(page);

  await page.getByLabel(/Odôvodnenie/).fill("Text preberá cudzí článok bez uvedenia zdroja.");
  await page.getByRole("button", { name: "Skryť článok" }).click();
  await expect(page.locator(".hidden-notice")).toHaveText("Tento článok je skrytý: vidí ho len autor a redakcia.");
  await expect(page.locator(".visibility-box > summary")).toHaveText("Znova zverejniť článok (redakcia)");

  // The author, in a browser of their own.
  const context = await browser.newContext({ baseURL: base, javaScriptEnabled: jsEnabled, viewport: page.viewportSize(), locale: "sk-SK" });
  const authorPage = await context.newPage();
  await signIn(authorPage, authorEmail, jsEnabled);
  await openArticle(authorPage, postId, jsEnabled);
  await expect(authorPage.locator(".hidden-notice")).toContainText("Tento článok je skrytý: vidíte ho len vy a redakcia.");
  await expect(authorPage.locator('.hidden-notice a[href="/account/decisions"]')).toBeVisible();
  await expect(authorPage.locator(".visibility-box")).toHaveCount(0);
  await snapshot(authorPage, testInfo, "hidden-author");
  if (jsEnabled) await expectNoAxeViolations(authorPage);
  await expectNoSidewaysScroll(authorPage);
  await context.close();

  // Anyone else: the article does not exist.
  expect((await fetch(`${base}/posts/${postId}`)).status).toBe(404);

  await page.locator(".visibility-box > summary").click();
  await snapshot(page, testInfo, "restore-form");
  await page.getByLabel(/Odôvodnenie/).fill("Autor doplnil zdroj.");
  await page.getByRole("button", { name: "Znova zverejniť" }).click();
  await expect(page.locator(".hidden-notice")).toHaveCount(0);
  await expect(page.locator(".visibility-box > summary")).toHaveText("Skryť článok (redakcia)");
  expect((await fetch(`${base}/posts/${postId}`)).status).toBe(200);
});

test("an admin deletes someone else's article from its page with a reason; its author reads the statement of reasons", { tag: "@flow" }, async ({ browser, page, jsEnabled }, testInfo) => {
  const base = process.env.E2E_BASE_URL!;
  const { client: author, email: authorEmail } = await registerUser(base);
  const title = `Zmazaný redakciou ${testInfo.project.name} ${Date.now()}`;
  const postId = (await publish(author, title))!;
  const { email: adminEmail } = await registerUser(base);
  const paths = { databasePath: process.env.E2E_DATABASE_PATH!, uploadsDir: process.env.E2E_UPLOADS_DIR! };
  expect((await runBuildCommand("runAdminCommand", ["grant", adminEmail], paths)).code).toBe(0);

  await signIn(page, adminEmail, jsEnabled);
  await page.goto(`/posts/${postId}?edit`);
  if (jsEnabled) await page.waitForLoadState("networkidle");
  // No browser dialog for an admin: the confirmation step asks for the reason, with JavaScript too.
  page.on("dialog", (dialog) => void dialog.dismiss());
  await page.getByRole("button", { name: "Delete" }).click();
  const confirm = page.getByRole("form", { name: "Are you sure you want to delete this post?" });
  await confirm.getByRole("button", { name: "Delete" }).click();
  await expect(page.locator("#delete-reason-error")).toHaveText("Napíšte odôvodnenie: prečítajú si ho nahlasovatelia aj autor.");
  await expect(confirm.getByLabel(/^Odôvodnenie/)).toHaveAttribute("aria-invalid", "true");
  await snapshot(page, testInfo, "admin-delete-refused");
  if (jsEnabled) await expectNoAxeViolations(page);
  await expectNoSidewaysScroll(page);
  await confirm.getByLabel(/^Odôvodnenie/).fill("Celý text je reklama.");
  await confirm.getByRole("button", { name: "Delete" }).click();
  await expect(page).toHaveURL(/\/posts$/);
  expect((await fetch(`${base}/posts/${postId}`)).status).toBe(404);

  const context = await browser.newContext({ baseURL: base, javaScriptEnabled: jsEnabled, viewport: page.viewportSize(), locale: "sk-SK" });
  const authorPage = await context.newPage();
  await signIn(authorPage, authorEmail, jsEnabled);
  await authorPage.goto("/account/decisions");
  const statement = authorPage.locator(".statement").filter({ hasText: title });
  await expect(statement).toContainText("Článok odstránený");
  await expect(statement).toContainText("Celý text je reklama.");
  await expect(statement).toContainText("vlastný podnet redakcie");
  await expect(statement.getByRole("button", { name: "Podať námietku" })).toBeVisible();
  await context.close();
});
