// Page weight of one page in Chromium at a phone size: compressed bytes per
// resource type, as transferred (response bodies, without headers).
import { chromium } from "@playwright/test";
import { CHROME_FLAGS, CHROMIUM_PATH } from "../../chromium.js";

const PHONE = { viewport: { width: 375, height: 812 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };
const KB = 1000;
const TARGETS = { html: 15 * KB, css: 15 * KB, aboveFold: 100 * KB, js: 100 * KB, firstView: 100 * KB };

/** Load `url` in a fresh context; returns every finished response ({ url, type, bytes, encoding }) and the page. */
async function load(browser, url, javaScriptEnabled) {
  const context = await browser.newContext({ ...PHONE, javaScriptEnabled });
  const page = await context.newPage();
  const pending = [];
  page.on("requestfinished", (request) => {
    pending.push(
      Promise.all([request.sizes(), request.response()]).then(([sizes, response]) => ({
        url: request.url(),
        type: request.resourceType(),
        bytes: Math.max(0, sizes.responseBodySize),
        encoding: response?.headers()["content-encoding"] ?? "identity",
      })),
    );
  });
  await page.goto(url, { waitUntil: "networkidle" });
  return { context, page, responses: await Promise.all(pending) };
}

/** Sources of the <img> elements entirely below the first screen. */
function imagesBelowTheFold(page) {
  return page.evaluate(() =>
    [...document.images].filter((img) => img.getBoundingClientRect().top >= window.innerHeight).map((img) => img.currentSrc),
  );
}

const total = (responses) => responses.reduce((sum, r) => sum + r.bytes, 0);
const row = (label, responses, targetBytes) => ({ label, requests: responses.length, bytes: total(responses), targetBytes });

/**
 * Without JavaScript: the HTML, CSS, fonts and images. Chromium does not defer
 * loading="lazy" images when scripting is off, so every card image arrives;
 * the images above the fold are all those except <img>s below the first screen.
 * With JavaScript: every script the page loads. The first view is everything
 * the page downloads until the network is idle, without and with JavaScript.
 */
export async function measurePageWeight(url) {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROME_FLAGS });
  try {
    const noJs = await load(browser, url, false);
    const below = new Set(await imagesBelowTheFold(noJs.page));
    await noJs.context.close();
    const withJs = await load(browser, url, true);
    await withJs.context.close();

    const ofType = (responses, type) => responses.filter((r) => r.type === type);
    const images = ofType(noJs.responses, "image");
    const fonts = [...ofType(noJs.responses, "font"), ...ofType(withJs.responses, "font")];
    const documents = ofType(noJs.responses, "document");
    return {
      url,
      phone: `${PHONE.viewport.width}×${PHONE.viewport.height} @${PHONE.deviceScaleFactor}x`,
      documentEncoding: documents[0]?.encoding,
      rows: [
        row("HTML (document)", documents, TARGETS.html),
        row("CSS", ofType(noJs.responses, "stylesheet"), TARGETS.css),
        row("images above the fold", images.filter((r) => !below.has(r.url)), TARGETS.aboveFold),
        row("JS (with JavaScript on)", ofType(withJs.responses, "script"), TARGETS.js),
        row("web fonts", fonts, 0),
        row("first view without JavaScript (all of the above but JS)", noJs.responses, TARGETS.firstView),
        row("first view with JavaScript (lazy images wait)", withJs.responses, Infinity),
      ],
      belowTheFold: row("images below the fold (without JS only)", images.filter((r) => below.has(r.url)), Infinity),
      responses: { withoutJs: noJs.responses, withJs: withJs.responses },
    };
  } finally {
    await browser.close();
  }
}
