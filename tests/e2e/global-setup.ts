import { startServer } from "../../scripts/lib/server";
import { sharedServerEnv } from "../support/accounts-env";
import { startResendStandIn } from "../support/resend-stand-in";

/** One built server with the demo articles (and a Resend stand-in) for the whole browser suite. */
export default async function globalSetup() {
  const resend = await startResendStandIn();
  const server = await startServer(sharedServerEnv(resend.url));
  process.env.E2E_BASE_URL = server.url;
  process.env.E2E_DATABASE_PATH = server.databasePath;
  process.env.E2E_UPLOADS_DIR = server.uploadsDir;
  process.env.E2E_RESEND_URL = resend.url;
  return async () => {
    await server.stop();
    await resend.close();
  };
}
