import { startServer } from "../support/server";

/** One built server with the demo articles for the whole browser suite. */
export default async function globalSetup() {
  const server = await startServer();
  process.env.E2E_BASE_URL = server.url;
  process.env.E2E_DATABASE_PATH = server.databasePath;
  return () => server.stop();
}
