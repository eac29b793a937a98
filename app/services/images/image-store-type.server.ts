import type { Readable } from "node:stream";

/*
 * The image store's shape, apart from its implementations, so that the
 * store (image-store.server.ts), the bucket it may pick
 * (image-bucket.server.ts) and the memory in front of the folder
 * (recent-images.server.ts) all name it without importing each other.
 */

/** A stored file, opened to be sent: a stream, or the bytes themselves when held in memory (recent-images.server.ts). */
export type ImageFile = { body: Readable | Buffer; size: number; modified: Date; etag: string };

/**
 * Where the image files are: a folder (UPLOADS_DIR, the default) or
 * S3-compatible object storage (IMAGE_STORE_URL). Files are named by the
 * image store (VARIANT_FILE) and written once, whole; they never change.
 * Each method refuses any other name (ForeignImageNameError).
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
  /** Throws when files cannot be written now (a folder that is not writable, a bucket out of reach): for /healthz. */
  check(): Promise<void>;
};
