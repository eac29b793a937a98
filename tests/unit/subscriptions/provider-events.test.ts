import { createHmac, randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { readBodyUpTo } from "~/services/platform/forms.server";
import { maskAddress, verifySignature } from "~/services/subscriptions/provider-events.server";

/** The Svix signature check of Resend's webhook, the address as logged, and the bounded body it reads. */

const KEY = randomBytes(24);
const SECRET = `whsec_${KEY.toString("base64")}`;
const NOW = 1_750_000_000_000;
const BODY = Buffer.from('{"type":"email.bounced","data":{"to":["a@b.sk"]}}');
const sign = (id: string, seconds: number, body: Buffer, key = KEY) => createHmac("sha256", key).update(`${id}.${seconds}.`).update(body).digest("base64");
const headers = (signature: string, seconds = NOW / 1000, id = "msg_1") => ({ id, timestamp: String(seconds), signature });

describe("verifySignature", () => {
  it("accepts the HMAC-SHA256 of id.timestamp.body under the secret's base64 key, alone or anywhere in the list", () => {
    const good = `v1,${sign("msg_1", NOW / 1000, BODY)}`;
    expect(verifySignature(SECRET, headers(good), BODY, NOW)).toBe("ok");
    expect(verifySignature(SECRET, headers(`v1,${Buffer.alloc(32).toString("base64")} ${good}`), BODY, NOW)).toBe("ok");
    expect(verifySignature(SECRET, headers(`v1a,xyz ${good} v2,abc`), BODY, NOW)).toBe("ok");
  });

  it("refuses another key, body, id or version, junk, and missing headers", () => {
    const seconds = NOW / 1000;
    expect(verifySignature(SECRET, headers(`v1,${sign("msg_1", seconds, BODY, randomBytes(24))}`), BODY, NOW)).toBe("bad");
    expect(verifySignature(SECRET, headers(`v1,${sign("msg_1", seconds, Buffer.from(`${BODY} `))}`), BODY, NOW)).toBe("bad");
    expect(verifySignature(SECRET, headers(`v1,${sign("msg_2", seconds, BODY)}`), BODY, NOW)).toBe("bad");
    expect(verifySignature(SECRET, headers(`v2,${sign("msg_1", seconds, BODY)}`), BODY, NOW)).toBe("bad");
    expect(verifySignature(SECRET, headers(sign("msg_1", seconds, BODY)), BODY, NOW)).toBe("bad");
    for (const junk of ["", "v1,", "v1", " ", "v1,=", "v1,\u00e9\u00e9"]) expect(verifySignature(SECRET, headers(junk), BODY, NOW), junk).toBe("bad");
    expect(verifySignature(SECRET, { id: null, timestamp: String(seconds), signature: "v1,x" }, BODY, NOW)).toBe("bad");
    expect(verifySignature(SECRET, { id: "msg_1", timestamp: "1.5e9", signature: `v1,${sign("msg_1", seconds, BODY)}` }, BODY, NOW)).toBe("bad");
  });

  it("calls a timestamp more than 5 minutes off, either way, stale", () => {
    for (const offset of [-300, 0, 300]) {
      const seconds = NOW / 1000 + offset;
      expect(verifySignature(SECRET, headers(`v1,${sign("msg_1", seconds, BODY)}`, seconds), BODY, NOW), String(offset)).toBe("ok");
    }
    for (const offset of [-301, 301, -86_400]) {
      const seconds = NOW / 1000 + offset;
      expect(verifySignature(SECRET, headers(`v1,${sign("msg_1", seconds, BODY)}`, seconds), BODY, NOW), String(offset)).toBe("stale");
    }
  });
});

describe("maskAddress", () => {
  it("keeps the first character and the domain", () => {
    expect(maskAddress("jozef.mak@example.sk")).toBe("j***@example.sk");
    expect(maskAddress("x@y.sk")).toBe("x***@y.sk");
    expect(maskAddress("nonsense")).toBe("***");
  });
});

describe("readBodyUpTo", () => {
  const streamOf = (...chunks: string[]) =>
    new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk));
        controller.close();
      },
    });
  const request = (body: BodyInit, headers: Record<string, string> = {}) => new Request("http://x/", { method: "POST", body, headers, duplex: "half" } as RequestInit);

  it("reads a body up to the limit, declared or not", async () => {
    expect((await readBodyUpTo(request("abcd"), 4))?.toString()).toBe("abcd");
    expect((await readBodyUpTo(request(streamOf("ab", "cd")), 4))?.toString()).toBe("abcd");
    expect((await readBodyUpTo(new Request("http://x/", { method: "POST" }), 4))?.length).toBe(0);
  });

  it("refuses a body declared longer without reading it, and stops reading one that grows past the limit", async () => {
    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        controller.enqueue(new Uint8Array(1024));
      },
    });
    expect(await readBodyUpTo(request(endless, { "Content-Length": "5000" }), 4096)).toBeNull();
    expect(pulled).toBeLessThanOrEqual(1);
    expect(await readBodyUpTo(request(endless), 4096)).toBeNull();
    expect(pulled).toBeLessThan(10);
    expect(await readBodyUpTo(request(streamOf("ab", "cde")), 4)).toBeNull();
  });
});
