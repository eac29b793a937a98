import { registerUser } from "../../scripts/lib/client";
import { publish } from "../../scripts/lib/publish";
import { runBuildCommand } from "../support/commands";
import { expect, expectNoAxeViolations, snapshot, test } from "./fixtures";

test("the public moderation log: reached from the footer, readable at the phone's width, no names", async ({ page, jsEnabled }, testInfo) => {
  const base = process.env.E2E_BASE_URL!;
  const run = testInfo.project.name;
  const [admin, author, reader] = await Promise.all([
    registerUser(base, { displayName: `Moderátor ${run}` }),
    registerUser(base, { displayName: `Autorka ${run}` }),
    registerUser(base, { displayName: `Čitateľ ${run}` }),
  ]);
  const paths = { databasePath: process.env.E2E_DATABASE_PATH!, uploadsDir: process.env.E2E_UPLOADS_DIR! };
  expect((await runBuildCommand("runAdminCommand", ["grant", admin.email], paths)).code).toBe(0);
  const kept = (await publish(author.client, `Bitka pri Moháči (${run})`))!;
  const hidden = (await publish(author.client, `Tajný názov skrytého článku (${run})`))!;
  for (const id of [kept, hidden]) expect((await reader.client.post(`/posts/${id}/report`, { reason: "misinformation" })).response.status).toBe(200);
  const decide = (post: string, decision: string, reason: string) => admin.client.post("/admin", { intent: "decide", post, decision, reason });
  expect((await decide(kept, "dismiss", `Dátum 29. augusta 1526 je správny, článok cituje kroniku; pozri https://sk.wikipedia.org/wiki/Bitka_pri_Mohá${"č".repeat(60)}i (${run}).`)).response.status).toBe(303);
  expect((await decide(hidden, "hide", `Článok tvrdí o bitke veci, ktoré žiadny prameň nepotvrdzuje; skrytý, kým autorka nedoplní zdroje (${run}).`)).response.status).toBe(303);

  await page.goto("/posts");
  await page.locator(".site-footer").getByRole("link", { name: "Verejný záznam moderovania" }).click();
  await expect(page).toHaveURL(/\/moderation$/);
  if (jsEnabled) await page.waitForLoadState("networkidle");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Verejný záznam moderovania");
  await expect(page.locator(".public-log-table")).toContainText(`skrytý, kým autorka nedoplní zdroje (${run})`);
  await expect(page.locator(".public-log-table")).toContainText(`Bitka pri Moháči (${run})`);
  const body = await page.content();
  for (const secret of [`Tajný názov skrytého článku (${run})`, `Moderátor ${run}`, `Autorka ${run}`, `Čitateľ ${run}`]) expect(body).not.toContain(secret);
  // A long reason wraps: the page never scrolls sideways.
  // clientWidth, not innerWidth: an emulated phone widens its window to a page that overflows.
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
  await page.screenshot({ path: `tests/e2e/screenshots/${run}-public-log-full.png`, fullPage: true });
  await snapshot(page, testInfo, "public-log");
  if (jsEnabled) await expectNoAxeViolations(page);
});
