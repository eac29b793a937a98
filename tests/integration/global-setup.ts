import type { TestProject } from "vitest/node";
import { startServer } from "../../scripts/lib/server";
import { sharedServerEnv } from "../support/accounts-env";
import { startResendStandIn } from "../../scripts/lib/resend-stand-in";

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    databasePath: string;
    uploadsDir: string;
    resendUrl: string;
  }
}

/** One built server with demo content (and a Resend stand-in), shared by the integration test files. */
export default async function setup(project: TestProject) {
  const resend = await startResendStandIn();
  const server = await startServer(sharedServerEnv(resend.url));
  project.provide("baseUrl", server.url);
  project.provide("databasePath", server.databasePath);
  project.provide("uploadsDir", server.uploadsDir);
  project.provide("resendUrl", resend.url);
  return async () => {
    await server.stop();
    await resend.close();
  };
}
