import { registerUser } from "./lib/client";
import { startServer } from "./lib/server";
const server = await startServer({ TRUST_PROXY: "true" });
const { client } = await registerUser(server.url);
const { publish } = await import("./lib/publish");
const id = await publish(client, "Test");
for (const size of [300_000, 350_000, 349_670, 1_000_000, 350_000, 350_000]) {
  try {
    const r = await client.request(`/posts/${id}.data?tag=x&limit=1`, { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: server.url }, body: "intent=save&content=" + "x".repeat(size) });
    console.log(size, r.status, (await r.text()).slice(0, 80));
  } catch (e) { console.log(size, "ERR", (e as Error).cause); }
}
await new Promise((res) => setTimeout(res, 200));
console.log(server.output().split("\n").filter((l) => l.includes("posts")).join("\n"));
await server.stop();
