/**
 * Settings of the shared test servers: mail goes to the Resend stand-in; links
 * use a public address that is not the server's; client addresses come from
 * X-Forwarded-For, as behind a proxy, so that each test client is throttled on
 * its own (throttling itself is tested on a server without TRUST_PROXY).
 */
export const TEST_PUBLIC_URL = "http://dejiny.test";

/**
 * bcrypt at cost 4 (about 1 ms a hash, not 130): the suite signs in and
 * registers hundreds of times. Servers that time password work (hardening,
 * the load test, the bench) keep the real cost.
 */
export const CHEAP_PASSWORD_HASHES = { PASSWORD_HASH_COST: "4" };

export function sharedServerEnv(standInUrl: string): Record<string, string> {
  return {
    TRUST_PROXY: "true",
    RESEND_API_KEY: "re_test_key",
    RESEND_BASE_URL: standInUrl,
    MAIL_FROM: "Dejiny <noreply@dejiny.test>",
    PUBLIC_URL: TEST_PUBLIC_URL,
    // The owner's profiles and contact, shown in the header and footer.
    SOCIAL_FACEBOOK_URL: "https://www.facebook.com/dejiny.test",
    SOCIAL_YOUTUBE_URL: "https://www.youtube.com/@dejiny.test",
    CONTACT_EMAIL: "redakcia@dejiny.test",
    ...CHEAP_PASSWORD_HASHES,
  };
}
