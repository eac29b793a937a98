// A pool of generated photo-like images, stored the way the app stores an
// upload (app/services/images/images.server.ts): decoded, at most 1200 px wide, and
// written as `${key}-${variant}.${format}` for every width, the thumbnail and every format.
import { randomBytes } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";

const WIDTHS = [400, 800, 1200];
// The square thumbnail of the phone's compact cards (app/lib/images.ts).
const THUMBNAIL = "thumb";
const THUMBNAIL_SIZE = 240;
const SOURCE = { width: 1600, height: 1000 };

/** Blurred coloured shapes on a gradient: the large-scale structure of a photo. */
function sceneSvg(random) {
  const { width, height } = SOURCE;
  const hue = Math.floor(random() * 360);
  const shapes = Array.from({ length: 7 }, (_, i) => {
    const r = Math.round(80 + random() * 300);
    const fill = `hsl(${(hue + i * 40) % 360},45%,${30 + Math.round(random() * 40)}%)`;
    return `<circle cx="${Math.round(random() * width)}" cy="${Math.round(random() * height)}" r="${r}" fill="${fill}" fill-opacity="0.6"/>`;
  }).join("");
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <defs>
      <linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
        <stop offset="0" stop-color="hsl(${hue},40%,70%)"/><stop offset="1" stop-color="hsl(${(hue + 60) % 360},35%,25%)"/>
      </linearGradient>
      <filter id="blur"><feGaussianBlur stdDeviation="25"/></filter>
    </defs>
    <rect width="100%" height="100%" fill="url(#g)"/><g filter="url(#blur)">${shapes}</g>
  </svg>`;
}

/** Grey noise made at `cells` px wide and scaled up: texture at one scale. */
async function textureLayer(cells, sigma) {
  const small = { width: cells, height: Math.round((cells * SOURCE.height) / SOURCE.width), channels: 3 };
  const noise = await sharp({ create: { ...small, noise: { type: "gaussian", mean: 128, sigma } } }).png().toBuffer();
  return sharp(noise).greyscale().resize(SOURCE.width, SOURCE.height, { kernel: "cubic" }).toColourspace("srgb").png().toBuffer();
}

/** A JPEG "photo" whose encoded sizes are close to a real one's (≈ 30 KB as an 800 px WebP). */
async function generateJpeg(random) {
  const layers = await Promise.all([textureLayer(40, 60), textureLayer(160, 40), textureLayer(640, 15)]);
  return sharp(Buffer.from(sceneSvg(random)))
    .composite(layers.map((input) => ({ input, blend: "soft-light" })))
    .jpeg({ quality: 85 })
    .toBuffer();
}

/** Store one image's variants as the app's storeImage does; returns { key, width, height }. */
async function storeVariants(jpeg, uploadsDir) {
  const { data, info } = await sharp(jpeg).rotate().resize({ width: WIDTHS.at(-1), withoutEnlargement: true }).raw().toBuffer({ resolveWithObject: true });
  const raw = { raw: { width: info.width, height: info.height, channels: info.channels } };
  const key = randomBytes(12).toString("base64url");
  const variants = [
    ...WIDTHS.map((width) => [width, sharp(data, raw).resize({ width, withoutEnlargement: true })]),
    [THUMBNAIL, sharp(data, raw).resize(THUMBNAIL_SIZE, THUMBNAIL_SIZE, { fit: "cover" })],
  ];
  for (const [variant, resized] of variants) {
    const webp = await resized.clone().webp({ quality: 72 }).toBuffer();
    const jpg = await resized.clone().jpeg({ quality: 78, progressive: true, mozjpeg: true }).toBuffer();
    await writeFile(path.join(uploadsDir, `${key}-${variant}.webp`), webp);
    await writeFile(path.join(uploadsDir, `${key}-${variant}.jpg`), jpg);
  }
  return { key, width: info.width, height: info.height };
}

/** Generate `count` images into `uploadsDir`; returns their keys and sizes. */
export async function makeImagePool(uploadsDir, count, random) {
  await mkdir(uploadsDir, { recursive: true });
  const pool = [];
  for (let i = 0; i < count; i++) pool.push(await storeVariants(await generateJpeg(random), uploadsDir));
  return pool;
}
