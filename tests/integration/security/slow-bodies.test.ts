import net from "node:net";
import { parse } from "node-html-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BODY_MESSAGES, MESSAGES, POST_MESSAGES } from "~/lib/rules";
import { Client, registerUser } from "../../../scripts/lib/client";
import { makeImage, padTo } from "../../../scripts/lib/images";
import { multipartBody, rawRequest } from "../../../scripts/lib/raw-http";
import { startServer, type RunningServer } from "../../../scripts/lib/server";
import { readDatabase } from "../../support/http";

// A server of its own: each client speaks from the address its X-Forwarded-For names (TRUST_PROXY).
let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ TRUST_PROXY: "true" });
});
afterAll(async () => {
  await server.stop();
});

type LogLine = { method: string; path: string; status: number; ms: number; bodyRead?: number };
const logLines = (): LogLine[] =>
  server
    .output()
    .split("\n")
    .filter((line) => line.startsWith('{"time"'))
    .map((line) => JSON.parse(line) as LogLine);

const BOUNDARY = "----dejiny-raw-boundary";
const MULTIPART = `multipart/form-data; boundary=${BOUNDARY}`;

/** Headers of a signed-in client's raw request, from its own address. */
const as = (client: Client, more: Record<string, string> = {}) => ({ Cookie: client.cookieHeader(), "X-Forwarded-For": client.address, ...more });

describe("slow bodies", () => {
  it("cost nothing: an honest upload finishes at once while 12 uploads from 6 accounts trickle, and every trickle is cut after about 10 s and logged", { timeout: 60_000 }, async () => {
    const attackers = await Promise.all(Array.from({ length: 6 }, () => registerUser(server.url)));
    const { client: author } = await registerUser(server.url);
    const started = performance.now();
    const trickling = attackers.flatMap(({ client }) =>
      [0, 1].map(() => {
        const request = rawRequest(server.url, "POST", "/create-post/image", as(client, { "Content-Type": MULTIPART, "Content-Length": "100000" }), `--${BOUNDARY}\r\n`);
        request.trickle(5_000);
        return request;
      }),
    );
    // A visitor's upload is answered at once; what it sends after is thrown away, and when it stalls, the connection is cut.
    const answeredFirst = rawRequest(server.url, "POST", "/create-post/image", { "Content-Type": MULTIPART, "Content-Length": "100000", "X-Forwarded-For": "203.0.113.8" }, "A".repeat(2048));
    answeredFirst.trickle(5_000);
    // A small form trickles too: the limit holds for every body, not only uploads.
    const signIn = rawRequest(server.url, "POST", "/signinsignup", { "Content-Type": "application/x-www-form-urlencoded", "Content-Length": "200", "X-Forwarded-For": "203.0.113.9" }, "intent=signin");
    signIn.trickle(5_000);
    // Headers sent a line at a time (slowloris) are cut after about 15 s, not held for Node's 60.
    const slowHeaders = net.connect(Number(new URL(server.url).port), "127.0.0.1");
    slowHeaders.on("error", () => {});
    const slowHeadersClosed = new Promise<number>((resolve) => slowHeaders.on("close", () => resolve(performance.now() - started)));
    slowHeaders.write("GET /posts HTTP/1.1\r\nHost: x\r\n");
    const headerLines = setInterval(() => slowHeaders.write(`X-Line: ${Date.now()}\r\n`), 5_000);
    await new Promise((resolve) => setTimeout(resolve, 1_000));

    const form = new FormData();
    const image = await makeImage("jpeg", 64, 48);
    expect(image.length).toBeLessThan(4_096);
    form.append("image", new Blob([new Uint8Array(image)], { type: "image/jpeg" }), "a.jpg");
    const uploadStarted = performance.now();
    const response = await author.request("/create-post/image", { method: "POST", body: form, headers: { Origin: server.url } });
    const uploadMs = performance.now() - uploadStarted;
    expect(response.status).toBe(200);
    expect((await response.json()).key).toMatch(/^[\w-]{16}$/);
    expect(uploadMs).toBeLessThan(5_000);
    console.info(`an honest 4 KB upload under 12 trickling uploads: ${Math.round(uploadMs)} ms`);

    for (const request of [...trickling, signIn]) {
      const answer = await request.answer;
      expect(answer.status).toBe(408);
      expect(answer.text).toBe(BODY_MESSAGES.tooSlow);
      expect(answer.afterMs).toBeGreaterThan(9_000);
      expect(answer.afterMs).toBeLessThan(16_000);
      expect(await request.closed).toBeLessThan(16_000);
    }
    expect((await answeredFirst.answer).status).toBe(401);
    expect(await answeredFirst.closed).toBeLessThan(22_000);
    console.info(`headers sent a line every 5 s: cut after ${Math.round(await slowHeadersClosed)} ms`);
    // 15 s, checked every 5 s (Node's own: 60 s, checked every 30 s, held such sockets 60–70 s).
    expect(await slowHeadersClosed).toBeLessThan(30_000);
    clearInterval(headerLines);
    expect(performance.now() - started).toBeLessThan(30_000);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const cut = logLines().filter((line) => line.status === 408);
    expect(cut.filter((line) => line.path === "/create-post/image")).toHaveLength(12);
    expect(cut.filter((line) => line.path === "/signinsignup")).toHaveLength(1);
    // The headers that never finished are logged too, without a path (none arrived) or a body.
    expect(cut.filter((line) => line.path === "-")).toHaveLength(1);
    for (const line of cut.filter((line) => line.path !== "-")) expect(line.bodyRead).toBeLessThan(64);
  });

  it("lets a slow but steady upload through: a little over 1 KB in every 10 s", { timeout: 40_000 }, async () => {
    const { client } = await registerUser(server.url);
    const image = padTo(await makeImage("jpeg", 64, 48), 3_200);
    const body = multipartBody(BOUNDARY, [], { name: "image", filename: "a.jpg", type: "image/jpeg", bytes: image });
    const request = rawRequest(server.url, "POST", "/create-post/image", as(client, { "Content-Type": MULTIPART, "Content-Length": String(body.length) }));
    // 1.2 KB every 9 s: the server's second look (at 20 s) sees only one of them.
    const piece = Math.ceil(body.length / 3);
    for (let sent = 0; sent < body.length; sent += piece) {
      if (sent > 0) await new Promise((resolve) => setTimeout(resolve, 9_000));
      request.socket.write(body.subarray(sent, sent + piece));
    }
    const answer = await request.answer;
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text).key).toMatch(/^[\w-]{16}$/);
    expect(answer.afterMs).toBeGreaterThan(18_000);
    request.socket.destroy();
  });
});

describe("large bodies", () => {
  const HUGE = 10_000_000_000;

  it("are refused before any route runs, signed in or not, and the connection closes having read almost nothing", { timeout: 30_000 }, async () => {
    const { client } = await registerUser(server.url);
    const cases: { who: string; path: string; headers: Record<string, string> }[] = [
      { who: "anonymous", path: "/create-post/image", headers: { "Content-Type": MULTIPART, "Content-Length": String(HUGE), "X-Forwarded-For": "203.0.113.10" } },
      { who: "signed in", path: "/create-post", headers: as(client, { "Content-Type": MULTIPART, "Content-Length": String(100 * 1024 * 1024) }) },
      { who: "a small form", path: "/signinsignup", headers: { "Content-Type": "application/x-www-form-urlencoded", "Content-Length": String(HUGE), "X-Forwarded-For": "203.0.113.11" } },
    ];
    for (const { who, path, headers } of cases) {
      // A client that waits for the answer gets it, and the connection closes.
      const polite = rawRequest(server.url, "POST", path, headers, "x".repeat(100));
      const answer = await polite.answer;
      expect(answer.status, who).toBe(413);
      expect(answer.headers.connection, who).toBe("close");
      expect(answer.text, who).toBe(BODY_MESSAGES.tooLarge);
      expect(await polite.closed, who).toBeLessThan(3_000);

      // One that sends as fast as it can is cut off as soon as the answer is out.
      const flood = rawRequest(server.url, "POST", path, headers);
      const taken = await flood.flood(200 * 1024 * 1024);
      expect(await flood.closed, who).toBeLessThan(3_000);
      // What left the client before the connection closed: socket buffers, mostly never read by the server.
      expect(taken, who).toBeLessThan(16 * 1024 * 1024);
      await new Promise((resolve) => setTimeout(resolve, 100));
      const line = logLines().filter((l) => l.path === path && l.status === 413).at(-1)!;
      expect(line.bodyRead, who).toBeLessThan(256 * 1024);
      console.info(`${who}, ${path}, declaring ${headers["Content-Length"]} bytes: ${taken} bytes left the client before the server closed; the server had read ${line.bodyRead} when its answer was out`);
    }
  });

  it("of unknown length close the connection when the answer comes first", async () => {
    const request = rawRequest(server.url, "POST", "/create-post/image", { "Content-Type": MULTIPART, "Transfer-Encoding": "chunked", "X-Forwarded-For": "203.0.113.12" });
    request.socket.write(`400\r\n${"A".repeat(1024)}\r\n`);
    const answer = await request.answer;
    expect(answer.status).toBe(401);
    expect(answer.headers.connection).toBe("close");
    expect(await request.closed).toBeLessThan(3_000);
  });

  it("within the limit, answered before they arrived, are let in and thrown away: the connection stays usable", async () => {
    const request = rawRequest(server.url, "POST", "/create-post/image", { "Content-Type": MULTIPART, "Content-Length": "2000000", "X-Forwarded-For": "203.0.113.13" }, "A".repeat(1024));
    const answer = await request.answer;
    expect(answer.status).toBe(401);
    expect(answer.headers.connection).toBe("keep-alive");
    request.socket.write(Buffer.alloc(2_000_000 - 1024, 0x41));
    request.socket.write(`GET /healthz HTTP/1.1\r\nHost: ${new URL(server.url).host}\r\n\r\n`);
    await new Promise<void>((resolve) => request.socket.on("data", (chunk: Buffer) => chunk.toString().includes("HTTP/1.1 200") && resolve()));
    request.socket.destroy();
  });

  it("keeps the connection open when the body was read whole", async () => {
    const { client } = await registerUser(server.url);
    const body = multipartBody(BOUNDARY, [["title", "x"]]);
    const request = rawRequest(server.url, "POST", "/create-post/image", as(client, { "Content-Type": MULTIPART, "Content-Length": String(body.length) }), body);
    const answer = await request.answer;
    expect(answer.status).toBe(400);
    expect(answer.headers.connection).toBe("keep-alive");
    request.socket.destroy();
  });
});

describe("a malformed multipart body", () => {
  const bodies: [string, string, string][] = [
    ["no boundary", "multipart/form-data", `--${BOUNDARY}\r\n`],
    ["garbage", MULTIPART, "this is not multipart at all, not even close"],
    ["empty", MULTIPART, ""],
    ["cut off after the title", MULTIPART, `--${BOUNDARY}\r\nContent-Disposition: form-data; name="title"\r\n\r\nRozbitý formulár\r\n--${BOUNDARY}\r\nContent-Disp`],
  ];

  it("is answered 400 with the form's message, what was read of the form kept", async () => {
    const { client } = await registerUser(server.url);
    for (const [what, type, body] of bodies) {
      const response = await client.request("/create-post", { method: "POST", headers: { Origin: server.url, "Content-Type": type }, body });
      const html = await response.text();
      expect(response.status, what).toBe(400);
      expect(html, what).toContain(BODY_MESSAGES.unreadable);
      if (what === "cut off after the title") expect(html, what).toContain('value="Rozbitý formulár"');
    }
  });

  it("is answered 400 by the image upload too", async () => {
    const { client } = await registerUser(server.url);
    for (const [what, type, body] of bodies) {
      const response = await client.request("/create-post/image", { method: "POST", headers: { Origin: server.url, "Content-Type": type }, body });
      expect(response.status, what).toBe(400);
      expect(await response.json(), what).toEqual({ error: BODY_MESSAGES.unreadable });
    }
  });
});

describe("upload memory", () => {
  it("answers an account's third large upload 'busy' with the form kept while two of its uploads hold their memory", { timeout: 30_000 }, async () => {
    const { client } = await registerUser(server.url);
    // Two uploads that send 2.4 MB at once and then stall, holding it (until they are cut).
    const holding = [0, 1].map(() => {
      const request = rawRequest(server.url, "POST", "/create-post/image", as(client, { "Content-Type": MULTIPART, "Content-Length": String(2_600_000) }));
      request.socket.write(Buffer.concat([Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="image"; filename="a.jpg"\r\n\r\n`), Buffer.alloc(2_000_000, 0x41)]));
      return request;
    });
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const form = new FormData();
    form.append("title", "Zachovaný nadpis");
    form.append("content", "Zachovaný text");
    form.append("tags", "Ostatné");
    form.append("image", new Blob([new Uint8Array(2_000_000)], { type: "image/jpeg" }), "a.jpg");
    const response = await client.request("/create-post", { method: "POST", body: form, headers: { Origin: server.url } });
    const html = await response.text();
    expect(response.status).toBe(503);
    // On the document itself (a no-JS form), not only on a data request.
    expect(response.headers.get("retry-after")).toBe("5");
    expect(html).toContain('value="Zachovaný nadpis"');
    expect(html).toContain("Zachovaný text");
    for (const request of holding) request.socket.destroy();
    // Another account is not affected.
    const { client: other } = await registerUser(server.url);
    const image = await makeImage("jpeg", 64, 48);
    const upload = new FormData();
    upload.append("image", new Blob([new Uint8Array(image)], { type: "image/jpeg" }), "a.jpg");
    expect((await other.request("/create-post/image", { method: "POST", body: upload, headers: { Origin: server.url } })).status).toBe(200);
  });
});

describe("a publish whose pending image was cleaned up", () => {
  it("answers the form again, its text and tags kept, asking for the image again", async () => {
    const { client } = await registerUser(server.url);
    const form = new FormData();
    form.append("image", new Blob([new Uint8Array(await makeImage("jpeg", 64, 48))], { type: "image/jpeg" }), "a.jpg");
    const { key } = await (await client.request("/create-post/image", { method: "POST", body: form, headers: { Origin: server.url } })).json();
    // What the hourly clean-up does to a day-old pending image: its row and its files go.
    readDatabase(server.databasePath, (db) => db.prepare("DELETE FROM pending_images WHERE key = ?").run(key), true);
    const posts = () => readDatabase(server.databasePath, (db) => (db.prepare("SELECT count(*) AS n FROM posts").get() as { n: number }).n);
    const before = posts();

    const submit = new FormData();
    submit.append("title", "Nadpis, ktorý zostane");
    submit.append("content", "Text, ktorý zostane");
    submit.append("tags", "Ostatné");
    submit.append("tags", "Morava");
    submit.append("pendingImage", key);
    const response = await client.request("/create-post", { method: "POST", body: submit, headers: { Origin: server.url } });
    const html = await response.text();
    expect(response.status).toBe(400);
    expect(html).toContain(POST_MESSAGES.pendingImageGone);
    expect(html).toContain('value="Nadpis, ktorý zostane"');
    expect(html).toContain("Text, ktorý zostane");
    const checked = parse(html).querySelectorAll('input[name="tags"]').filter((input) => input.hasAttribute("checked"));
    expect(checked.map((input) => input.getAttribute("value")).sort()).toEqual(["Morava", "Ostatné"]);
    expect(html).not.toContain(key);
    expect(posts()).toBe(before);
  });

  it("still asks for a missing field first", async () => {
    const { client } = await registerUser(server.url);
    const submit = new FormData();
    submit.append("title", "");
    submit.append("content", "Text");
    submit.append("tags", "Ostatné");
    submit.append("pendingImage", "AAAAAAAAAAAAAAAA");
    const response = await client.request("/create-post", { method: "POST", body: submit, headers: { Origin: server.url } });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain(MESSAGES.createFieldsMissing);
  });
});
