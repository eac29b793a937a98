import { randomBytes } from "node:crypto";
import { closeSync, fchmodSync, fsyncSync, linkSync, lstatSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from "node:fs";
import path from "node:path";
import type { SocialLink } from "~/lib/site";

/** Every setting the server reads, validated once at start-up. */
export type Env = {
  production: boolean;
  databasePath: string;
  uploadsDir: string;
  dataDir: string;
  sessionSecret: string;
  publicUrl: string;
  secureCookies: boolean;
  port: number;
  host: string;
  demoContent: boolean;
  trustProxy: boolean;
  resendApiKey: string | undefined;
  resendBaseUrl: string | undefined;
  mailFrom: string;
  /** The mailbox of the `mailto:` in subscriptions' List-Unsubscribe header, whose mails the operator reads (docs/subscriptions.md). */
  listUnsubscribeMailto: string;
  /** The signing secret of Resend's webhook (`whsec_…`): bounces and complaints end subscriptions (docs/subscriptions.md). Unset: no webhook. */
  resendWebhookSecret: string | undefined;
  /** The site's profiles, shown in the header; none unless configured. */
  socialLinks: SocialLink[];
  /** Shown in the footer when set. */
  contactEmail: string | undefined;
  /** Litestream replicates the database and does its checkpoints (scripts/serve.sh says so). */
  litestreamReplicating: boolean;
  /** A replica (docs/operations.md, "Past one box"): serves a copy of the database and writes nothing to it. */
  readOnly: boolean;
  /** Images in S3-compatible object storage instead of `uploadsDir`, when set. */
  imageBucket: ImageBucket | undefined;
  /** Below this much free space (bytes) on the data or uploads volume, uploads are refused and /healthz fails. */
  minFreeSpace: number;
  /** bcrypt's cost for new password hashes (11: about 130 ms of a core each). */
  passwordHashCost: number;
  /** How long counted reads wait in memory before one batch writes them (docs/reading.md#reads): a crash loses at most this much. */
  readsFlushMs: number;
};

/** Where in S3-compatible object storage the images are kept, and how to reach it. */
export type ImageBucket = {
  bucket: string;
  /** Prepended to every file name: "" or ends in "/". */
  prefix: string;
  /** An S3-compatible service (MinIO, R2, …); undefined for AWS S3. */
  endpoint: string | undefined;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
};

const SOCIAL_SETTINGS = [
  ["SOCIAL_FACEBOOK_URL", "Facebook"],
  ["SOCIAL_INSTAGRAM_URL", "Instagram"],
  ["SOCIAL_YOUTUBE_URL", "YouTube"],
] as const;

/** Where the session secret is kept, in the data folder, when SESSION_SECRET is not set. */
export const SESSION_SECRET_FILE = "session-secret";
const SESSION_SECRET_MIN_LENGTH = 32;
const DEFAULT_PASSWORD_HASH_COST = 11;

/** A configuration mistake: its message says what to fix (the server prints only that). */
export class EnvError extends Error {
  name = "EnvError";
}

/**
 * The settings in `source`, checked. Without SESSION_SECRET the secret comes
 * from `storedSecret(dataDir)` (by default the data folder's session-secret
 * file), asked only once everything else is valid.
 */
export function readEnv(
  source: Record<string, string | undefined> = process.env,
  storedSecret: (dataDir: string) => string = storedSessionSecret,
): Env {
  const problems: string[] = [];
  const production = source.NODE_ENV === "production";

  const port = Number(source.PORT ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    problems.push(`PORT must be a port number (0–65535), got "${source.PORT}".`);
  }
  const host = source.HOST || "127.0.0.1";

  const databasePath = path.resolve(source.DATABASE_PATH || "./data/dejiny.db");
  const uploadsDir = path.resolve(source.UPLOADS_DIR || "./uploads");

  let publicUrl = source.PUBLIC_URL || `http://localhost:${port}`;
  try {
    const url = new URL(publicUrl);
    if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error();
    publicUrl = url.origin;
  } catch {
    problems.push(`PUBLIC_URL must be an http(s) URL such as https://dejiny.example, got "${source.PUBLIC_URL}".`);
  }

  const explicitSecret = source.SESSION_SECRET || undefined;
  if (explicitSecret && explicitSecret.length < SESSION_SECRET_MIN_LENGTH) {
    problems.push(`SESSION_SECRET must be at least ${SESSION_SECRET_MIN_LENGTH} characters (e.g. the output of \`openssl rand -hex 32\`), or leave it unset.`);
  }

  const demo = (source.DEMO_CONTENT ?? "on").toLowerCase();
  if (!["on", "off"].includes(demo)) problems.push(`DEMO_CONTENT must be "on" or "off", got "${source.DEMO_CONTENT}".`);

  const resendApiKey = source.RESEND_API_KEY || undefined;
  const mailFrom = source.MAIL_FROM || "Dejiny <noreply@dejiny.local>";
  if (resendApiKey && !source.MAIL_FROM) problems.push("MAIL_FROM is required when RESEND_API_KEY is set (a sender on your verified Resend domain).");
  const listUnsubscribeMailto = source.LIST_UNSUBSCRIBE_MAILTO || (/<([^<>]+)>\s*$/.exec(mailFrom)?.[1] ?? mailFrom).trim();
  if (!/^[^\s@<>,?]+@[^\s@<>,?]+$/.test(listUnsubscribeMailto)) problems.push(`LIST_UNSUBSCRIBE_MAILTO must be an e-mail address (a mailbox the operator reads), got "${listUnsubscribeMailto}".`);
  const resendWebhookSecret = source.RESEND_WEBHOOK_SECRET || undefined;
  // Svix's form: "whsec_" and the key in base64.
  if (resendWebhookSecret && !/^whsec_(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{4})$/.test(resendWebhookSecret)) {
    problems.push("RESEND_WEBHOOK_SECRET must be the webhook's signing secret as Resend shows it (whsec_ and a base64 key), or leave it unset.");
  }

  const socialLinks: SocialLink[] = [];
  for (const [name, network] of SOCIAL_SETTINGS) {
    const value = source[name];
    if (!value) continue;
    if (/^https?:\/\/[^\s/]+\.[^\s]*$/i.test(value)) socialLinks.push({ network, href: value });
    else problems.push(`${name} must be the address of the site's ${network} page (https://…), got "${value}".`);
  }
  const contactEmail = source.CONTACT_EMAIL || undefined;
  if (contactEmail && !/^[^\s@<>"]+@[^\s@<>"]+\.[^\s@<>"]+$/.test(contactEmail)) problems.push(`CONTACT_EMAIL must be an e-mail address, got "${contactEmail}".`);

  const imageBucket = readImageBucket(source, problems);
  const readOnly = (source.READ_ONLY || "off").toLowerCase();
  if (!["on", "off", "true", "false", "1", "0"].includes(readOnly)) problems.push(`READ_ONLY must be "on" or "off" (or true/false, 1/0), got "${source.READ_ONLY}".`);

  const minFreeMb = source.MIN_FREE_SPACE_MB ?? "64";
  if (!/^\d{1,6}$/.test(minFreeMb)) problems.push(`MIN_FREE_SPACE_MB must be a whole number of megabytes, got "${minFreeMb}".`);

  // Below 11 only for test servers (a hash of cost 4 takes about 1 ms): docs/limits-and-security.md.
  const hashCost = source.PASSWORD_HASH_COST || String(DEFAULT_PASSWORD_HASH_COST);
  if (!/^\d{1,2}$/.test(hashCost) || Number(hashCost) < 4 || Number(hashCost) > 14) problems.push(`PASSWORD_HASH_COST must be a whole number from 4 to 14 (bcrypt's cost; keep ${DEFAULT_PASSWORD_HASH_COST} on a real site), got "${hashCost}".`);

  // Counted reads are written in one batch at most this often (and when the server stops).
  const readsFlush = source.READS_FLUSH_SECONDS || "30";
  if (!/^\d{1,4}$/.test(readsFlush) || Number(readsFlush) < 1 || Number(readsFlush) > 3600) problems.push(`READS_FLUSH_SECONDS must be a whole number of seconds from 1 to 3600, got "${readsFlush}".`);

  if (problems.length > 0) {
    throw new EnvError(`Invalid configuration:\n  - ${problems.join("\n  - ")}`);
  }

  const dataDir = path.dirname(databasePath);
  return {
    production,
    databasePath,
    uploadsDir,
    dataDir,
    sessionSecret: explicitSecret ?? storedSecret(dataDir),
    publicUrl,
    secureCookies: publicUrl.startsWith("https:"),
    port,
    host,
    demoContent: demo === "on",
    trustProxy: ["1", "true", "on", "yes"].includes((source.TRUST_PROXY ?? "").toLowerCase()),
    resendApiKey,
    resendBaseUrl: source.RESEND_BASE_URL || undefined,
    mailFrom,
    listUnsubscribeMailto,
    resendWebhookSecret,
    socialLinks,
    contactEmail,
    litestreamReplicating: source.LITESTREAM_REPLICATING === "1",
    readOnly: ["on", "true", "1"].includes(readOnly),
    imageBucket,
    minFreeSpace: Number(minFreeMb) * 1024 * 1024,
    passwordHashCost: Number(hashCost),
    readsFlushMs: Number(readsFlush) * 1000,
  };
}

/** IMAGE_STORE_URL=s3://bucket/prefix and its companions; undefined (the folder) when unset. */
function readImageBucket(source: Record<string, string | undefined>, problems: string[]): ImageBucket | undefined {
  const url = source.IMAGE_STORE_URL;
  if (!url) return undefined;
  const match = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:\/(.*))?$/.exec(url);
  if (!match) problems.push(`IMAGE_STORE_URL must be s3://bucket or s3://bucket/folder, got "${url}".`);
  const accessKeyId = source.IMAGE_STORE_ACCESS_KEY_ID ?? "";
  const secretAccessKey = source.IMAGE_STORE_SECRET_ACCESS_KEY ?? "";
  if (!accessKeyId || !secretAccessKey) problems.push("IMAGE_STORE_URL is set: set IMAGE_STORE_ACCESS_KEY_ID and IMAGE_STORE_SECRET_ACCESS_KEY too.");
  const endpoint = source.IMAGE_STORE_ENDPOINT || undefined;
  if (endpoint && !/^https?:\/\/[^\s/]+\/?$/.test(endpoint)) {
    problems.push(`IMAGE_STORE_ENDPOINT must be the http(s):// address of an S3-compatible service, got "${endpoint}".`);
  }
  if (!match) return undefined;
  const folder = (match[2] ?? "").replace(/^\/+|\/+$/g, "");
  return { bucket: match[1], prefix: folder ? `${folder}/` : "", endpoint, region: source.IMAGE_STORE_REGION || "us-east-1", accessKeyId, secretAccessKey };
}

/**
 * The session secret kept in `<dataDir>/session-secret`, made on the first
 * start (of the server or of `npm run admin`), so that sessions survive
 * restarts and upgrades with nothing to set. Race-free: the secret is written
 * whole to a temporary file (mode 0600), then linked into place, which fails
 * if another process got there first; the loser reads the winner's. A file
 * that is there but unusable is refused, never replaced: a new secret would
 * sign everyone out without a word.
 */
export function storedSessionSecret(dataDir: string, log: (line: string) => void = console.info): string {
  const file = path.join(dataDir, SESSION_SECRET_FILE);
  const existing = readSecretFile(file);
  if (existing !== undefined) return existing;

  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString("hex");
  const temporary = `${file}.${process.pid}-${randomBytes(6).toString("hex")}.tmp`;
  const fd = openSync(temporary, "wx", 0o600);
  try {
    fchmodSync(fd, 0o600); // whatever the umask
    writeSync(fd, `${secret}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(temporary, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    return readSecretFile(file)!;
  } finally {
    unlinkSync(temporary);
  }
  log(`Generated a session secret in ${file}; keep it with the data.`);
  return secret;
}

/** The secret in `file`, or undefined when there is none; a file that cannot be used is an EnvError saying why. */
function readSecretFile(file: string): string | undefined {
  let stat;
  try {
    stat = lstatSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  const remedy = "Fix it, or delete it to have a new one made (which signs everyone out), or set SESSION_SECRET.";
  if (!stat.isFile()) throw new EnvError(`${file} is not a regular file. ${remedy}`);
  if (stat.mode & 0o077) {
    throw new EnvError(`${file} is open to other users (mode ${(stat.mode & 0o777).toString(8)}): run \`chmod 600 ${file}\`, or set SESSION_SECRET.`);
  }
  let secret: string;
  try {
    secret = readFileSync(file, "utf8").trim();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new EnvError(`Cannot read ${file} (${code}): it must belong to the user the server runs as (uid ${process.getuid?.()}). ${remedy}`);
  }
  if (secret.length < SESSION_SECRET_MIN_LENGTH) {
    throw new EnvError(`${file} holds fewer than ${SESSION_SECRET_MIN_LENGTH} characters: too short for a session secret. ${remedy}`);
  }
  return secret;
}

export const env = readEnv();
