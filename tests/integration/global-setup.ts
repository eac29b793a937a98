import type { TestProject } from "vitest/node";
import { startServer } from "../support/server";

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    databasePath: string;
    uploadsDir: string;
  }
}

/** One built server with demo content, shared by every integration test file. */
export default async function setup(project: TestProject) {
  const server = await startServer();
  project.provide("baseUrl", server.url);
  project.provide("databasePath", server.databasePath);
  project.provide("uploadsDir", server.uploadsDir);
  return () => server.stop();
}
