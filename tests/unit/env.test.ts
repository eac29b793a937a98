import { describe, expect, it } from "vitest";
import { EnvError, readEnv } from "~/config/env.server";

describe("readEnv", () => {
  it("has defaults that run the site locally", () => {
    const env = readEnv({});
    expect(env.port).toBe(3000);
    expect(env.host).toBe("127.0.0.1");
    expect(env.databasePath).toMatch(/data\/dejiny\.db$/);
    expect(env.uploadsDir).toMatch(/uploads$/);
    expect(env.demoContent).toBe(true);
    expect(env.secureCookies).toBe(false);
    expect(env.sessionSecret).toHaveLength(64);
  });
  it("requires a session secret in production beyond loopback", () => {
    expect(() => readEnv({ NODE_ENV: "production", HOST: "0.0.0.0" })).toThrow(/SESSION_SECRET is required/);
    expect(() => readEnv({ NODE_ENV: "production", HOST: "0.0.0.0", SESSION_SECRET: "x".repeat(32) })).not.toThrow();
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
  it("makes cookies Secure behind https", () => {
    expect(readEnv({ PUBLIC_URL: "https://dejiny.example/" })).toMatchObject({ secureCookies: true, publicUrl: "https://dejiny.example" });
    expect(readEnv({ TRUST_PROXY: "true", DEMO_CONTENT: "off" })).toMatchObject({ trustProxy: true, demoContent: false });
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
});
