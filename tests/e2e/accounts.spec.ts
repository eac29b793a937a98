import type { Page } from "@playwright/test";
import { uniqueEmail } from "../../scripts/lib/client";
import { TEST_PUBLIC_URL } from "../support/accounts-env";
import { SUBJECTS } from "../support/outbox";
import { sentMails, waitForMail } from "../../scripts/lib/resend-stand-in";
import { expect, expectNoAxeViolations, snapshot, test, pageStatus } from "./fixtures";

const PASSWORD = "bezpečné-heslo-1";
const NEW_PASSWORD = "nové-heslo-2024";

async function open(page: Page, path: string, jsEnabled: boolean) {
  await page.goto(path);
  if (jsEnabled) await page.waitForLoadState("networkidle");
}

/** The header's entries, wherever they are at this width (the mobile menu opened first). */
async function navEntries(page: Page, phone: boolean) {
  if (phone) await page.locator(".mobile-menu > summary").click();
  const nav = page.getByRole("navigation", { name: "Hlavná navigácia" });
  const entries = await nav.locator(".nav-entries > li").allInnerTexts();
  if (phone) await page.locator(".mobile-menu > summary").click();
  // The desktop bar hides "Účet:" visually (screen readers still hear it): one line per entry.
  return entries.map((e) => e.replace(/\s+/g, " ").trim());
}

test("register, sign out, sign in; the header follows the state", async ({ page, jsEnabled, phone }, testInfo) => {
  const email = uniqueEmail(testInfo.project.name);
  await open(page, "/signinsignup", jsEnabled);
  expect(await navEntries(page, phone)).toEqual(["História", "Časová os", "Aktuálne konflikty"]);
  await snapshot(page, testInfo, "signin");
  if (jsEnabled) await expectNoAxeViolations(page);

  // Switching to register clears what was typed.
  await page.getByLabel("E-mail").fill("niekto@example.com");
  await page.getByRole("link", { name: "Zaregistrujte sa" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Registrácia");
  await expect(page.getByLabel("E-mail")).toHaveValue("");

  // No two accounts may look alike: each project's account has a name of its own.
  await page.getByLabel("Zobrazované meno").fill(`Anna Bátoriová ${testInfo.project.name}`);
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Heslo", { exact: true }).fill(PASSWORD);
  await page.getByLabel("Potvrdenie hesla").fill("iné-heslo-123");
  await page.getByRole("button", { name: "Zaregistrovať sa" }).click();
  await expect(page.getByRole("alert")).toHaveText("Passwords do not match");
  await expect(page.getByLabel("Potvrdenie hesla")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel("E-mail")).toHaveValue(email);
  await expect(page.getByLabel("Heslo", { exact: true })).toHaveValue("");
  await snapshot(page, testInfo, "register-error");
  if (jsEnabled) await expectNoAxeViolations(page);

  await page.getByLabel("Heslo", { exact: true }).fill(PASSWORD);
  await page.getByLabel("Potvrdenie hesla").fill(PASSWORD);
  await page.getByRole("button", { name: "Zaregistrovať sa" }).click();
  await expect(page).toHaveURL(/\/$/);
  expect(await navEntries(page, phone)).toEqual(["História", "Pridať článok", "Časová os", "Aktuálne konflikty", `Účet: Anna Bátoriová ${testInfo.project.name}`, "Odhlásiť sa"]);
  await snapshot(page, testInfo, "signed-in");

  if (phone) await page.locator(".mobile-menu > summary").click();
  await page.locator(".site-nav").getByRole("button", { name: "Odhlásiť sa" }).click();
  await expect(page.locator(".nav-signout")).toHaveCount(0);
  await expect(page).toHaveURL(/\/$/);
  expect(await navEntries(page, phone)).toEqual(["História", "Časová os", "Aktuálne konflikty", "Prihlásiť sa"]);

  await open(page, "/signinsignup", jsEnabled);
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Heslo").fill("zlé-heslo-123");
  await page.getByRole("button", { name: "Prihlásiť sa" }).click();
  await expect(page.getByRole("alert")).toHaveText("Zlý e-mail alebo heslo");
  await page.getByLabel("Heslo").fill(PASSWORD);
  await page.getByLabel("Zapamätať si ma").check();
  await page.getByRole("button", { name: "Prihlásiť sa" }).click();
  await expect(page).toHaveURL(/\/$/);
  expect(await navEntries(page, phone)).toContain("Odhlásiť sa");
});

test("forgot password: e-mail, link, new password, sign in", { tag: "@flow" }, async ({ page, jsEnabled }, testInfo) => {
  const email = uniqueEmail(`reset-${testInfo.project.name}`);
  await open(page, "/signinsignup?mode=register", jsEnabled);
  await page.getByLabel("Zobrazované meno").fill(`Juraj Jánošík ${testInfo.project.name}`);
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Heslo", { exact: true }).fill(PASSWORD);
  await page.getByLabel("Potvrdenie hesla").fill(PASSWORD);
  await page.getByRole("button", { name: "Zaregistrovať sa" }).click();
  await expect(page).toHaveURL(/\/$/);
  await page.context().clearCookies();

  await open(page, "/signinsignup", jsEnabled);
  await page.getByRole("link", { name: "Zabudnuté heslo?" }).click();
  const modal = page.getByRole("dialog", { name: "Zabudnuté heslo" });
  await expect(modal).toBeVisible();
  await modal.getByRole("button", { name: "Odoslať" }).click();
  await expect(modal.getByRole("alert")).toHaveText("Please enter your email address.");
  await snapshot(page, testInfo, "forgot-modal");
  if (jsEnabled) await expectNoAxeViolations(page);

  const resendUrl = process.env.E2E_RESEND_URL!;
  const before = (await sentMails(resendUrl)).length;
  await modal.getByLabel("E-mail").fill(email);
  await modal.getByRole("button", { name: "Odoslať" }).click();
  await expect(modal).toBeHidden();
  await expect(page).toHaveURL(/\/signinsignup$/);
  await expect(pageStatus(page)).toContainText("Ak k tomuto e-mailu existuje účet");
  // Said once: a reload shows the page without it.
  await page.reload();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Prihlásenie");
  await expect(pageStatus(page)).toHaveCount(0);
  const mail = await waitForMail(resendUrl, email, 0, SUBJECTS.reset);
  expect((await sentMails(resendUrl)).length).toBeGreaterThan(before);

  const link = mail.text.match(/\S+\/reset-password\?token=\S+/)![0];
  await open(page, link.replace(TEST_PUBLIC_URL, ""), jsEnabled);
  await page.getByLabel("Nové heslo").fill(NEW_PASSWORD);
  await page.getByLabel("Potvrdenie hesla").fill(NEW_PASSWORD);
  await snapshot(page, testInfo, "reset-password");
  if (jsEnabled) await expectNoAxeViolations(page);
  await page.getByRole("button", { name: "Nastaviť heslo" }).click();
  await expect(page).toHaveURL(/\/signinsignup$/);
  await expect(pageStatus(page)).toContainText("Heslo je zmenené");

  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Heslo").fill(NEW_PASSWORD);
  await page.getByRole("button", { name: "Prihlásiť sa" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.locator(".nav-signout").first()).toBeAttached();
});

test("registering from a redirect returns to where the visitor was going", async ({ page, jsEnabled }, testInfo) => {
  await open(page, "/signinsignup?redirectTo=%2Fconflicts", jsEnabled);
  await page.getByRole("link", { name: "Zaregistrujte sa" }).click();
  await page.getByLabel("Zobrazované meno").fill(`Presmerovaný ${testInfo.project.name}`);
  await page.getByLabel("E-mail").fill(uniqueEmail("redirect"));
  await page.getByLabel("Heslo", { exact: true }).fill(PASSWORD);
  await page.getByLabel("Potvrdenie hesla").fill(PASSWORD);
  await page.getByRole("button", { name: "Zaregistrovať sa" }).click();
  await expect(page).toHaveURL(/\/conflicts$/);
});

test("with JavaScript, the register form is checked by the server's schema before anything is sent", async ({ page, jsEnabled }) => {
  test.skip(!jsEnabled, "without JavaScript the server checks it (above)");
  await open(page, "/signinsignup?mode=register", jsEnabled);
  const posts: string[] = [];
  page.on("request", (request) => {
    if (request.method() === "POST") posts.push(request.url());
  });
  await page.getByLabel("Zobrazované meno").fill("Anna Bátoriová");
  await page.getByLabel("E-mail").fill("nie-je-email");
  await page.getByLabel("Heslo", { exact: true }).fill(PASSWORD);
  await page.getByLabel("Potvrdenie hesla").fill(PASSWORD);
  await page.getByRole("button", { name: "Zaregistrovať sa" }).click();
  await expect(page.getByRole("alert")).toHaveText("Zlý e-mail alebo heslo");
  await expect(page.getByLabel("E-mail")).toHaveAttribute("aria-invalid", "true");

  await page.getByLabel("E-mail").fill("anna@example.com");
  await page.getByLabel("Heslo", { exact: true }).fill("kratke");
  await page.getByLabel("Potvrdenie hesla").fill("kratke");
  await page.getByRole("button", { name: "Zaregistrovať sa" }).click();
  await expect(page.getByRole("alert")).toHaveText("Heslo musí mať aspoň 8 znakov.");
  await expect(page.getByLabel("Heslo", { exact: true })).toHaveAttribute("aria-invalid", "true");
  expect(posts).toEqual([]);
});
