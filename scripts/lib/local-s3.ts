import { DeleteObjectCommand, GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import crypto from "node:crypto";
import type Stream from "node:stream";
import S3rver from "s3rver";

type Listing = { objects: { key: string }[]; commonPrefixes: string[]; isTruncated: boolean };
type ListingStore = { listObjects(bucket: string, options: { prefix?: string; delimiter?: string }): Promise<Listing> };

/**
 * s3rver 3.7.1 (the last) lists a common prefix only when an object lies
 * directly below it, where S3 lists it for objects at any depth. Litestream
 * lists its generations that way (`<path>/generations/<id>/wal/…`), so the
 * listing is made here from all keys under the prefix, as S3 makes it.
 */
function listCommonPrefixesAtAnyDepth(s3: S3rver) {
  const store = (s3 as unknown as { store: ListingStore }).store;
  const list = store.listObjects.bind(store);
  store.listObjects = async (bucket, { delimiter, ...options }) => {
    const all = await list(bucket, options);
    if (!delimiter) return all;
    const prefix = options.prefix ?? "";
    const below = (key: string) => key.indexOf(delimiter, prefix.length);
    const commonPrefixes = new Set(all.objects.filter((o) => below(o.key) !== -1).map((o) => o.key.slice(0, below(o.key) + 1)));
    return { ...all, objects: all.objects.filter((o) => below(o.key) === -1), commonPrefixes: [...commonPrefixes].sort() };
  };
}

/**
 * s3rver's continuation tokens (a listing of over 1,000 keys, a page at a
 * time) are enciphered with single DES, which OpenSSL 3 leaves out, so the
 * second page of any listing fails with an internal error. Triple DES with
 * the one key thrice is the same cipher, and OpenSSL 3 has it: s3rver gets
 * that instead (nothing else here asks for DES).
 */
let listingsPaged = false;
function letS3rverPageListings() {
  if (listingsPaged) return;
  listingsPaged = true;
  const tripled = (key: crypto.CipherKey) => Buffer.concat([key as Buffer, key as Buffer, key as Buffer]);
  const { createCipheriv, createDecipheriv } = crypto;
  const singleDes = (algorithm: string) => algorithm.toLowerCase() === "des";
  Object.assign(crypto, {
    createCipheriv: (algorithm: string, key: crypto.CipherKey, iv: crypto.BinaryLike | null, options?: Stream.TransformOptions) =>
      singleDes(algorithm) ? createCipheriv("des-ede3-cbc", tripled(key), iv, options) : createCipheriv(algorithm, key, iv, options),
    createDecipheriv: (algorithm: string, key: crypto.CipherKey, iv: crypto.BinaryLike | null, options?: Stream.TransformOptions) =>
      singleDes(algorithm) ? createDecipheriv("des-ede3-cbc", tripled(key), iv, options) : createDecipheriv(algorithm, key, iv, options),
  });
}

export type LocalS3 = {
  endpoint: string;
  /** s3rver's own credentials. */
  accessKeyId: string;
  secretAccessKey: string;
  /** The real SDK, pointed at it. */
  client: S3Client;
  /** Every key in a bucket under a prefix. */
  keys(bucket: string, prefix?: string): Promise<string[]>;
  get(bucket: string, key: string): Promise<Buffer | null>;
  put(bucket: string, key: string, body: Buffer | string): Promise<void>;
  remove(bucket: string, key: string): Promise<void>;
  close(): Promise<void>;
};

/** A local S3-compatible server (s3rver, in this process) with the given buckets, its files under `folder`; `port` to start one again where it was. */
export async function startLocalS3(folder: string, buckets: string[], { port: asked = 0 } = {}): Promise<LocalS3> {
  const s3 = new S3rver({ address: "127.0.0.1", port: asked, silent: true, directory: folder, configureBuckets: buckets.map((name) => ({ name, configs: [] })) });
  listCommonPrefixesAtAnyDepth(s3);
  letS3rverPageListings();
  const { port } = await s3.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const credentials = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };
  const client = new S3Client({ region: "us-east-1", endpoint, forcePathStyle: true, credentials });
  return {
    endpoint,
    ...credentials,
    client,
    async keys(bucket, prefix = "") {
      const keys: string[] = [];
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken }));
        keys.push(...(page.Contents ?? []).map((object) => object.Key!));
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
      return keys.sort();
    },
    async get(bucket, key) {
      try {
        const object = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
        return Buffer.from(await object.Body!.transformToByteArray());
      } catch (error) {
        if ((error as Error).name === "NoSuchKey") return null;
        throw error;
      }
    },
    async put(bucket, key, body) {
      await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body }));
    },
    async remove(bucket, key) {
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
    },
    async close() {
      client.destroy();
      await s3.close();
    },
  };
}

/** The settings that keep a site's images in `bucket` under `folder` of a local S3 server. */
export function imageStoreEnv(s3: LocalS3, bucket: string, folder: string): Record<string, string> {
  return {
    IMAGE_STORE_URL: `s3://${bucket}/${folder}`,
    IMAGE_STORE_ENDPOINT: s3.endpoint,
    IMAGE_STORE_ACCESS_KEY_ID: s3.accessKeyId,
    IMAGE_STORE_SECRET_ACCESS_KEY: s3.secretAccessKey,
  };
}
