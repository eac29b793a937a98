import type { Page } from "@playwright/test";
import { registerUser } from "../../scripts/lib/client";
import { publish, saveEdit } from "../../scripts/lib/publish";
import Database from "better-sqlite3";
import { expect, expectNoAxeViolations, snapshot, test } from "./fixtures";

const PHONE = "0905 123 456";

async function open(page: Page, path: string, jsEnabled: boolean) {
  await page.goto(path);
  if (jsEnabled) await page.waitForLoadState("networkidle");
}

test("an admin hides an old revision's text and summary, a visitor sees only that they were hidden, then the admin erases them", { tag: "@flow" }, async ({ page, browser, jsEnabled }, testInfo) => {
  const base = process.env.E2E_BASE_URL!;
  const author = await registerUser(base, { displayName: `Pisateľka ${testInfo.project.name}` });
  const title = `Svedok z Lipian ${testInfo.project.name} ${Date.now()}`;
  const id = (await publish(author.client, title, ["Stredovek"], "Bitka pri Lipanoch sa odohrala v roku 1434."))!;
  await saveEdit(author.client, id, { title, content: `Bitka pri Lipanoch sa odohrala v roku 1434. Svedok: Ján Novák, tel. ${PHONE}.`, summary: `Pridaný svedok, tel. ${PHONE}` });
  const admin = await registerUser(base, { displayName: `Redaktorka ${testInfo.project.name}` });
  const db = new Database(process.env.E2E_DATABASE_PATH!);
  db.prepare("UPDATE users SET is_admin = 1 WHERE email = ?").run(admin.email);
  db.close();
  await saveEdit(admin.client, id, { title, content: "Bitka pri Lipanoch sa odohrala v roku 1434. Svedok: (údaje odstránené).", summary: "Osobné údaje preč" });
  await page.context().addCookies([...admin.client.cookies].map(([name, value]) => ({ name, value, url: base })));

  // The admin ticks revision 2 and hides its text and summary, with a reason.
  await open(page, `/posts/${id}/history`, jsEnabled);
  await page.getByRole("checkbox", { name: "Vybrať verziu 2 na moderovanie" }).check();
  const form = page.getByRole("group", { name: "Moderovanie vybraných verzií" });
  await form.getByRole("checkbox", { name: "popis zmeny" }).check();
  await form.getByLabel(/^Odôvodnenie/).fill("Osobné údaje svedka.");
  await snapshot(page, testInfo, "revision-moderation");
  if (jsEnabled) await expectNoAxeViolations(page);
  await form.getByRole("button", { name: "Skryť", exact: true }).click();
  const second = page.locator(".history-table tbody tr").nth(1);
  await expect(second.locator('[data-label="Verzia"]')).toContainText("text skrytý redakciou");

  // A visitor: the row, its date and size, and no phone number anywhere; no link, nothing to compare.
  const visitor = await browser.newPage({ viewport: page.viewportSize()!, javaScriptEnabled: jsEnabled });
  await open(visitor, `${base}/posts/${id}/history`, jsEnabled);
  const row = visitor.locator(".history-table tbody tr").nth(1);
  await expect(row.locator('[data-label="Popis zmeny"]')).toHaveText("popis skrytý redakciou");
  await expect(row.getByRole("link")).toHaveCount(0);
  await expect(row.getByRole("radio")).toHaveCount(0);
  expect(await visitor.content()).not.toContain(PHONE);
  await snapshot(visitor, testInfo, "history-hidden-visitor");
  if (jsEnabled) await expectNoAxeViolations(visitor);
  await visitor.close();

  // The admin still reads it, and erases it for good, asked once more.
  await second.locator('[data-label="Verzia"] a').click();
  await expect(page.locator(".revision-article")).toContainText(PHONE);
  const own = page.getByRole("group", { name: "Moderovanie tejto verzie" });
  await own.getByRole("checkbox", { name: "popis zmeny" }).check();
  await own.getByLabel(/^Odôvodnenie/).fill("Žiadosť svedka o výmaz.");
  await own.getByRole("button", { name: "Natrvalo vymazať…" }).click();
  const confirm = page.getByRole("form", { name: /Natrvalo vymazať vybrané časti/ });
  await expect(confirm).toBeVisible();
  await snapshot(page, testInfo, "erase-confirm");
  if (jsEnabled) await expectNoAxeViolations(page);
  await confirm.getByRole("button", { name: "Natrvalo vymazať" }).click();
  await expect(page.locator(".revision-notice").first()).toContainText("vymazané natrvalo");
  await expect(page.locator("body")).not.toContainText(PHONE);
});
