import { defineConfig } from "@playwright/test";
import { CHROME_FLAGS, CHROMIUM_PATH } from "./scripts/chromium.js";

// Debian's Chromium: Playwright's own browser download is not reachable here.
const chromium = {
  browserName: "chromium" as const,
  launchOptions: { executablePath: CHROMIUM_PATH, args: CHROME_FLAGS },
};

/**
 * Long flows (tagged @flow: publishing, drafts, moderation, history…) run in
 * two projects crosswise, JavaScript on at 1280 px and off at 375 px, so
 * each is walked with and without JavaScript and at both widths' layouts;
 * the reader's pages and the header run in all four. The flows are most of
 * the browser time, and the cores, not the waits, are what limits it
 * (docs/decisions/browser-flows-crosswise.md). E2E_EVERY_FLOW=1 runs them in all four.
 */
const notFlows = process.env.E2E_EVERY_FLOW ? {} : { grepInvert: /@flow/ };

const phone = { viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true };
const desktop = { viewport: { width: 1280, height: 800 } };

export default defineConfig({
  testDir: "tests/e2e",
  globalSetup: "tests/e2e/global-setup.ts",
  fullyParallel: true,
  workers: 2,
  retries: 0,
  // The longest flows (register, publish with an image, edit, delete) take about 20 s on two busy cores.
  timeout: 60_000,
  reporter: process.env.CI ? "line" : "list",
  use: { trace: "off", locale: "sk-SK" },
  // Each project as its own client address (the test server trusts X-Forwarded-For), so they do not share a throttling budget.
  projects: [
    { name: "js-375", ...notFlows, use: { ...chromium, ...phone, extraHTTPHeaders: { "X-Forwarded-For": "203.0.113.1" } } },
    { name: "js-1280", use: { ...chromium, ...desktop, extraHTTPHeaders: { "X-Forwarded-For": "203.0.113.2" } } },
    { name: "nojs-375", use: { ...chromium, ...phone, javaScriptEnabled: false, extraHTTPHeaders: { "X-Forwarded-For": "203.0.113.3" } } },
    { name: "nojs-1280", ...notFlows, use: { ...chromium, ...desktop, javaScriptEnabled: false, extraHTTPHeaders: { "X-Forwarded-For": "203.0.113.4" } } },
  ],
});
