import type { Page } from "@playwright/test";
import { GOOD_PASSWORD, registerUser } from "../../scripts/lib/client";
import { TEST_PUBLIC_URL } from "../support/accounts-env";
import { SUBJECTS } from "../support/outbox";
import { sentMails } from "../../scripts/lib/resend-stand-in";
import { expect, expectNoAxeViolations, snapshot, test, pageStatus } from "./fixtures";

async function open(page: Page, path: string, jsEnabled: boolean) {
  await page.goto(path);
  if (jsEnabled) await page.waitForLoadState("networkidle");
}

/** The confirmation links mailed to `email`, oldest first, as paths of this site; waits for at least `count`. */
async function confirmationLinks(email: string, count: number): Promise<string[]> {
  for (let i = 0; ; i++) {
    const links = (await sentMails(process.env.E2E_RESEND_URL!))
      .filter((mail) => [mail.to].flat().includes(email) && SUBJECTS.confirmation.test(mail.subject))
      .map((mail) => mail.text.match(/\S+\/confirm-email\?token=\S+/)![0].replace(TEST_PUBLIC_URL, ""));
    if (links.length >= count || i === 100) return links;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

test("a new account confirms its address: /account says it is not, sends the link again, the link's page confirms with its button", { tag: "@flow" }, async ({ page, jsEnabled }, testInfo) => {
  const { email } = await registerUser(process.env.E2E_BASE_URL!, { displayName: `Potvrdzovateľka ${testInfo.project.name}` });
  expect(await confirmationLinks(email, 1)).toHaveLength(1);

  await open(page, "/signinsignup?redirectTo=/account", jsEnabled);
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Heslo").fill(GOOD_PASSWORD);
  await page.getByRole("button", { name: "Prihlásiť sa" }).click();
  await expect(page).toHaveURL(/\/account$/);
  const profile = page.locator("section").filter({ has: page.getByRole("heading", { name: "Profil" }) });
  await expect(profile).toContainText(`E-mail: ${email} · nepotvrdený`);
  await expect(profile).toContainText("Kým adresu nepotvrdíte, posielame na ňu iba odkazy na potvrdenie a na obnovenie hesla.");

  await profile.getByRole("button", { name: "Poslať odkaz na potvrdenie" }).click();
  await expect(pageStatus(page)).toHaveText(/^Odkaz na potvrdenie e-mailovej adresy sme poslali\. Platí 24 hodín\./);
  await snapshot(page, testInfo, "account-unconfirmed");
  if (jsEnabled) await expectNoAxeViolations(page);
  const links = await confirmationLinks(email, 2);
  expect(links).toHaveLength(2);

  // The newest link (the first one works as well): a page whose button confirms; opening it confirms nothing.
  await open(page, links[1], jsEnabled);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Potvrdenie e-mailovej adresy");
  await snapshot(page, testInfo, "confirm-email");
  if (jsEnabled) await expectNoAxeViolations(page);
  await page.getByRole("button", { name: "Potvrdiť adresu" }).click();
  await expect(page).toHaveURL(/\/confirm-email\?confirmed$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("E-mailová adresa je potvrdená");
  await expect(pageStatus(page)).toContainText("Odteraz vám budeme posielať aj e-maily");
  if (jsEnabled) await expectNoAxeViolations(page);

  await page.getByRole("link", { name: "Prejsť na môj účet" }).click();
  await expect(page).toHaveURL(/\/account$/);
  await expect(profile).toContainText(`E-mail: ${email} · potvrdený`);
  await expect(profile.getByRole("button", { name: "Poslať odkaz na potvrdenie" })).toHaveCount(0);

  // Used up, the other link too: the page says so and offers no button.
  await open(page, links[0], jsEnabled);
  await expect(page.getByRole("alert")).toContainText("Odkaz na potvrdenie e-mailovej adresy je neplatný, už bol použitý alebo vypršal.");
  await expect(page.getByRole("button", { name: "Potvrdiť adresu" })).toHaveCount(0);
  await snapshot(page, testInfo, "confirm-email-used");
  if (jsEnabled) await expectNoAxeViolations(page);
});
