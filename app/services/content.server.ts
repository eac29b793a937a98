import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import { BR_TAG } from "~/lib/rules";

// The spec's allow-list. DOMPurify needs jsdom on the server, which is slow
// and takes over 100 MB: content is sanitised once, when it is written, and
// stored already safe; and jsdom lives in a worker thread that is started
// when something is written and ends after a minute without work, so a
// server that only serves readers never holds it.
const PURIFY_CONFIG = {
  ALLOWED_TAGS: ["b", "i", "em", "strong", "a", "p", "br"],
  ALLOWED_ATTR: [],
  ALLOW_DATA_ATTR: false,
  KEEP_CONTENT: true,
};
const IDLE_MS = 60_000;

const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const DOMPurify = require(workerData.dompurify);
parentPort.on("message", ({ id, html }) => {
  try {
    parentPort.postMessage({ id, clean: DOMPurify.sanitize(html, workerData.config) });
  } catch (error) {
    parentPort.postMessage({ id, error: String(error) });
  }
});`;

type Pending = { resolve: (clean: string) => void; reject: (error: Error) => void };
let worker: Worker | null = null;
let idleTimer: NodeJS.Timeout | undefined;
let nextId = 0;
const pending = new Map<number, Pending>();

function sanitizer(): Worker {
  if (worker) return worker;
  const started = new Worker(WORKER_SOURCE, {
    eval: true,
    // jsdom needs more room than the main thread's small heap.
    resourceLimits: { maxOldGenerationSizeMb: 256 },
    workerData: { dompurify: createRequire(import.meta.url).resolve("isomorphic-dompurify"), config: PURIFY_CONFIG },
  });
  started.on("message", ({ id, clean, error }: { id: number; clean?: string; error?: string }) => {
    const request = pending.get(id);
    pending.delete(id);
    // Idle, the worker must not keep the process alive; busy, it must.
    if (pending.size === 0) started.unref();
    if (error !== undefined) request?.reject(new Error(`sanitiser: ${error}`));
    else request?.resolve(clean!);
  });
  started.on("exit", () => {
    if (worker === started) worker = null;
    for (const request of pending.values()) request.reject(new Error("sanitiser stopped"));
    pending.clear();
  });
  worker = started;
  return started;
}

/** Sanitise HTML to the allowed tags, no attributes, line breaks as `<br/>`. */
export function sanitizeContent(html: string): Promise<string> {
  clearTimeout(idleTimer);
  const id = nextId++;
  const result = new Promise<string>((resolve, reject) => pending.set(id, { resolve, reject }));
  const running = sanitizer();
  running.ref();
  running.postMessage({ id, html });
  idleTimer = setTimeout(() => void worker?.terminate(), IDLE_MS).unref();
  return result.then((clean) => clean.replace(BR_TAG, "<br/>"));
}

const NEWLINE = /\r\n|\r|\n/g;

/** What the author typed (newlines and a little markup) as stored content. */
export function toStoredContent(text: string): Promise<string> {
  return sanitizeContent(text.trim().replace(NEWLINE, "<br/>"));
}

const TAG = /<[^>]*>/g;
const BLOCK_BREAK = /<br\s*\/?>|<\/p>/gi;
const ENTITY = /&(amp|lt|gt|quot|#39|nbsp);/g;
const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'", nbsp: " " };

/** Plain text of stored (sanitised) content. */
export function contentToText(storedHtml: string): string {
  return storedHtml
    .replace(BLOCK_BREAK, " ")
    .replace(TAG, "")
    .replace(ENTITY, (_, name: string) => ENTITIES[name])
    .replace(/\s+/g, " ")
    .trim();
}

export const EXCERPT_LENGTH = 160;

/** A plain-text excerpt cut on a word boundary, with an ellipsis when cut. */
export function excerptOf(storedHtml: string, maxLength = EXCERPT_LENGTH): string {
  const text = contentToText(storedHtml);
  if (text.length <= maxLength) return text;
  const cut = text.slice(0, maxLength);
  const lastSpace = cut.lastIndexOf(" ");
  const words = lastSpace > maxLength / 2 ? cut.slice(0, lastSpace) : cut;
  return `${words.replace(/[\s,.;:–-]+$/, "")}…`;
}
