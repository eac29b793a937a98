import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client, S3ServiceException } from "@aws-sdk/client-s3";
import type { Readable } from "node:stream";
import type { ImageBucket } from "~/config/env.server";
import type { ImageStore } from "./image-store.server";

const CONTENT_TYPES: Record<string, string> = { webp: "image/webp", jpg: "image/jpeg" };

const notFound = (error: unknown) => error instanceof S3ServiceException && (error.name === "NoSuchKey" || error.$metadata.httpStatusCode === 404);

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
    // minutes: a reader waits no longer for a picture, and stalled requests do not pile up.
    maxAttempts: 2,
    requestHandler: { connectionTimeout: 2_000, requestTimeout: 5_000, throwOnRequestTimeout: true },
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
    where: `s3://${bucket}/${prefix}${endpoint ? ` at ${endpoint}` : ""}`,
    async *names() {
      let ContinuationToken: string | undefined;
      do {
        // Only this folder's files (the delimiter leaves out those of folders below it).
        const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, Delimiter: "/", ContinuationToken }));
        for (const { Key } of page.Contents ?? []) yield Key!.slice(prefix.length);
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
    },
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
      return { body: object.Body as Readable, size: object.ContentLength!, modified: object.LastModified!, etag: object.ETag! };
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
  };
}
