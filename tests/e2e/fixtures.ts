import { test as base, expect, type Page, type TestInfo } from "@playwright/test";
import { GOOD_PASSWORD } from "../../scripts/lib/client";
import { mkdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";

const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

export const test = base.extend<{ jsEnabled: boolean; phone: boolean }>({
  baseURL: async ({}, use) => use(process.env.E2E_BASE_URL), // eslint-disable-line no-empty-pattern
  jsEnabled: async ({ javaScriptEnabled }, use) => use(javaScriptEnabled !== false),
  phone: async ({ viewport }, use) => use((viewport?.width ?? 1280) < 896),
});

export { expect };

/**
 * Save a screenshot to look at, when asked for (E2E_SCREENSHOTS=1, or E2E_SCREENSHOTS_DIR):
 * <dir>/<project>-<name>.png, the dir being E2E_SCREENSHOTS_DIR or tests/e2e/screenshots
 * (git-ignored). `fullPage` for a form taller than the window. Not in `npm test`'s runs,
 * where nobody looks at them and each costs the browser a PNG.
 */
export async function snapshot(page: Page, testInfo: TestInfo, name: string, { fullPage = false } = {}) {
  if (!process.env.E2E_SCREENSHOTS && !process.env.E2E_SCREENSHOTS_DIR) return;
  const dir = process.env.E2E_SCREENSHOTS_DIR || "tests/e2e/screenshots";
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: `${dir}/${testInfo.project.name}-${name}.png`, fullPage });
}

/** Run axe-core on the page as it is now; fail on any violation. Needs JavaScript in the page. */
export async function expectNoAxeViolations(page: Page) {
  // Once per document: it is half a megabyte of script.
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    // @ts-expect-error axe is injected above
    const result = await window.axe.run(document, { resultTypes: ["violations"] });
    return result.violations.map((v: { id: string; help: string; nodes: { target: string[] }[] }) => ({
      id: v.id,
      help: v.help,
      targets: v.nodes.map((n) => n.target.join(" ")),
    }));
  });
  expect(violations).toEqual([]);
}

/** A marker that survives client-side navigation but not a full page load. */
export async function markDocument(page: Page) {
  await page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));
}

export async function isSameDocument(page: Page) {
  return page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument === true);
}

/** The page's own status message: not the word after an action, which every page has a region for (ActionNotice). */
export function pageStatus(page: Page) {
  return page.locator('[role="status"]:not(.action-notice)');
}

/** Sign in through the form (with `password`, the test accounts' own by default), and wait until the page says so. */
export async function signIn(page: Page, email: string, jsEnabled: boolean, password = GOOD_PASSWORD) {
  await page.goto("/signinsignup");
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Heslo").fill(password);
  await page.getByRole("button", { name: "Prihlásiť sa" }).click();
  await expect(page.locator(".nav-signout").first()).toBeAttached();
  if (jsEnabled) await page.waitForLoadState("networkidle");
}

/** Tick `tags` in an article form's tag picker: chosen from its list with JavaScript, its checkboxes without. */
export async function chooseTags(page: Page, jsEnabled: boolean, tags: string[]) {
  if (jsEnabled) for (const tag of tags) await page.getByLabel(/^Tagy/).selectOption(tag);
  else for (const tag of tags) await page.getByRole("checkbox", { name: tag, exact: true }).check();
}
