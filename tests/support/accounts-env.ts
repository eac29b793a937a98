/** Settings of the shared test servers: mail goes to the Resend stand-in; links use a public address that is not the server's. */
export const TEST_PUBLIC_URL = "http://dejiny.test";

export function mailEnv(standInUrl: string): Record<string, string> {
  return {
    RESEND_API_KEY: "re_test_key",
    RESEND_BASE_URL: standInUrl,
    MAIL_FROM: "Dejiny <noreply@dejiny.test>",
    PUBLIC_URL: TEST_PUBLIC_URL,
  };
}
