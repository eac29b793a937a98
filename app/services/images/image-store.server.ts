import { constants, createReadStream, type Stats } from "node:fs";
import { access, lstat, mkdir, open, rename, rm, writeFile, type FileHandle } from "node:fs/promises";
import path from "node:path";
import { VARIANT_FILE } from "~/lib/images";
import { env } from "~/config/env.server";
import type { ImageStore } from "./image-store-type.server";
import { holdingRecentFiles, type HeldImage, type HoldingStore } from "./recent-images.server";

/** A name no store may touch: not a variant file's name (VARIANT_FILE). A bug, or data from elsewhere. */
export class ForeignImageNameError extends Error {}

/**
 * Every store checks each name it is given, whatever the caller checked
 * before: only the names the site writes (a key and a known variant), so no
 * path or object name can be made from a crafted key (`../x`, `/etc/…`).
 */
function checkImageName(name: string): string {
  if (!VARIANT_FILE.test(name)) throw new ForeignImageNameError(`Not an image file name of this site: ${JSON.stringify(name.slice(0, 80))}`);
  return name;
}

/** The file of a name, checked twice: the name's shape, and that it resolves to a file right inside the folder. */
function fileIn(folder: string, name: string): string {
  const file = path.resolve(folder, checkImageName(name));
  if (path.dirname(file) !== path.resolve(folder)) throw new ForeignImageNameError(`Outside the image folder: ${JSON.stringify(name)}`);
  return file;
}

/** A symbolic link is not followed (ELOOP) and counts as missing, as does anything but a regular file. */
const missing = (error: unknown) => ["ENOENT", "ELOOP"].includes((error as NodeJS.ErrnoException).code ?? "");

/**
 * Open a regular file for reading, never through a symbolic link: a link
 * (planted, or brought by a backup) to /proc/self/environ or a secret must
 * not be served or copied. O_NONBLOCK: opening a FIFO does not wait for a writer.
 */
async function openRegularFile(file: string): Promise<{ handle: FileHandle; stat: Stats } | null> {
  let handle: FileHandle;
  try {
    handle = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    if (missing(error)) return null;
    throw error;
  }
  try {
    const stat = await handle.stat();
    if (stat.isFile()) return { handle, stat };
  } catch (error) {
    await handle.close();
    throw error;
  }
  await handle.close();
  return null;
}

/**
 * The images in a folder of the volume. Only variant file names, right in
 * the folder; links and anything but regular files are missing to every
 * reader, and writes replace them rather than write through them.
 */
export function folderStore(folder: string): ImageStore {
  return {
    has: async (name) => lstat(fileIn(folder, name)).then((stat) => stat.isFile(), (error) => (missing(error) ? false : Promise.reject(error))),
    async read(name) {
      const file = await openRegularFile(fileIn(folder, name));
      if (!file) return null;
      try {
        return await file.handle.readFile();
      } finally {
        await file.handle.close();
      }
    },
    async open(name) {
      const file = await openRegularFile(fileIn(folder, name));
      if (!file) return null;
      const { handle, stat } = file;
      // What express's sendFile sent: a weak validator from size and time.
      const etag = `W/"${stat.size.toString(16)}-${stat.mtime.getTime().toString(16)}"`;
      return { body: createReadStream("", { fd: handle }), size: stat.size, modified: stat.mtime, etag };
    },
    async write(name, bytes) {
      const target = fileIn(folder, name);
      await mkdir(folder, { recursive: true });
      // Write then rename, so a reader never sees half a file; a crash leaves only `.tmp` (removed with the
      // image's loose mark at start-up). A leftover is removed first (rm removes a link, not what it points
      // at), and "wx" creates a new file or fails: never writes through a link. rename replaces a link itself.
      const temporary = `${target}.tmp`;
      await rm(temporary, { force: true });
      await writeFile(temporary, bytes, { flag: "wx" });
      try {
        await rename(temporary, target);
      } catch (error) {
        await rm(temporary, { force: true });
        throw error;
      }
    },
    async remove(name) {
      const file = fileIn(folder, name);
      await rm(file, { force: true });
      await rm(`${file}.tmp`, { force: true });
    },
    async check() {
      await mkdir(folder, { recursive: true });
      await access(folder, constants.W_OK);
    },
  };
}

/**
 * A bucket store that refuses names not of the site's shape, as the folder
 * store does: `<prefix>../x` could reach past the prefix. (Here rather than
 * in the bucket's module, which imports nothing of the app: it is loaded
 * apart, only when images are in a bucket.)
 */
export function checkingNames(store: ImageStore): ImageStore {
  return {
    has: async (name) => store.has(checkImageName(name)),
    read: async (name) => store.read(checkImageName(name)),
    open: async (name) => store.open(checkImageName(name)),
    write: async (name, bytes) => store.write(checkImageName(name), bytes),
    remove: async (name) => store.remove(checkImageName(name)),
    check: () => store.check(),
  };
}

let store: Promise<ImageStore> | undefined;
let folderHolding: HoldingStore | undefined;

/**
 * The site's image store. The S3 client is loaded only when images are in
 * a bucket: its code is some 20 MB of memory for a site that has no use for it.
 * The folder's recently sent files are held in memory (a bucket's are not).
 */
export function imageStore(): Promise<ImageStore> {
  const bucket = env.imageBucket;
  store ??= bucket
    ? import("./image-bucket.server").then(({ bucketStore }) => checkingNames(bucketStore(bucket)))
    : Promise.resolve((folderHolding = holdingRecentFiles(folderStore(env.uploadsDir), env.uploadsDir)));
  return store;
}

/** The folder's file of this name if it is held in memory now, at once (no promise); undefined otherwise, and always for a bucket. */
export function heldImageFile(name: string): HeldImage | undefined {
  return folderHolding?.held(name);
}
