import { watch, type FSWatcher } from "node:fs";
import { buffer } from "node:stream/consumers";
import { VARIANT_FILE } from "~/lib/images";
import type { ImageStore } from "./image-store-type.server";

/**
 * Under load, sending an image from the folder cost mostly the thread
 * pool's round trips (open, stat, two reads, close) and the read stream's
 * 64 KB buffers (a CPU profile under load; docs/performance.md). So the files most
 * recently sent are held in memory, 8 MB in all at most: a page's
 * images are asked for again and again.
 *
 * A file never changes under its name (written once, whole). Yet a file
 * renamed or removed behind the site's back (an operator, a restore) is
 * noticed at once: the folder is watched (inotify), and nothing is held
 * while it cannot be. A copy is kept only 10 s all the same, so a folder
 * failing is noticed soon. Whether an image may be sent at all (its key in
 * use) is asked for every request, before this (appForServer.openImage).
 */
export const RECENT_IMAGE_LIMITS = { maxBytes: 8 * 1024 * 1024, maxFileBytes: 512 * 1024, heldMs: 10_000 };

/** A file held in memory: the same object for as long as it is held (the server keeps its prepared headers by it). */
export type HeldImage = { readonly key: string; readonly bytes: Buffer; readonly modified: Date; readonly etag: string };
type Held = HeldImage & { until: number };

/** An image store whose files held in memory can be had at once, without a promise: `held` (undefined when not held). */
export type HoldingStore = ImageStore & { held(name: string): HeldImage | undefined };

/** `store` (of the files in `folder`), its `open` answering recently sent files from memory (their body a Buffer). */
export function holdingRecentFiles(store: ImageStore, folder: string, limits = RECENT_IMAGE_LIMITS): HoldingStore {
  // In the order of use, least recent first: the first to go when room is needed.
  const held = new Map<string, Held>();
  let total = 0;
  let watcher: FSWatcher | undefined;
  const forgetAll = () => {
    held.clear();
    total = 0;
  };
  /** Whether changes to the folder are seen: watched from the first file sent (the folder may not exist before). */
  const watching = () => {
    if (watcher) return true;
    try {
      watcher = watch(folder, { persistent: false }, (_event, name) => (name ? drop(String(name)) : forgetAll()));
    } catch {
      return false;
    }
    watcher.on("error", () => {
      watcher?.close();
      watcher = undefined;
      forgetAll();
    });
    return true;
  };
  const drop = (name: string) => {
    const copy = held.get(name);
    if (!copy) return;
    total -= copy.bytes.length;
    held.delete(name);
  };
  const hold = (name: string, copy: Held) => {
    drop(name);
    for (const oldest of held.keys()) {
      if (total + copy.bytes.length <= limits.maxBytes) break;
      drop(oldest);
    }
    held.set(name, copy);
    total += copy.bytes.length;
  };
  const heldNow = (name: string): Held | undefined => {
    const copy = held.get(name);
    if (!copy) return undefined;
    if (copy.until <= performance.now()) {
      drop(name);
      return undefined;
    }
    held.delete(name);
    held.set(name, copy);
    return copy;
  };
  return {
    ...store,
    held: heldNow,
    async open(name) {
      const copy = heldNow(name);
      if (copy) return { body: copy.bytes, size: copy.bytes.length, modified: copy.modified, etag: copy.etag };
      const file = await store.open(name);
      if (!file || Buffer.isBuffer(file.body) || file.size > limits.maxFileBytes || !watching()) return file;
      const bytes = await buffer(file.body);
      hold(name, { key: VARIANT_FILE.exec(name)![1], bytes, modified: file.modified, etag: file.etag, until: performance.now() + limits.heldMs });
      return { ...file, body: bytes, size: bytes.length };
    },
    async write(name, bytes) {
      drop(name);
      await store.write(name, bytes);
    },
    async remove(name) {
      drop(name);
      await store.remove(name);
    },
  };
}
