import { sqlite } from "~/db/connection.server";

/** For the container's HEALTHCHECK: 200 while the database answers. */
export async function loader() {
  try {
    sqlite.prepare("SELECT 1").get();
    return new Response("ok", { headers: { "Content-Type": "text/plain", "Cache-Control": "no-store" } });
  } catch (error) {
    console.error("Health check failed", error);
    return new Response("database unavailable", { status: 503, headers: { "Content-Type": "text/plain" } });
  }
}
