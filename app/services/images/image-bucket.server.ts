import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client, S3ServiceException } from "@aws-sdk/client-s3";
import { Readable } from "node:stream";
import type { ImageBucket } from "~/config/env.server";
import type { ImageStore } from "./image-store-type.server";

const CONTENT_TYPES: Record<string, string> = { webp: "image/webp", jpg: "image/jpeg" };

/** No such object (a missing bucket is an error, not a missing image; HEAD answers have no body to tell). */
const notFound = (error: unknown) => error instanceof S3ServiceException && (error.name === "NoSuchKey" || error.name === "NotFound");

/**
 * An object up to this size (every variant of an ordinary photo) is read
 * whole before it is sent, so the storage's connection is free at once
 * however slowly the reader takes it; a larger one (a noise image can encode
 * to several MB) is passed on as it comes, within the socket timeout.
 */
const READ_WHOLE_BYTES = 1024 * 1024;

/**
 * The images in S3-compatible object storage, each file an object named
 * `<prefix><file name>`. Objects carry their type and cache lifetime, so a
 * public bucket or a CDN in front of it serves them as the site does.
 */
export function bucketStore({ bucket, prefix, endpoint, region, accessKeyId, secretAccessKey }: ImageBucket): ImageStore {
  const client = new S3Client({
    region,
    endpoint,
    // Services other than AWS (MinIO, s3rver) take the bucket in the path, not in the host name.
    forcePathStyle: Boolean(endpoint),
    credentials: { accessKeyId, secretAccessKey },
    // Checksums only where S3 requires them: several S3-compatible services refuse the newer default headers.
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
    // A storage that does not answer fails the request within about ten seconds (two tries of five), not
    // minutes; one that goes quiet in the middle of an object (or whose reader stops reading) is cut off
    // after 10 s: stalled requests do not hold the connections for good.
    maxAttempts: 2,
    requestHandler: {
      connectionTimeout: 2_000,
      requestTimeout: 5_000,
      throwOnRequestTimeout: true,
      socketTimeout: 10_000,
      httpAgent: { maxSockets: 128 },
      httpsAgent: { maxSockets: 128 },
    },
  });

  const get = async (name: string) => {
    try {
      return await client.send(new GetObjectCommand({ Bucket: bucket, Key: prefix + name }));
    } catch (error) {
      if (notFound(error)) return null;
      throw error;
    }
  };

  return {
    async has(name) {
      try {
        await client.send(new HeadObjectCommand({ Bucket: bucket, Key: prefix + name }));
        return true;
      } catch (error) {
        if (notFound(error)) return false;
        throw error;
      }
    },
    async read(name) {
      const object = await get(name);
      return object ? Buffer.from(await object.Body!.transformToByteArray()) : null;
    },
    async open(name) {
      const object = await get(name);
      if (!object) return null;
      const size = object.ContentLength ?? 0;
      const body = size <= READ_WHOLE_BYTES ? Readable.from([Buffer.from(await object.Body!.transformToByteArray())]) : (object.Body as Readable);
      return { body, size, modified: object.LastModified ?? new Date(0), etag: object.ETag ?? "" };
    },
    async write(name, bytes) {
      const type = CONTENT_TYPES[name.slice(name.lastIndexOf(".") + 1)];
      await client.send(
        new PutObjectCommand({ Bucket: bucket, Key: prefix + name, Body: bytes, ContentType: type, CacheControl: "public, max-age=31536000, immutable" }),
      );
    },
    async remove(name) {
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: prefix + name }));
    },
    // An object the site never writes: "not found" is the bucket answering (asking needs only the read permission the site has).
    async check() {
      await this.has("healthz");
    },
  };
}
