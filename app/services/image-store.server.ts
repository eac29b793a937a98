import { createReadStream } from "node:fs";
import { access, mkdir, open, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { env } from "~/config/env.server";

/** A stored file, opened to be sent. */
export type ImageFile = { body: Readable; size: number; modified: Date; etag: string };

/**
 * Where the image files are: a folder (UPLOADS_DIR, the default) or
 * S3-compatible object storage (IMAGE_STORE_URL). Files are named by the
 * image store (VARIANT_FILE) and written once, whole; they never change.
 */
export type ImageStore = {
  has(name: string): Promise<boolean>;
  /** The file's bytes, or null when there is no such file. */
  read(name: string): Promise<Buffer | null>;
  open(name: string): Promise<ImageFile | null>;
  /** Store a file whole: a reader never sees part of it. */
  write(name: string, bytes: Buffer): Promise<void>;
  /** Remove a file (and any half-written copy of it); no error when there is none. */
  remove(name: string): Promise<void>;
};

const missing = (error: unknown) => (error as NodeJS.ErrnoException).code === "ENOENT";

/** The images in a folder of the volume. */
export function folderStore(folder: string): ImageStore {
  return {
    has: (name) => access(path.join(folder, name)).then(() => true, () => false),
    read: (name) => readFile(path.join(folder, name)).catch((error) => (missing(error) ? null : Promise.reject(error))),
    async open(name) {
      let handle;
      try {
        handle = await open(path.join(folder, name));
      } catch (error) {
        if (missing(error)) return null;
        throw error;
      }
      const stat = await handle.stat().catch(async (error) => {
        await handle.close();
        throw error;
      });
      // What express's sendFile sent: a weak validator from size and time.
      const etag = `W/"${stat.size.toString(16)}-${stat.mtime.getTime().toString(16)}"`;
      return { body: createReadStream("", { fd: handle }), size: stat.size, modified: stat.mtime, etag };
    },
    async write(name, bytes) {
      await mkdir(folder, { recursive: true });
      const target = path.join(folder, name);
      // Write then rename, so a reader never sees half a file; a crash leaves only `.tmp` (removed at start-up).
      await writeFile(`${target}.tmp`, bytes);
      try {
        await rename(`${target}.tmp`, target);
      } catch (error) {
        await rm(`${target}.tmp`, { force: true });
        throw error;
      }
    },
    async remove(name) {
      await rm(path.join(folder, name), { force: true });
      await rm(path.join(folder, `${name}.tmp`), { force: true });
    },
  };
}

let store: Promise<ImageStore> | undefined;

/**
 * The site's image store. The S3 client is loaded only when images are in
 * a bucket: its code is some 20 MB of memory for a site that has no use for it.
 */
export function imageStore(): Promise<ImageStore> {
  const bucket = env.imageBucket;
  store ??= bucket ? import("./image-bucket.server").then(({ bucketStore }) => bucketStore(bucket)) : Promise.resolve(folderStore(env.uploadsDir));
  return store;
}
