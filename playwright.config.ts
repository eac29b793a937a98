import { defineConfig } from "@playwright/test";
import { CHROME_FLAGS, CHROMIUM_PATH } from "./scripts/chromium.js";

// Debian's Chromium: Playwright's own browser download is not reachable here.
const chromium = {
  browserName: "chromium" as const,
  launchOptions: { executablePath: CHROMIUM_PATH, args: CHROME_FLAGS },
};

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
    { name: "js-375", use: { ...chromium, ...phone, extraHTTPHeaders: { "X-Forwarded-For": "203.0.113.1" } } },
    { name: "js-1280", use: { ...chromium, ...desktop, extraHTTPHeaders: { "X-Forwarded-For": "203.0.113.2" } } },
    { name: "nojs-375", use: { ...chromium, ...phone, javaScriptEnabled: false, extraHTTPHeaders: { "X-Forwarded-For": "203.0.113.3" } } },
    { name: "nojs-1280", use: { ...chromium, ...desktop, javaScriptEnabled: false, extraHTTPHeaders: { "X-Forwarded-For": "203.0.113.4" } } },
  ],
});
