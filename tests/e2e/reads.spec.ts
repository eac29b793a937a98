import type { Page } from "@playwright/test";
import { registerUser } from "../../scripts/lib/client";
import { publish } from "../../scripts/lib/publish";
import { grantAdmin } from "../support/accounts";
import { expect, expectNoAxeViolations, snapshot, test, signIn } from "./fixtures";

/** A reader's browser: Playwright's own User-Agent says HeadlessChrome, which is a bot and never counted. */
const READER_AGENT = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

/** Nothing wider than the screen. */
async function expectNoSidewaysScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
}

test("a reader opens an article from the list: its author sees the read on /account, an admin on /admin", { tag: "@flow" }, async ({ browser, page, jsEnabled }, testInfo) => {
  const base = process.env.E2E_BASE_URL!;
  const run = `${testInfo.project.name.replace("-", "")}x${Date.now().toString(36)}`;
  const { client: author, email: authorEmail } = await registerUser(base);
  const title = `Čítaný článok ${run}`;
  const postId = (await publish(author, title))!;
  const { email: adminEmail } = await registerUser(base);
  grantAdmin(process.env.E2E_DATABASE_PATH!, adminEmail);

  // A reader finds it in the list and opens it: with JavaScript a navigation that asks for the article's data, without a page.
  const readerContext = await browser.newContext({ baseURL: base, javaScriptEnabled: jsEnabled, viewport: page.viewportSize(), locale: "sk-SK", userAgent: READER_AGENT });
  const reader = await readerContext.newPage();
  await reader.goto(`/posts?q=${run}`);
  if (jsEnabled) await reader.waitForLoadState("networkidle");
  const asked: string[] = [];
  reader.on("request", (request) => {
    const path = new URL(request.url()).pathname;
    if (path.startsWith(`/posts/${postId}`)) asked.push(`${request.method()} ${path}`);
  });
  await reader.locator(`a[href^="/posts/${postId}"]`).first().click();
  await expect(reader.getByRole("heading", { level: 1, name: title })).toBeVisible();
  if (jsEnabled) await reader.waitForLoadState("networkidle");
  expect(asked).toEqual([jsEnabled ? `GET /posts/${postId}.data` : `GET /posts/${postId}`]);
  await readerContext.close();

  // The author: the read is there once its batch is written (every second on the test server).
  const authorContext = await browser.newContext({ baseURL: base, javaScriptEnabled: jsEnabled, viewport: page.viewportSize(), locale: "sk-SK" });
  const authorPage = await authorContext.newPage();
  await signIn(authorPage, authorEmail, jsEnabled);
  const item = authorPage.locator(".article-list > li").filter({ hasText: title });
  await expect(async () => {
    await authorPage.goto("/account");
    await expect(item.locator(".article-reads")).toHaveText("1 prečítanie za 7 dní · 1 za 30 dní", { timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
  await item.scrollIntoViewIfNeeded();
  await snapshot(authorPage, testInfo, "account-reads");
  if (jsEnabled) await expectNoAxeViolations(authorPage);
  await expectNoSidewaysScroll(authorPage);
  await authorContext.close();

  // An admin: the most read articles, a table with headers.
  await signIn(page, adminEmail, jsEnabled);
  await page.goto("/admin#citanost");
  const section = page.locator('section[aria-labelledby="citanost"]');
  const row = section.locator("tbody tr").filter({ hasText: title });
  await expect(row.getByRole("rowheader")).toHaveText(title);
  await expect(row.getByRole("cell")).toHaveText([/Používateľ/, "1", "1"]);
  // The section's heading near the top of the screenshot, clear of the sticky header.
  await page.evaluate(() => window.scrollTo(0, document.getElementById("citanost")!.getBoundingClientRect().top + window.scrollY - 80));
  await snapshot(page, testInfo, "admin-reads");
  if (jsEnabled) await expectNoAxeViolations(page);
  await expectNoSidewaysScroll(page);
  // Ordered by the 7 days instead, without JavaScript too.
  await section.getByRole("link", { name: "zoradiť podľa 7 dní" }).click();
  await expect(page).toHaveURL(/\/admin\?reads=7#citanost$/);
  await expect(section.getByText("Najčítanejšie za posledných 7 dní")).toBeVisible();
});
