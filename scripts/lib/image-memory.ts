/**
 * The worst image of every shape the server accepts, uploaded to a running
 * server one at a time and then several at once, while its resident memory
 * is sampled from /proc: the core of `npm run image-memory` and of its
 * integration test. Linux only (it reads /proc/PID/status).
 */
import { readFileSync, writeFileSync } from "node:fs";
import sharp from "sharp";
import { Client, registerUser } from "./client";
import { makePng, padTo, type PngShape } from "./images";

/** The whole server stays under the container's 256 MB with 16 MB to spare (docs/limits-and-security.md, "What one image may cost"). */
export const RSS_BUDGET_MB = 240;
/** Longest one image may keep the decoder busy, measured from the client (upload included). */
export const HOLD_BUDGET_MS = 8_000;

export type ImageShape = { name: string; type: "image/png" | "image/jpeg"; make: () => Promise<Buffer> };

const png = (name: string, shape: PngShape): ImageShape => ({ name, type: "image/png", make: () => makePng(shape) });

type JpegShape = { width: number; height: number; progressive?: boolean; subsampling?: "4:2:0" | "4:4:4"; grey?: boolean; orientation?: number };
/** A flat-colour JPEG (the smallest file for its pixels) of the shape, made by sharp. */
const jpeg = (name: string, { width, height, progressive = false, subsampling = "4:2:0", grey = false, orientation }: JpegShape): ImageShape => ({
  name,
  type: "image/jpeg",
  make: async () => {
    let image = sharp({ create: { width, height, channels: 3, background: "#7a6248" } });
    if (grey) image = image.toColourspace("b-w");
    if (orientation) image = image.withMetadata({ orientation });
    return image.jpeg({ quality: 90, progressive, chromaSubsampling: subsampling, mozjpeg: false }).toBuffer();
  },
});

/**
 * The largest allowed image of each shape (docs/limits-and-security.md,
 * "What one image may cost"): the most pixels the cost rule lets through, in a file under 2 MB.
 */
export const WORST_IMAGES: ImageShape[] = [
  jpeg("JPEG baseline 4:2:0, 10000×4000", { width: 10_000, height: 4_000 }),
  jpeg("JPEG baseline 4:4:4, 10000×4000, orientation 6", { width: 10_000, height: 4_000, subsampling: "4:4:4", orientation: 6 }),
  jpeg("JPEG greyscale, 10000×4000", { width: 10_000, height: 4_000, grey: true }),
  jpeg("JPEG baseline, 1200×10000 (stored 288×2400)", { width: 1_200, height: 10_000 }),
  jpeg("JPEG progressive 4:2:0, 10000×1320", { width: 10_000, height: 1_320, progressive: true }),
  jpeg("JPEG progressive 4:4:4, 10000×660, orientation 8", { width: 10_000, height: 660, progressive: true, subsampling: "4:4:4", orientation: 8 }),
  png("PNG grey 8-bit, 10000×4000", { width: 10_000, height: 4_000, bitDepth: 8, colourType: 0 }),
  png("PNG grey 16-bit, 10000×4000", { width: 10_000, height: 4_000, bitDepth: 16, colourType: 0 }),
  png("PNG grey + alpha 16-bit, 10000×4000", { width: 10_000, height: 4_000, bitDepth: 16, colourType: 4 }),
  png("PNG RGB 16-bit, 10000×4000", { width: 10_000, height: 4_000, bitDepth: 16, colourType: 2 }),
  png("PNG RGBA 8-bit, 10000×4000", { width: 10_000, height: 4_000, bitDepth: 8, colourType: 6 }),
  png("PNG RGBA 16-bit, 10000×4000", { width: 10_000, height: 4_000, bitDepth: 16, colourType: 6 }),
  png("PNG palette + transparency, 10000×4000", { width: 10_000, height: 4_000, bitDepth: 8, colourType: 3 }),
  png("PNG RGB 8-bit, 10000×2490, orientation 6", { width: 10_000, height: 2_490, bitDepth: 8, colourType: 2, orientation: 6 }),
  png("PNG RGBA 16-bit, 10000×1700, orientation 8", { width: 10_000, height: 1_700, bitDepth: 16, colourType: 6, orientation: 8 }),
  png("PNG RGBA 16-bit, 4000×4390", { width: 4_000, height: 4_390, bitDepth: 16, colourType: 6 }),
  png("PNG RGBA 8-bit, 1200×10000 (stored 288×2400)", { width: 1_200, height: 10_000, bitDepth: 8, colourType: 6 }),
  png("PNG interlaced RGBA 8-bit, 10000×930", { width: 10_000, height: 930, bitDepth: 8, colourType: 6, interlaced: true }),
  png("PNG interlaced grey 16-bit + tRNS, 10000×930", { width: 10_000, height: 930, bitDepth: 16, colourType: 0, interlaced: true, transparent: true }),
  png("PNG interlaced RGBA 16-bit, 10000×320, orientation 5", { width: 10_000, height: 320, bitDepth: 16, colourType: 6, interlaced: true, orientation: 5 }),
];

/** The audit's PNG (finding 1 of issue 27): 10000×4000, 16-bit RGBA, EXIF orientation 8. Now refused by its predicted cost. */
export const AUDIT_PNG: ImageShape = png("the audit's PNG: RGBA 16-bit, 10000×4000, orientation 8", { width: 10_000, height: 4_000, bitDepth: 16, colourType: 6, orientation: 8 });

/** VmRSS (now) and VmHWM (peak since start or since the last reset) of `pid`, in MB, or null once it is gone. */
function memoryOf(pid: number): { rss: number; peak: number } | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = (field: string) => Number(status.match(new RegExp(`^${field}:\\s+(\\d+) kB`, "m"))?.[1] ?? 0);
    return { rss: kb("VmRSS") / 1024, peak: kb("VmHWM") / 1024 };
  } catch {
    return null;
  }
}

/**
 * Run `phase` and return the process's peak RSS during it, in MB: VmHWM
 * after resetting it (clear_refs 5, our own child), and VmRSS polled every
 * 20 ms as well in case the reset is not allowed.
 */
export async function peakRssDuring<T>(pid: number, phase: () => Promise<T>): Promise<{ result: T; peakMb: number; beforeMb: number }> {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, "5");
  } catch {
    // Not allowed here: the polling below still sees the peak, if less sharply.
  }
  const before = memoryOf(pid);
  let polled = before?.rss ?? 0;
  const timer = setInterval(() => (polled = Math.max(polled, memoryOf(pid)?.rss ?? 0)), 20);
  try {
    const result = await phase();
    const after = memoryOf(pid);
    return { result, peakMb: Math.round(Math.max(polled, after?.rss ?? 0, after?.peak ?? 0)), beforeMb: Math.round(before?.rss ?? 0) };
  } finally {
    clearInterval(timer);
  }
}

type Upload = { status: number; ms: number; error?: string };

async function upload(client: Client, image: Buffer, type: string): Promise<Upload> {
  const form = new FormData();
  form.append("image", new Blob([new Uint8Array(image)], { type }), type === "image/png" ? "a.png" : "a.jpg");
  const started = performance.now();
  const response = await client.request("/create-post/image", { method: "POST", body: form, headers: { Origin: client.base } });
  const body = (await response.json().catch(() => ({}))) as { error?: string };
  return { status: response.status, ms: Math.round(performance.now() - started), ...(body.error ? { error: body.error } : {}) };
}

export type ShapeResult = { shape: string; bytes: number; status: number; ms: number; peakMb: number; error?: string };
export type ImageMemoryReport = {
  idleMb: number;
  single: ShapeResult[];
  together: { images: number; statuses: Record<string, number>; slowestMs: number; peakMb: number };
  problems: string[];
};

/**
 * Against a running server (`TRUST_PROXY` on, so each account registers
 * from an address of its own): every shape alone, then `together` uploads
 * at once (the worst shapes, padded to just under 2 MB, two per account as
 * the upload limits allow; those past the upload memory must be told
 * "busy"). The `refused` images (the audit's) must be
 * refused, before decoding. `problems` lists every answer not as expected
 * and every figure over the budgets.
 */
export async function measureImageMemory(
  base: string,
  pid: number,
  { shapes = WORST_IMAGES, refused = [AUDIT_PNG], together = 12, log = (_: string) => {} } = {},
): Promise<ImageMemoryReport> {
  const images = await Promise.all(shapes.map(async (shape) => ({ shape, bytes: await shape.make() })));
  const refusedImages = await Promise.all(refused.map(async (shape) => ({ shape, bytes: await shape.make() })));
  const accounts = await Promise.all(Array.from({ length: Math.max(1, Math.ceil(together / 2)) }, () => registerUser(base)));
  // The server has decoded an image once (sharp loaded) before the baseline is read.
  await upload(accounts[0].client, images[0].bytes, images[0].shape.type);
  const idleMb = Math.round(memoryOf(pid)?.rss ?? 0);
  log(`idle, sharp loaded: ${idleMb} MB`);

  const problems: string[] = [];
  const single: ShapeResult[] = [];
  for (const [i, { shape, bytes }] of [...refusedImages, ...images].entries()) {
    const { client } = accounts[i % accounts.length];
    const { result, peakMb } = await peakRssDuring(pid, () => upload(client, bytes, shape.type));
    single.push({ shape: shape.name, bytes: bytes.length, peakMb, ...result });
    log(`${shape.name} (${Math.round(bytes.length / 1024)} KB): ${result.status} in ${result.ms} ms, peak ${peakMb} MB${result.error ? ` — ${result.error}` : ""}`);
    const expected = i < refusedImages.length ? 400 : 200;
    if (result.status !== expected) problems.push(`${shape.name}: answered ${result.status} ${result.error ?? ""}, expected ${expected}`);
    if (result.ms > HOLD_BUDGET_MS) problems.push(`${shape.name}: took ${result.ms} ms (budget ${HOLD_BUDGET_MS} ms)`);
    if (peakMb > RSS_BUDGET_MB) problems.push(`${shape.name}: peak RSS ${peakMb} MB (budget ${RSS_BUDGET_MB} MB)`);
  }

  // The costliest shapes first, each padded to the largest body allowed, so the waiting bodies weigh most.
  const accepted = single.filter((row) => row.status === 200);
  const worst = [...accepted].sort((a, b) => b.peakMb - a.peakMb).map((row) => images.find((image) => image.shape.name === row.shape)!);
  const batch = Array.from({ length: together }, (_, i) => worst[i % worst.length]);
  const { result: answers, peakMb } = await peakRssDuring(pid, () =>
    Promise.all(batch.map(({ shape, bytes }, i) => upload(accounts[Math.floor(i / 2)].client, padTo(bytes, 2_097_151), shape.type))),
  );
  const statuses: Record<string, number> = {};
  for (const { status } of answers) statuses[status] = (statuses[status] ?? 0) + 1;
  const slowestMs = Math.max(...answers.map((a) => a.ms));
  log(`${together} at once: ${JSON.stringify(statuses)}, slowest ${slowestMs} ms, peak ${peakMb} MB`);
  if (peakMb > RSS_BUDGET_MB) problems.push(`${together} at once: peak RSS ${peakMb} MB (budget ${RSS_BUDGET_MB} MB)`);
  // Past the upload memory (about seven whole uploads) the rest are told "busy" (503 and its message), never anything else.
  if (answers.some((a) => a.status !== 200 && !(a.status === 503 && a.error?.includes("preťažený")))) problems.push(`${together} at once: answered ${JSON.stringify(statuses)}`);
  if ((statuses[200] ?? 0) < Math.min(together, 5)) problems.push(`${together} at once: only ${statuses[200] ?? 0} accepted ${JSON.stringify(statuses)}`);
  return { idleMb, single, together: { images: together, statuses, slowestMs, peakMb }, problems };
}
