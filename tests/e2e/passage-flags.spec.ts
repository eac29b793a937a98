import type { BrowserContext, Page, TestInfo } from "@playwright/test";
import { type Client, registerUser } from "../../scripts/lib/client";
import { publish } from "../../scripts/lib/publish";
import { expect, expectNoAxeViolations, snapshot, test, pageStatus } from "./fixtures";

const TYPED = [
  "Veľkú Moravu založil Mojmír I. a vládol jej do roku 846.",
  "",
  "Cyril a Metod prišli na Moravu v roku 863 na pozvanie kniežaťa Rastislava, ktorý chcel vlastnú cirkevnú správu.",
  "",
  "<h2>Dôsledky</h2>",
  "Staroslovienčina sa stala jazykom liturgie.",
  "<blockquote>Náš ľud sa zriekol pohanstva.<cite>Život Konštantína</cite></blockquote>",
].join("\n");
const SECOND = "Cyril a Metod prišli na Moravu v roku 863 na pozvanie kniežaťa Rastislava, ktorý chcel vlastnú cirkevnú správu.";

/** The browser signed in as the account `client` registered (its session cookie). */
async function signedInAs(context: BrowserContext, client: Client) {
  const { hostname } = new URL(process.env.E2E_BASE_URL!);
  await context.addCookies([...client.cookies].map(([name, value]) => ({ name, value, domain: hostname, path: "/" })));
}

async function look(page: Page, testInfo: TestInfo, jsEnabled: boolean, name: string) {
  await snapshot(page, testInfo, name);
  if (jsEnabled) await expectNoAxeViolations(page);
}

test("a reader asks for the source of a passage, and its author sees it on the edit form, without the note for the editors", { tag: "@flow" }, async ({ page, browser, jsEnabled }, testInfo) => {
  const base = process.env.E2E_BASE_URL!;
  const { client: author } = await registerUser(base);
  const id = await publish(author, `Veľká Morava ${testInfo.project.name}`, ["Stredovek"], TYPED);
  expect(id).not.toBeNull();
  const { client: reader } = await registerUser(base);
  await signedInAs(page.context(), reader);

  await page.goto(`/posts/${id}`);
  if (jsEnabled) await page.waitForLoadState("networkidle");
  const flags = page.locator(".post-content a.passage-flag");
  await expect(flags).toHaveCount(4);
  await expect(page.locator(".post-content h2")).toHaveText("Dôsledky");
  await page.locator("#odsek-2").scrollIntoViewIfNeeded();
  await look(page, testInfo, jsEnabled, "passages");

  await page.locator("#odsek-2").getByRole("link", { name: "Zdroj? (označiť odsek 2)" }).click();
  await expect(page).toHaveURL(new RegExp(`/posts/${id}/report\\?odsek=2$`));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Označiť odsek");
  await expect(page.locator(".passage-quote")).toHaveText(`Odsek 2: „${SECOND}“`);
  await expect(page.getByLabel("Chýba zdroj")).toBeChecked();
  if (jsEnabled) await page.waitForLoadState("networkidle");
  await look(page, testInfo, jsEnabled, "passage-report");

  await page.getByLabel("Poznámka pre redakciu (nepovinná)").fill("Odkiaľ je rok 863?");
  await page.getByRole("button", { name: "Označiť odsek" }).click();
  await expect(pageStatus(page)).toContainText("hlásenie sme prijali");

  // The author, on another browser, opens the edit form.
  const context = await browser.newContext({ baseURL: base, javaScriptEnabled: jsEnabled, viewport: page.viewportSize() });
  await signedInAs(context, author);
  const authorPage = await context.newPage();
  await authorPage.goto(`/posts/${id}?edit`);
  const list = authorPage.locator(".passage-flags");
  await expect(list.getByRole("heading")).toHaveText("Čitatelia sa pýtajú na zdroje");
  // What to fix: the passage and the reason; the note was for the editors.
  await expect(list.locator("li")).toHaveText(`Odsek 2: „${SECOND}“ — Chýba zdroj`);
  await expect(authorPage.getByText("Odkiaľ je rok 863?")).toHaveCount(0);
  await expect(authorPage.locator(".post-content a.passage-flag")).toHaveCount(0);
  if (jsEnabled) await authorPage.waitForLoadState("networkidle");
  await list.scrollIntoViewIfNeeded();
  await look(authorPage, testInfo, jsEnabled, "passage-flags-edit");
  await context.close();
});
