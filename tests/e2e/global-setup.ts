import { startServer } from "../../scripts/lib/server";
import { sharedServerEnv } from "../support/accounts-env";
import { startResendStandIn } from "../../scripts/lib/resend-stand-in";

/** One built server with the demo articles (and a Resend stand-in) for the whole browser suite. */
export default async function globalSetup() {
  const resend = await startResendStandIn();
  // Reads (written in batches) reach the author's and the admin's pages within a second.
  const server = await startServer({ ...sharedServerEnv(resend.url), READS_FLUSH_SECONDS: "1" });
  process.env.E2E_BASE_URL = server.url;
  process.env.E2E_DATABASE_PATH = server.databasePath;
  process.env.E2E_UPLOADS_DIR = server.uploadsDir;
  process.env.E2E_RESEND_URL = resend.url;
  return async () => {
    await server.stop();
    // A failing browser test often shows only an error page: what the server said besides its request
    // log (errors and their stacks), with its 5xx answers, is printed for it.
    const said = server.output().split("\n").filter((line) => line !== "" && (!line.startsWith('{"time"') || /"status":5\d\d/.test(line)));
    if (said.some((line) => /error|"status":5\d\d/i.test(line))) console.log(`--- the browser tests' server said:\n${said.join("\n")}`);
    await resend.close();
  };
}
