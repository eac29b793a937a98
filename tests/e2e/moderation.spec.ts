import type { Browser, Page, TestInfo } from "@playwright/test";
import { Client, GOOD_PASSWORD, registerUser, uniqueEmail } from "../../scripts/lib/client";
import { publish } from "../../scripts/lib/publish";
import { confirmAddress } from "../support/accounts";
import { runBuildCommand } from "../support/commands";
import { SUBJECTS } from "../support/outbox";
import { waitForMail } from "../../scripts/lib/resend-stand-in";
import { expect, expectNoAxeViolations, snapshot, test, pageStatus } from "./fixtures";

const NEW_PASSWORD = "celkom-nové-heslo-7";
const FIREFOX_ON_WINDOWS = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0";

async function open(page: Page, path: string, jsEnabled: boolean) {
  const response = await page.goto(path);
  if (jsEnabled) await page.waitForLoadState("networkidle");
  return response;
}

async function signIn(page: Page, email: string, password: string, jsEnabled: boolean) {
  await open(page, "/signinsignup", jsEnabled);
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Heslo").fill(password);
  await page.getByRole("button", { name: "Prihlásiť sa" }).click();
  await expect(page.locator(".nav-signout").first()).toBeAttached();
  if (jsEnabled) await page.waitForLoadState("networkidle");
}

/** Follow a header link, from the mobile menu on a phone. */
async function followHeaderLink(page: Page, phone: boolean, name: string | RegExp) {
  if (phone) await page.locator(".mobile-menu > summary").click();
  await page.locator(".site-nav").getByRole("link", { name }).click();
}

/** Another device: its own browser, cookies and user agent. */
async function otherDevice(browser: Browser, jsEnabled: boolean) {
  const context = await browser.newContext({
    baseURL: process.env.E2E_BASE_URL,
    javaScriptEnabled: jsEnabled,
    userAgent: FIREFOX_ON_WINDOWS,
    locale: "sk-SK",
    extraHTTPHeaders: { "X-Forwarded-For": "203.0.113.50" },
  });
  return { context, page: await context.newPage() };
}

/** The second step of a destructive action: a form named by its question. */
function confirmation(page: Page) {
  return page.getByRole("form", { name: /\?/ });
}

async function expectSignedOut(page: Page) {
  await page.goto("/account");
  await expect(page).toHaveURL(/\/signinsignup\?redirectTo=\/account$/);
}

async function check(page: Page, testInfo: TestInfo, jsEnabled: boolean, name: string) {
  await snapshot(page, testInfo, name);
  if (jsEnabled) await expectNoAxeViolations(page);
}

test("a user keeps their account: articles, name, password, devices, and leaving", { tag: "@flow" }, async ({ page, browser, jsEnabled, phone }, testInfo) => {
  const name = `Mária Tereziová ${testInfo.project.name}`;
  const { client, email } = await registerUser(process.env.E2E_BASE_URL!, { displayName: name });
  const title = `Moja kronika ${testInfo.project.name} ${Date.now()}`;
  expect(await publish(client, title)).not.toBeNull();

  await signIn(page, email, GOOD_PASSWORD, jsEnabled);
  await followHeaderLink(page, phone, `Účet: ${name}`);
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Môj účet");
  await expect(page.locator("#moje-clanky + p")).toContainText("Spolu 1 článok, od najnovšieho.");
  await expect(page.getByRole("link", { name: title, exact: true })).toBeVisible();
  await check(page, testInfo, jsEnabled, "account");

  // A name is required; the refusal says so and keeps the field marked.
  const nameField = page.getByLabel("Zobrazované meno");
  await nameField.fill("   ");
  await page.getByRole("button", { name: "Uložiť meno" }).click();
  await expect(page.locator("#rename-error")).toHaveText("Vyplňte, prosím, všetky polia.");
  await expect(nameField).toHaveAttribute("aria-invalid", "true");
  await nameField.fill(`${name} ml.`);
  await page.getByRole("button", { name: "Uložiť meno" }).click();
  await expect(pageStatus(page)).toHaveText("Meno je zmenené.");
  await expect(page.locator(".nav-account-name").first()).toHaveText(`${name} ml.`);

  // Another device signs in; a password change signs it out.
  const other = await otherDevice(browser, jsEnabled);
  await signIn(other.page, email, GOOD_PASSWORD, jsEnabled);
  await page.getByLabel("Súčasné heslo").fill("toto-nie-je-ono");
  await page.getByLabel("Nové heslo", { exact: true }).fill(NEW_PASSWORD);
  await page.getByLabel("Potvrdenie hesla").fill(NEW_PASSWORD);
  await page.getByRole("button", { name: "Zmeniť heslo" }).click();
  await expect(page.locator("#password-error")).toHaveText("Heslo nie je správne.");
  await expect(page.getByLabel("Súčasné heslo")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel("Nové heslo", { exact: true })).toHaveValue("");
  await check(page, testInfo, jsEnabled, "account-password-error");
  await page.getByLabel("Súčasné heslo").fill(GOOD_PASSWORD);
  await page.getByLabel("Nové heslo", { exact: true }).fill(NEW_PASSWORD);
  await page.getByLabel("Potvrdenie hesla").fill(NEW_PASSWORD);
  await page.getByRole("button", { name: "Zmeniť heslo" }).click();
  await expect(pageStatus(page)).toHaveText("Heslo je zmenené. Ostatné zariadenia sú odhlásené.");
  await expectSignedOut(other.page);

  // It signs in again with the new password, and is signed out from here.
  await signIn(other.page, email, NEW_PASSWORD, jsEnabled);
  await open(page, "/account", jsEnabled);
  const devices = page.locator(".session-list > li");
  await expect(devices).toHaveCount(2);
  await expect(devices.filter({ hasText: "toto zariadenie" })).toHaveCount(1);
  await page.getByRole("button", { name: "Odhlásiť zariadenie Firefox · Windows" }).click();
  await expect(pageStatus(page)).toHaveText("Zariadenie je odhlásené.");
  await expect(devices).toHaveCount(1);
  await expectSignedOut(other.page);
  await other.context.close();

  // Leaving: the password confirms it; the account and its article are gone.
  await page.getByRole("link", { name: "Zrušiť účet…" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Zrušenie účtu");
  await expect(page.getByText("všetky vaše články (1 článok) aj s obrázkami,")).toBeVisible();
  await page.getByLabel("Heslo (na potvrdenie)").fill(GOOD_PASSWORD);
  await page.getByRole("button", { name: "Natrvalo zrušiť účet" }).click();
  await expect(page.locator("#delete-error")).toHaveText("Heslo nie je správne.");
  await check(page, testInfo, jsEnabled, "account-delete-error");
  await page.getByLabel("Heslo (na potvrdenie)").fill(NEW_PASSWORD);
  await page.getByRole("button", { name: "Natrvalo zrušiť účet" }).click();
  await expect(page).toHaveURL(/\/signinsignup$/);
  await expect(pageStatus(page)).toHaveText("Váš účet je zrušený. Ďakujeme, že ste s nami písali históriu.");
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Heslo").fill(NEW_PASSWORD);
  await page.getByRole("button", { name: "Prihlásiť sa" }).click();
  await expect(page.getByRole("alert")).toHaveText("Zlý e-mail alebo heslo");
  await open(page, "/posts", jsEnabled);
  await expect(page.getByText(title)).toHaveCount(0);
});

test("a reader reports, an admin moderates: reports, a search without diacritics, blocking, spam removal, the log", { tag: "@flow" }, async ({
  page,
  browser,
  jsEnabled,
  phone,
}, testInfo) => {
  const base = process.env.E2E_BASE_URL!;
  const run = `${testInfo.project.name} ${Date.now()}`;
  const spammerName = `Štefan Spamár ${run}`;
  const { client: spammer, email: spammerEmail } = await registerUser(base, { displayName: spammerName });
  const spam = [`Lacné hodinky ${run}`, `Ešte lacnejšie hodinky ${run}`];
  const [firstSpamId, secondSpamId] = await Promise.all(spam.map((title) => publish(spammer, title)));
  expect(firstSpamId && secondSpamId).toBeTruthy();
  const { client: author, email: authorEmail } = await registerUser(base, { displayName: `Poctivý Autor ${run}` });
  // The author and the reader below have confirmed their addresses: moderation's mails go to confirmed addresses only.
  confirmAddress(process.env.E2E_DATABASE_PATH!, authorEmail);
  const doubtful = `Sporný článok ${run}`;
  const doubtfulId = await publish(author, doubtful);

  // A signed-in reader reports two articles, from the article itself.
  const { email: readerEmail } = await registerUser(base, { displayName: `Čitateľka ${run}` });
  confirmAddress(process.env.E2E_DATABASE_PATH!, readerEmail);
  const reader = await otherDevice(browser, jsEnabled);
  await signIn(reader.page, readerEmail, GOOD_PASSWORD, jsEnabled);
  expect((await reader.page.goto("/admin"))?.status()).toBe(404);
  await expect(reader.page.getByRole("heading", { level: 1 })).toHaveText("Stránka sa nenašla");
  for (const [postId, reason] of [
    [doubtfulId, "Nepravdivé alebo zavádzajúce informácie"],
    [firstSpamId, "Spam alebo reklama"],
  ] as const) {
    await open(reader.page, `/posts/${postId}`, jsEnabled);
    await reader.page.getByRole("link", { name: "Nahlásiť" }).click();
    await expect(reader.page.getByRole("heading", { level: 1 })).toHaveText("Nahlásiť článok");
    await reader.page.getByRole("button", { name: "Nahlásiť" }).click();
    await expect(reader.page.locator("#report-error")).toHaveText("Vyberte dôvod nahlásenia.");
    await reader.page.getByLabel(reason).check();
    await reader.page.getByLabel("Poznámka pre redakciu (nepovinná)").fill("Dátumy nesedia s prameňmi.");
    await reader.page.getByRole("button", { name: "Nahlásiť" }).click();
    await expect(pageStatus(reader.page)).toHaveText("Ďakujeme, hlásenie sme prijali. Čo redakcia rozhodla, uvidíte v Mojich hláseniach a dostanete e-mail.");
  }

  // The admin: made on the command line, as a self-hoster does.
  const adminEmail = uniqueEmail(`admin-${testInfo.project.name}`);
  const adminName = `Správkyňa ${run}`;
  await registerUser(base, { displayName: adminName, email: adminEmail });
  const granted = await runBuildCommand("runAdminCommand", ["grant", adminEmail], {
    databasePath: process.env.E2E_DATABASE_PATH!,
    uploadsDir: process.env.E2E_UPLOADS_DIR!,
  });
  expect(granted.code, granted.output).toBe(0);
  // An account whose e-mail is one word of 240 characters, the newest on the admin's list.
  const longEmail = `${`${testInfo.project.name}-${Date.now()}-`.padEnd(64, "x")}@${"b".repeat(60)}.${"c".repeat(60)}.${"d".repeat(50)}.sk`;
  await registerUser(base, { displayName: `Dlhá Adresa ${run}`.slice(0, 50), email: longEmail });
  await signIn(page, adminEmail, GOOD_PASSWORD, jsEnabled);
  await followHeaderLink(page, phone, "Administrácia");
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Administrácia");
  // It wraps: the page never scrolls sideways, on a phone either.
  await expect(page.getByText(longEmail)).toBeVisible();
  // clientWidth, not innerWidth: an emulated phone widens its window to a page that overflows.
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
  await check(page, testInfo, jsEnabled, "admin");

  // The queue: each article's reports together; a decision needs a reason, and a refusal keeps what was typed.
  const queued = (title: string) => page.locator(".report-list > li").filter({ hasText: title });
  await expect(queued(doubtful)).toContainText("Dátumy nesedia s prameňmi.");
  await queued(doubtful).getByRole("checkbox").check();
  await page.getByLabel("Opodstatnené: skryť článok", { exact: true }).check();
  await page.getByRole("button", { name: "Rozhodnúť o vybraných" }).click();
  await expect(page.getByRole("alert")).toHaveText("Napíšte odôvodnenie: prečítajú si ho nahlasovatelia aj autor.");
  await expect(queued(doubtful).getByRole("checkbox")).toBeChecked();
  await expect(page.getByLabel("Opodstatnené: skryť článok", { exact: true })).toBeChecked();
  await page.locator("#decision-reason").fill("Dátum bitky v článku je nesprávny a chýba prameň.");
  await page.getByRole("button", { name: "Rozhodnúť o vybraných" }).click();
  await expect(pageStatus(page)).toHaveText("Rozhodnutie je zapísané; nahlasovatelia a autor ho uvidia vo svojom účte a dostanú e-mail, ak majú potvrdenú adresu.");
  await expect(queued(doubtful)).toHaveCount(0);
  // The form starts afresh for the next decision, with JavaScript too: no reason carried over by mistake.
  await expect(page.locator("#decision-reason")).toHaveValue("");
  await expect(page.locator('input[name="decision"]:checked')).toHaveCount(0);
  expect((await page.request.get(`/posts/${doubtfulId}`)).status()).toBe(200); // the admin still sees it
  expect((await new Client(base).get(`/posts/${doubtfulId}`)).response.status).toBe(404);

  await queued(spam[0]).getByRole("checkbox").check();
  await page.getByLabel("Opodstatnené: natrvalo odstrániť článok", { exact: true }).check();
  await page.locator("#decision-reason").fill("Reklama.");
  await page.getByRole("button", { name: "Rozhodnúť o vybraných" }).click();
  await expect(queued(spam[0])).toHaveCount(0);
  await expect(pageStatus(page)).toHaveText("Rozhodnutie je zapísané; nahlasovatelia a autor ho uvidia vo svojom účte a dostanú e-mail, ak majú potvrdenú adresu.");
  expect((await page.request.get(`/posts/${firstSpamId}`)).status()).toBe(404);
  await check(page, testInfo, jsEnabled, "admin-decided");

  // The reporter is told: on "Moje hlásenia" and by mail.
  await open(reader.page, "/account", jsEnabled);
  await reader.page.getByRole("link", { name: "Moje hlásenia" }).click();
  const told = reader.page.locator(".report-list > li").filter({ hasText: doubtful });
  await expect(told).toContainText("Opodstatnené — Článok skrytý");
  await expect(told).toContainText("Dátum bitky v článku je nesprávny a chýba prameň.");
  await check(reader.page, testInfo, jsEnabled, "my-reports");
  const readerMail = await waitForMail(process.env.E2E_RESEND_URL!, readerEmail, 2, SUBJECTS.notConfirmation);
  expect(readerMail.subject).toBe("Rozhodnutie o vašom hlásení – Dejiny");
  await reader.context.close();

  // The author reads the statement of reasons (mail and page) and contests it.
  const statementMail = await waitForMail(process.env.E2E_RESEND_URL!, authorEmail, 0, SUBJECTS.notConfirmation);
  expect(statementMail.text).toContain("Dátum bitky v článku je nesprávny a chýba prameň.");
  expect(statementMail.text).not.toContain(readerEmail);
  const writer = await otherDevice(browser, jsEnabled);
  await signIn(writer.page, authorEmail, GOOD_PASSWORD, jsEnabled);
  await open(writer.page, "/account", jsEnabled);
  await writer.page.getByRole("link", { name: "Rozhodnutia o mojom obsahu" }).click();
  const statement = writer.page.locator(".statement").filter({ hasText: doubtful });
  await expect(statement).toContainText("hlásenia čitateľov (Nepravdivé alebo zavádzajúce informácie)");
  await statement.getByLabel(/^Námietka/).fill("Dátum 29. augusta 1526 uvádza Kronika; prameň dopĺňam.");
  await statement.getByRole("button", { name: "Podať námietku" }).click();
  await expect(writer.page).toHaveURL(/\/account\/decisions#rozhodnutie-\d+$/);
  await expect(pageStatus(writer.page)).toContainText("Námietku sme prijali");
  await expect(writer.page.locator(".statement").filter({ hasText: doubtful })).toContainText("Námietka čaká na rozhodnutie");
  await check(writer.page, testInfo, jsEnabled, "my-decisions");

  // Another admin grants it: the article is back for everyone, and the author is told.
  const secondAdminEmail = uniqueEmail(`admin2-${testInfo.project.name}`);
  await registerUser(base, { displayName: `Námestníčka ${run}`.slice(0, 50), email: secondAdminEmail });
  expect((await runBuildCommand("runAdminCommand", ["grant", secondAdminEmail], { databasePath: process.env.E2E_DATABASE_PATH!, uploadsDir: process.env.E2E_UPLOADS_DIR! })).code).toBe(0);
  const second = await otherDevice(browser, jsEnabled);
  await signIn(second.page, secondAdminEmail, GOOD_PASSWORD, jsEnabled);
  await open(second.page, "/admin", jsEnabled);
  const appeal = second.page.locator("#namietky ~ .report-list > li").filter({ hasText: doubtful });
  await expect(appeal).toContainText("Dátum 29. augusta 1526 uvádza Kronika; prameň dopĺňam.");
  await appeal.getByLabel(/^Odôvodnenie/).fill("Prameň je doložený, článok vraciame.");
  await appeal.getByRole("button", { name: "Vyhovieť námietke" }).click();
  await expect(pageStatus(second.page)).toHaveText("Rozhodnutie o námietke je zapísané; autor ho uvidí vo svojom účte a dostane e-mail, ak má potvrdenú adresu.");
  await second.context.close();
  expect((await new Client(base).get(`/posts/${doubtfulId}`)).response.status).toBe(200);
  expect((await waitForMail(process.env.E2E_RESEND_URL!, authorEmail, 2, SUBJECTS.notConfirmation)).text).toContain("Prameň je doložený, článok vraciame.");
  await open(writer.page, "/account/decisions", jsEnabled);
  await expect(writer.page.locator(".statement").filter({ hasText: doubtful })).toContainText("Námietke sa vyhovelo");
  await writer.context.close();

  // The spammer, found without diacritics, is blocked and their other article removed.
  await page.getByLabel("Hľadať meno alebo e-mail").fill(`stefan spamar ${run}`);
  await page.getByRole("button", { name: "Hľadať" }).click();
  await expect(page.getByText(`Výsledky pre „stefan spamar ${run}“: 1.`)).toBeVisible();
  await check(page, testInfo, jsEnabled, "admin-search");
  await page.getByRole("link", { name: spammerName }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Účet ${spammerName}`);
  expect(await spammer.isSignedIn()).toBe(true);

  await page.getByRole("button", { name: "Zablokovať" }).click();
  await expect(confirmation(page)).toContainText(`Zablokovať účet ${spammerName}? Používateľ bude odhlásený na všetkých zariadeniach a nebude sa môcť prihlásiť.`);
  // The reason is its owner's statement of reasons: required, and kept when it is refused.
  await confirmation(page).getByRole("button", { name: "Zablokovať" }).click();
  await expect(page.getByRole("alert")).toHaveText("Napíšte odôvodnenie: prečítajú si ho nahlasovatelia aj autor.");
  await confirmation(page).getByRole("textbox").fill("Reklama v článkoch.");
  await confirmation(page).getByRole("button", { name: "Zablokovať" }).click();
  await expect(pageStatus(page)).toHaveText("Účet je zablokovaný.");
  await expect(page.locator(".facts")).toContainText("zablokovaný");
  expect(await spammer.isSignedIn()).toBe(false);
  const again = await new Client(base).post("/signinsignup", { intent: "signin", email: spammerEmail, password: GOOD_PASSWORD });
  expect(again.response.status).toBe(403);

  await page.getByRole("button", { name: "Odstrániť všetky články" }).click();
  await expect(confirmation(page)).toContainText(`Natrvalo odstrániť všetky články účtu ${spammerName} (1 článok) aj s obrázkami?`);
  await check(page, testInfo, jsEnabled, "admin-account-confirm");
  await confirmation(page).getByRole("textbox").fill("Reklama namiesto článkov.");
  await confirmation(page).getByRole("button", { name: "Odstrániť všetky články" }).click();
  await expect(pageStatus(page)).toHaveText("Články účtu sú odstránené.");
  await expect(page.getByRole("button", { name: "Odstrániť všetky články" })).toHaveCount(0);
  expect((await page.request.get(`/posts/${secondSpamId}`)).status()).toBe(404);

  // The log tells who did what to whom, newest first.
  await page.getByRole("link", { name: "Záznam moderovania", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Záznam moderovania");
  const mine = page.locator("tbody tr").filter({ hasText: adminName });
  await expect(mine.locator("th")).toHaveText([
    "Odstránenie všetkých článkov účtu",
    "Zablokovanie účtu",
    "Odstránenie cudzieho článku",
    "Rozhodnutie o hláseniach",
    "Rozhodnutie o hláseniach",
    "Udelenie práv administrátora",
  ]);
  await expect(mine.first()).toContainText(spammerName);
  await check(page, testInfo, jsEnabled, "admin-log");
});
