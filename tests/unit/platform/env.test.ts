import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { EnvError, readEnv as readEnvWith, SESSION_SECRET_FILE, storedSessionSecret } from "~/config/env.server";

const STORED = "s".repeat(64);
/** readEnv with a stand-in for the data folder's secret file: these tests touch no files. */
const readEnv = (source: Record<string, string>) => readEnvWith(source, () => STORED);

describe("readEnv", () => {
  it("has defaults that run the site locally", () => {
    const env = readEnv({});
    expect(env.port).toBe(3000);
    expect(env.host).toBe("127.0.0.1");
    expect(env.databasePath).toMatch(/data\/dejiny\.db$/);
    expect(env.uploadsDir).toMatch(/uploads$/);
    expect(env.demoContent).toBe(true);
    expect(env.secureCookies).toBe(false);
    expect(env.dataDir).toBe(path.dirname(env.databasePath));
  });
  it("takes SESSION_SECRET when set, on any host; otherwise the stored secret of the data folder", () => {
    const asked: string[] = [];
    const stored = (dir: string) => {
      asked.push(dir);
      return STORED;
    };
    expect(readEnvWith({ NODE_ENV: "production", HOST: "0.0.0.0", SESSION_SECRET: "x".repeat(32) }, stored).sessionSecret).toBe("x".repeat(32));
    expect(asked).toEqual([]);
    expect(readEnvWith({ NODE_ENV: "production", HOST: "0.0.0.0", DATABASE_PATH: "/srv/dejiny/db.sqlite" }, stored).sessionSecret).toBe(STORED);
    expect(asked).toEqual(["/srv/dejiny"]);
    // A configuration with mistakes touches no file.
    expect(() => readEnvWith({ PORT: "x" }, stored)).toThrow(EnvError);
    expect(asked).toHaveLength(1);
  });
  it("lists every problem at once", () => {
    try {
      readEnv({ PORT: "http", PUBLIC_URL: "ftp://x", DEMO_CONTENT: "maybe", SESSION_SECRET: "short" });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(EnvError);
      const message = (error as Error).message;
      for (const name of ["PORT", "PUBLIC_URL", "DEMO_CONTENT", "SESSION_SECRET"]) expect(message).toContain(name);
    }
  });
  it("hashes passwords at bcrypt cost 11 unless PASSWORD_HASH_COST says 4 to 14", () => {
    expect(readEnv({}).passwordHashCost).toBe(11);
    expect(readEnv({ PASSWORD_HASH_COST: "" }).passwordHashCost).toBe(11);
    expect(readEnv({ PASSWORD_HASH_COST: "4" }).passwordHashCost).toBe(4);
    expect(readEnv({ PASSWORD_HASH_COST: "14" }).passwordHashCost).toBe(14);
    for (const value of ["3", "15", "11.5", "x"]) expect(() => readEnv({ PASSWORD_HASH_COST: value }), value).toThrow("PASSWORD_HASH_COST must be a whole number from 4 to 14");
  });
  it("writes counted reads every 30 s unless READS_FLUSH_SECONDS says 1 to 3600", () => {
    expect(readEnv({}).readsFlushMs).toBe(30_000);
    expect(readEnv({ READS_FLUSH_SECONDS: "1" }).readsFlushMs).toBe(1_000);
    expect(readEnv({ READS_FLUSH_SECONDS: "3600" }).readsFlushMs).toBe(3_600_000);
    for (const value of ["0", "3601", "1.5", "-1", "x"]) expect(() => readEnv({ READS_FLUSH_SECONDS: value }), value).toThrow("READS_FLUSH_SECONDS must be a whole number of seconds from 1 to 3600");
  });
  it("takes RESEND_WEBHOOK_SECRET only as Resend shows it (whsec_ and base64), without repeating it in the message", () => {
    expect(readEnv({}).resendWebhookSecret).toBeUndefined();
    expect(readEnv({ RESEND_WEBHOOK_SECRET: "" }).resendWebhookSecret).toBeUndefined();
    const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    expect(readEnv({ RESEND_WEBHOOK_SECRET: secret }).resendWebhookSecret).toBe(secret);
    for (const value of ["MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "whsec_", "whsec_abc", "whsec_not base64!", "re_123456789012"]) {
      expect(() => readEnv({ RESEND_WEBHOOK_SECRET: value }), value).toThrow("RESEND_WEBHOOK_SECRET must be the webhook's signing secret");
      try {
        readEnv({ RESEND_WEBHOOK_SECRET: value });
      } catch (error) {
        if (value.length > 6) expect((error as Error).message).not.toContain(value);
      }
    }
  });
  it("makes cookies Secure behind https", () => {
    expect(readEnv({ PUBLIC_URL: "https://dejiny.example/" })).toMatchObject({ secureCookies: true, publicUrl: "https://dejiny.example" });
    expect(readEnv({ TRUST_PROXY: "true", DEMO_CONTENT: "off" })).toMatchObject({ trustProxy: true, demoContent: false });
  });
  it("reads READ_ONLY as on/off, true/false or 1/0, off by default, and refuses anything else", () => {
    expect(readEnv({}).readOnly).toBe(false);
    for (const value of ["on", "ON", "true", "1"]) expect(readEnv({ READ_ONLY: value }).readOnly, value).toBe(true);
    for (const value of ["off", "False", "0", ""]) expect(readEnv({ READ_ONLY: value }).readOnly, value).toBe(false);
    for (const value of ["yes", "maybe", "2"]) expect(() => readEnv({ READ_ONLY: value }), value).toThrow(`READ_ONLY must be "on" or "off" (or true/false, 1/0), got "${value}".`);
  });
  it("shows only the profiles and contact the owner set, and only real addresses", () => {
    expect(readEnv({})).toMatchObject({ socialLinks: [], contactEmail: undefined });
    expect(readEnv({ SOCIAL_INSTAGRAM_URL: "https://www.instagram.com/dejiny", CONTACT_EMAIL: "redakcia@dejiny.sk" })).toMatchObject({
      socialLinks: [{ network: "Instagram", href: "https://www.instagram.com/dejiny" }],
      contactEmail: "redakcia@dejiny.sk",
    });
    expect(() => readEnv({ SOCIAL_FACEBOOK_URL: "javascript:alert(1)" })).toThrow(/SOCIAL_FACEBOOK_URL/);
    expect(() => readEnv({ SOCIAL_YOUTUBE_URL: "youtube.com/dejiny" })).toThrow(/SOCIAL_YOUTUBE_URL/);
    expect(() => readEnv({ CONTACT_EMAIL: "redakcia" })).toThrow(/CONTACT_EMAIL/);
  });
  it("keeps images in the folder unless IMAGE_STORE_URL names a bucket, with its keys", () => {
    expect(readEnv({}).imageBucket).toBeUndefined();
    const keys = { IMAGE_STORE_ACCESS_KEY_ID: "id", IMAGE_STORE_SECRET_ACCESS_KEY: "secret" };
    expect(readEnv({ IMAGE_STORE_URL: "s3://dejiny-images", ...keys }).imageBucket).toEqual({
      bucket: "dejiny-images",
      prefix: "",
      endpoint: undefined,
      region: "us-east-1",
      accessKeyId: "id",
      secretAccessKey: "secret",
    });
    expect(
      readEnv({ IMAGE_STORE_URL: "s3://dejiny/site/images/", IMAGE_STORE_ENDPOINT: "https://minio.lan:9000", IMAGE_STORE_REGION: "auto", ...keys }).imageBucket,
    ).toMatchObject({ bucket: "dejiny", prefix: "site/images/", endpoint: "https://minio.lan:9000", region: "auto" });
    expect(() => readEnv({ IMAGE_STORE_URL: "s3://dejiny" })).toThrow(/set IMAGE_STORE_ACCESS_KEY_ID and IMAGE_STORE_SECRET_ACCESS_KEY/);
    expect(() => readEnv({ IMAGE_STORE_URL: "https://dejiny.s3.amazonaws.com", ...keys })).toThrow(/IMAGE_STORE_URL must be s3:\/\/bucket/);
    expect(() => readEnv({ IMAGE_STORE_URL: "s3://Dejiny_Images", ...keys })).toThrow(/IMAGE_STORE_URL must be/);
    expect(() => readEnv({ IMAGE_STORE_URL: "s3://dejiny", IMAGE_STORE_ENDPOINT: "minio:9000", ...keys })).toThrow(/IMAGE_STORE_ENDPOINT must be the http\(s\):\/\//);
  });
});

describe("the stored session secret", () => {
  const dirs: string[] = [];
  const dataDir = () => {
    const dir = mkdtempSync(path.join(tmpdir(), "dejiny-secret-"));
    dirs.push(dir);
    return path.join(dir, "data");
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it("is made on the first start (mode 0600, logged once) and read back on the next", () => {
    const dir = dataDir();
    const lines: string[] = [];
    const secret = storedSessionSecret(dir, (line) => lines.push(line));
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    const file = path.join(dir, SESSION_SECRET_FILE);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, "utf8").trim()).toBe(secret);
    expect(lines).toEqual([`Generated a session secret in ${file}; keep it with the data.`]);

    expect(storedSessionSecret(dir, (line) => lines.push(line))).toBe(secret);
    expect(lines).toHaveLength(1);
    // Nothing is left beside it (no temporary file).
    expect(readdirSync(dir)).toEqual([SESSION_SECRET_FILE]);
  });

  it("keeps a secret the owner wrote into the file", () => {
    const dir = dataDir();
    storedSessionSecret(dir, () => {});
    writeFileSync(path.join(dir, SESSION_SECRET_FILE), `  ${"k".repeat(40)}\n`);
    expect(storedSessionSecret(dir, () => {})).toBe("k".repeat(40));
  });

  it("is not used when SESSION_SECRET is set: no file is made", () => {
    const dir = dataDir();
    const env = readEnvWith({ SESSION_SECRET: "e".repeat(32), DATABASE_PATH: path.join(dir, "dejiny.db") });
    expect(env.sessionSecret).toBe("e".repeat(32));
    expect(() => readdirSync(dir)).toThrow(/ENOENT/);
  });

  it("refuses a file that is too short, readable by others, unreadable or not a file, saying what to do; it is never replaced", () => {
    const dir = dataDir();
    storedSessionSecret(dir, () => {});
    const file = path.join(dir, SESSION_SECRET_FILE);

    writeFileSync(file, "short\n");
    expect(() => storedSessionSecret(dir)).toThrow(new EnvError(`${file} holds fewer than 32 characters: too short for a session secret. Fix it, or delete it to have a new one made (which signs everyone out), or set SESSION_SECRET.`));
    expect(readFileSync(file, "utf8")).toBe("short\n");

    writeFileSync(file, "g".repeat(64));
    chmodSync(file, 0o640);
    expect(() => storedSessionSecret(dir)).toThrow(`${file} is open to other users (mode 640): run \`chmod 600 ${file}\`, or set SESSION_SECRET.`);
    chmodSync(file, 0o604);
    expect(() => storedSessionSecret(dir)).toThrow(/is open to other users \(mode 604\)/);

    // root reads any file: only another user meets a file it cannot read.
    if (process.getuid?.() !== 0) {
      chmodSync(file, 0o200);
      expect(() => storedSessionSecret(dir)).toThrow(/Cannot read .*session-secret \(EACCES\): it must belong to the user the server runs as/);
    }

    rmSync(file);
    writeFileSync(path.join(dir, "elsewhere"), "h".repeat(64), { mode: 0o600 });
    symlinkSync(path.join(dir, "elsewhere"), file);
    expect(() => storedSessionSecret(dir)).toThrow(/is not a regular file/);
  });
});
