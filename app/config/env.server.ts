import { randomBytes } from "node:crypto";
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
  /** The site's profiles, shown in the header; none unless configured. */
  socialLinks: SocialLink[];
  /** Shown in the footer when set. */
  contactEmail: string | undefined;
  /** Litestream replicates the database and does its checkpoints (scripts/serve.sh says so). */
  litestreamReplicating: boolean;
};

const SOCIAL_SETTINGS = [
  ["SOCIAL_FACEBOOK_URL", "Facebook"],
  ["SOCIAL_INSTAGRAM_URL", "Instagram"],
  ["SOCIAL_YOUTUBE_URL", "YouTube"],
] as const;

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "::1"]);

/** A configuration mistake: its message says what to fix (the server prints only that). */
export class EnvError extends Error {
  name = "EnvError";
}

export function readEnv(source: Record<string, string | undefined> = process.env): Env {
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

  // A secret only protects anything once others can reach the server: a
  // production server listening beyond loopback must be given a stable one.
  let sessionSecret = source.SESSION_SECRET ?? "";
  if (sessionSecret && sessionSecret.length < 32) {
    problems.push("SESSION_SECRET must be at least 32 characters (e.g. the output of `openssl rand -hex 32`).");
  } else if (!sessionSecret) {
    if (production && !LOOPBACK_HOSTS.has(host)) {
      problems.push(
        `SESSION_SECRET is required in production when listening on ${host}. Generate one with \`openssl rand -hex 32\`.`,
      );
    }
    sessionSecret = randomBytes(32).toString("hex");
  }

  const demo = (source.DEMO_CONTENT ?? "on").toLowerCase();
  if (!["on", "off"].includes(demo)) problems.push(`DEMO_CONTENT must be "on" or "off", got "${source.DEMO_CONTENT}".`);

  const resendApiKey = source.RESEND_API_KEY || undefined;
  const mailFrom = source.MAIL_FROM || "Dejiny <noreply@dejiny.local>";
  if (resendApiKey && !source.MAIL_FROM) problems.push("MAIL_FROM is required when RESEND_API_KEY is set (a sender on your verified Resend domain).");

  const socialLinks: SocialLink[] = [];
  for (const [name, network] of SOCIAL_SETTINGS) {
    const value = source[name];
    if (!value) continue;
    if (/^https?:\/\/[^\s/]+\.[^\s]*$/i.test(value)) socialLinks.push({ network, href: value });
    else problems.push(`${name} must be the address of the site's ${network} page (https://…), got "${value}".`);
  }
  const contactEmail = source.CONTACT_EMAIL || undefined;
  if (contactEmail && !/^[^\s@<>"]+@[^\s@<>"]+\.[^\s@<>"]+$/.test(contactEmail)) problems.push(`CONTACT_EMAIL must be an e-mail address, got "${contactEmail}".`);

  if (problems.length > 0) {
    throw new EnvError(`Invalid configuration:\n  - ${problems.join("\n  - ")}`);
  }

  return {
    production,
    databasePath,
    uploadsDir,
    dataDir: path.dirname(databasePath),
    sessionSecret,
    publicUrl,
    secureCookies: publicUrl.startsWith("https:"),
    port,
    host,
    demoContent: demo === "on",
    trustProxy: ["1", "true", "on", "yes"].includes((source.TRUST_PROXY ?? "").toLowerCase()),
    resendApiKey,
    resendBaseUrl: source.RESEND_BASE_URL || undefined,
    mailFrom,
    socialLinks,
    contactEmail,
    litestreamReplicating: source.LITESTREAM_REPLICATING === "1",
  };
}

export const env = readEnv();
