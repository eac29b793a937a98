import Database from "better-sqlite3";
import { existsSync } from "node:fs";
import { request } from "node:http";
import { expect, it } from "vitest";
import { registerUser } from "../../../scripts/lib/client";
import { makeImage } from "../../../scripts/lib/images";
import { startServer } from "../../../scripts/lib/server";

it("on SIGTERM finishes the request in flight, then closes the database cleanly", async () => {
  const server = await startServer({ DEMO_CONTENT: "off" });
  const { client } = await registerUser(server.url);
  const boundary = "----dejiny-graceful";
  const part = (name: string, value: string) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const head = Buffer.from(
    part("title", "Uložené počas zastavovania") +
      part("content", "Server dostal SIGTERM uprostred tejto požiadavky.") +
      part("tags", "Ostatné") +
      `--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="a.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
  );
  const tail = Buffer.concat([await makeImage("jpeg", 400, 250), Buffer.from(`\r\n--${boundary}--\r\n`)]);
  const url = new URL("/create-post", server.url);

  const answer = new Promise<{ status: number; location: string }>((resolve, reject) => {
    const req = request(
      url,
      {
        method: "POST",
        headers: {
          "Content-Type": `multipart/form-data; boundary=${boundary}`,
          "Content-Length": head.length + tail.length,
          Cookie: client.cookieHeader(),
          "X-Forwarded-For": client.address,
        },
      },
      (res) => {
        res.resume();
        resolve({ status: res.statusCode!, location: String(res.headers.location) });
      },
    );
    req.on("error", reject);
    req.write(head);
    // Half-way through the upload, the container is stopped.
    setTimeout(() => {
      server.child.kill("SIGTERM");
      setTimeout(() => req.end(tail), 500);
    }, 200);
  });
  const exited = new Promise<number | null>((resolve) => server.child.once("exit", resolve));

  const { status, location } = await answer;
  expect(status).toBe(303);
  expect(await exited).toBe(0);
  expect(server.output()).toContain("SIGTERM: finishing open requests");
  // Closed cleanly: the write-ahead log was checkpointed and removed.
  expect(existsSync(`${server.databasePath}-wal`)).toBe(false);
  const db = new Database(server.databasePath, { readonly: true });
  expect(db.pragma("integrity_check", { simple: true })).toBe("ok");
  expect(db.prepare("SELECT title FROM posts WHERE id = ?").get(location.split("/").pop())).toEqual({ title: "Uložené počas zastavovania" });
  db.close();
  await server.stop();
});
