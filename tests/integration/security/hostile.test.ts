/**
 * Hostile input: a few thousand generated requests against every form and
 * query parameter of the shared server, from a seeded PRNG (set HOSTILE_SEED
 * to replay another sequence). Every answer must be free of 5xx, stack traces
 * and server paths; refused writes must change nothing in the database or the
 * image folder; XSS payloads saved by an article's own author must come out as
 * harmless markup.
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import path from "node:path";
import type { HTMLElement } from "node-html-parser";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { MAX_BODY_BYTES } from "~/lib/rules";
import tagList from "../../../public/tags.json";
import { Client, GOOD_PASSWORD, registerUser, uniqueEmail } from "../../../scripts/lib/client";
import { makeImage, makePngBomb } from "../../../scripts/lib/images";
import { editBase } from "../../../scripts/lib/publish";
import {
  BYTE_TRICKS,
  IMAGE_TRAVERSALS,
  multipart,
  pct,
  PRIVATE_FILES,
  Rng,
  SQL_PAYLOADS,
  tagLookalikes,
  UNICODE_EDGES,
  urlencoded,
  XSS_PAYLOADS,
  type Field,
  type Part,
} from "../../support/hostile-payloads";
import { INTERNALS, readDatabase } from "../../support/http";

const base = inject("baseUrl");
const databasePath = inject("databasePath");
const uploadsDir = inject("uploadsDir");

const SEED = process.env.HOSTILE_SEED ? Number(process.env.HOSTILE_SEED) >>> 0 : 20_240_917;
const rng = new Rng(SEED);
const CONCURRENCY = 8;
const REQUEST_TIMEOUT = 15_000;
/** How long a request whose body is cut short waits for an answer before the socket is dropped. */
const SOCKET_WAIT = 2_500;
const TAGS: readonly string[] = tagList;
const URLENC = "application/x-www-form-urlencoded";
/** The card list never shows more than this many cards, whatever `limit` asks. */
const MAX_CARDS = 180;
/** What a served file must never contain: sources, configuration, the database, system files. */
const SECRETS = /"dependencies"|SQLite format 3|createRequestHandler|root:x:0:|\[core\]|SESSION_SECRET=|drizzle-orm/;

// ---------------------------------------------------------------------------
// Requests, answers and what every answer must satisfy
// ---------------------------------------------------------------------------

type Actor = "anon" | "attacker" | "owner";

type Attack = {
  family: string;
  /** A short description of the payload, to find the request again. */
  note: string;
  actor: Actor;
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: Buffer;
  /** fetch (default); raw: node:http with the request target sent as is; socket: `body` holds the whole request, which may be cut short. */
  transport?: "fetch" | "raw" | "socket";
  /** A hostile string that must never come back verbatim (reflected XSS). */
  reflect?: string;
  /** The answers this request may get; returns what is wrong, or null. */
  expect?: (outcome: Outcome) => string | null;
  /** After a redirect, also look at this page with the same client (e.g. a new account's header). */
  follow?: string;
};

type Outcome = { status: number; location: string | null; contentType: string; text: string };

type Context = {
  owner: Client;
  attacker: Client;
  ownerId: string;
  attackerId: string;
  ownerEmail: string;
  /**
   * An account the barrage signs in to with its right password, many times over: each success
   * starts a session, and past an account's 20 the one unused longest ends (it must not be the owner's).
   */
  travellerEmail: string;
  demoEmail: string;
  /** The owner's own article, the one post this file writes to on purpose. */
  post: { id: string; image: string };
  /** Articles of the demo author. */
  demo: { id: string; image: string }[];
  /** A PNG of 155 KB that declares 5 × 9,999,999 pixels. */
  bomb: Buffer;
};

const tally = new Map<number, number>();
let sent = 0;

function count(status: number) {
  sent++;
  tally.set(status, (tally.get(status) ?? 0) + 1);
}

function short(value: string | Buffer, max = 48): string {
  if (Buffer.isBuffer(value)) return `<${value.length} bytes ${value.subarray(0, 12).toString("hex")}${value.length > 12 ? "…" : ""}>`;
  const shown = JSON.stringify(value.length > max ? value.slice(0, max) : value);
  return value.length > max ? `${shown}…(${value.length} chars)` : shown;
}

const statusIn =
  (...codes: number[]) =>
  (o: Outcome) =>
    codes.includes(o.status) ? null : `expected ${codes.join("/")}, got ${o.status}${o.location ? ` → ${o.location}` : ""}`;

/** A write that must be refused: an error status, never a success or a redirect. */
const refused = (o: Outcome) => (o.status >= 400 ? null : `was not refused: ${o.status}${o.location ? ` → ${o.location}` : ""}`);

/** The owner's invalid edits: an error or the confirmation step, never the redirect of a done save or delete. */
const notDone = (o: Outcome) => (o.status >= 300 && o.status < 400 ? `was carried out: ${o.status} → ${o.location}` : null);

function both(...checks: ((o: Outcome) => string | null)[]) {
  return (o: Outcome) => checks.map((check) => check(o)).find((problem) => problem !== null) ?? null;
}

const isDangerous = (text: string) => text.length >= 16 && /<[a-z!/?]/i.test(text);

function sameSite(location: string): boolean {
  try {
    return new URL(location, base).origin === new URL(base).origin;
  } catch {
    return false;
  }
}

/** What every answer to every request must satisfy, plus the request's own expectation. */
function findings(attack: Attack, o: Outcome): string[] {
  const out: string[] = [];
  if (o.status >= 500) out.push(`answered ${o.status}: ${short(o.text, 120)}`);
  const leak = o.text.match(INTERNALS);
  if (leak) out.push(`leaks internals: ${short(o.text.slice(Math.max(0, leak.index! - 40), leak.index! + 80), 120)}`);
  if (o.status >= 300 && o.status < 400 && o.location !== null && !sameSite(o.location)) out.push(`redirects off-site to ${o.location}`);
  const isHtml = o.contentType.includes("html");
  if (attack.reflect && isHtml && isDangerous(attack.reflect) && o.text.includes(attack.reflect)) out.push(`reflects ${short(attack.reflect)} verbatim`);
  const own = attack.expect?.(o);
  if (own) out.push(own);
  return out;
}

// ---------------------------------------------------------------------------
// Three ways to send: fetch, node:http (request target as is), a bare socket
// ---------------------------------------------------------------------------

async function viaFetch(client: Client, attack: Attack): Promise<Outcome> {
  const response = await client.request(attack.path, {
    method: attack.method,
    // Uncompressed: spares both sides the work; the answers are the same.
    headers: { "Accept-Encoding": "identity", ...attack.headers },
    body: attack.body && new Uint8Array(attack.body),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT),
  });
  const contentType = response.headers.get("content-type") ?? "";
  const text = contentType.startsWith("image/") ? (await response.arrayBuffer(), "") : await response.text();
  // A single-fetch (.data) action answers a redirect with 202 and the redirect in its body: judge it as the redirect.
  const redirect = response.status === 202 ? text.match(/"redirect","((?:[^"\\]|\\.)*)","status",(\d{3})/) : null;
  if (redirect) return { status: Number(redirect[2]), location: JSON.parse(`"${redirect[1]}"`), contentType, text };
  return { status: response.status, location: response.headers.get("location"), contentType, text };
}

function viaRaw(client: Client, attack: Attack): Promise<Outcome> {
  const { hostname, port } = new URL(base);
  const headers: Record<string, string> = { ...attack.headers };
  if (client.cookies.size && !Object.keys(headers).some((h) => h.toLowerCase() === "cookie")) headers.Cookie = client.cookieHeader();
  return new Promise((resolve, reject) => {
    const request = http.request({ host: hostname, port, method: attack.method, path: attack.path, headers, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("error", reject);
      response.on("end", () => {
        const contentType = response.headers["content-type"] ?? "";
        resolve({
          status: response.statusCode ?? 0,
          location: response.headers.location ?? null,
          contentType,
          text: contentType.startsWith("image/") ? "" : Buffer.concat(chunks).toString(),
        });
      });
    });
    request.setTimeout(REQUEST_TIMEOUT, () => request.destroy(new Error("no answer in time")));
    request.on("error", reject);
    request.end(attack.body);
  });
}

/** Send bytes as they are and half-close; an answer may come, or the server may just close (status 0). */
function viaSocket(attack: Attack): Promise<Outcome> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const socket = net.connect(Number(port), hostname, () => {
      socket.write(attack.body!);
      socket.end();
    });
    socket.setTimeout(SOCKET_WAIT, () => socket.destroy());
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("error", () => {});
    socket.on("close", () => {
      const raw = Buffer.concat(chunks).toString();
      const headEnd = raw.indexOf("\r\n\r\n");
      const head = headEnd >= 0 ? raw.slice(0, headEnd) : raw;
      resolve({
        status: Number(raw.match(/^HTTP\/1\.[01] (\d{3})/)?.[1] ?? 0),
        location: head.match(/\r\nlocation: *([^\r\n]*)/i)?.[1] ?? null,
        contentType: head.match(/\r\ncontent-type: *([^\r\n]*)/i)?.[1] ?? "",
        text: headEnd >= 0 ? raw.slice(headEnd + 4) : "",
      });
    });
  });
}

async function runOne(attack: Attack, ctx: Context): Promise<string[]> {
  const client = attack.actor === "anon" ? new Client(base) : ctx[attack.actor];
  const label = `${attack.method} ${short(attack.path, 110)} as ${attack.actor} [${attack.family}: ${attack.note}]`;
  let outcome: Outcome;
  try {
    outcome =
      attack.transport === "socket" ? await viaSocket(attack) : attack.transport === "raw" ? await viaRaw(client, attack) : await viaFetch(client, attack);
  } catch (error) {
    count(0);
    // node:http may see the connection closed after an answer to a malformed request; fetch requests must be answered,
    // unless the body is over the site's limit: the server answers 413 and closes without reading it, and fetch may fail writing it.
    const refusedUnread = (attack.body?.length ?? 0) > MAX_BODY_BYTES;
    if (attack.transport === "raw" || refusedUnread) return [];
    // What the connection saw (undici puts it in the cause): a reset, a close, or this test's own time limit.
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return [`${label}: no answer (${(error as Error).message}${cause ? `: ${cause.code ?? ""} ${cause.message ?? ""}` : ""})`];
  }
  count(outcome.status);
  const problems = findings(attack, outcome).map((p) => `${label}: ${p}`);
  if (attack.follow && outcome.status >= 300 && outcome.status < 400) {
    const next: Attack = { ...attack, method: "GET", path: attack.follow, body: undefined, headers: {}, transport: "fetch", expect: statusIn(200) };
    const followed = await viaFetch(client, next);
    count(followed.status);
    problems.push(...findings(next, followed).map((p) => `${label}, then GET ${attack.follow}: ${p}`));
  }
  return problems;
}

/** Run the attacks `CONCURRENCY` at a time; every finding, with the request that caused it. */
async function barrage(attacks: Attack[], ctx: Context): Promise<string[]> {
  const problems: string[] = [];
  let next = 0;
  const worker = async () => {
    while (next < attacks.length) problems.push(...(await runOne(attacks[next++], ctx)));
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return problems;
}

// ---------------------------------------------------------------------------
// Hostile values and encodings
// ---------------------------------------------------------------------------

type Value = { value: string | Buffer; note: string };

const SPECIALS = ["", " ", "null", "undefined", "[object Object]", "NaN", "-1", "0", "1e309", "true", "{}", "[]", "__proto__", "constructor", "toString", "%00", "%", "&", "=", "+", "%2B", "\\u0000"];
const LIMITS = ["-1", "0", "1", "8", "9", "10", "18", "27", "180", "181", "1000", "1e9", "9e999", "NaN", "Infinity", "-Infinity", "0x1b", "18abc", " 18", "٣", "１８", "99999999999999999999999", "-9007199254740993", "9.5", "", "null", "[]", "' OR 1=1 --", "%00", "\u0000"];
const REDIRECTS = [
  "//evil.example",
  "https://evil.example",
  "/\\evil.example",
  "\\\\evil.example",
  "javascript:alert(1)",
  "/%2F%2Fevil.example",
  "  //evil.example",
  "/\t/evil.example",
  "data:text/html,<script>alert(1)</script>",
  "/posts?x=<script>alert(document.cookie)</script>",
  "http:evil.example",
  "/%0d%0aSet-Cookie:x=1",
  "/\r\nLocation: https://evil.example",
  "/%5Cevil.example",
  "/.evil.example",
  "/.//evil.example/x",
  "/././/evil.example",
  "/a/..//evil.example",
  "/%2e//evil.example/x",
  "/%2E%2E//evil.example",
  "/%2f%2fevil.example/x",
  "/%5c%5cevil.example",
  "/\n/evil.example",
  "/%09/evil.example",
  "/\u0000//evil.example",
];

function text(kind: string, value: string): Value {
  return { value, note: `${kind} ${short(value)}` };
}

/** Oversized values are rare (2%) and at most `maxSize` characters. */
function hostileValue(maxSize = 350_000): Value {
  if (rng.chance(0.02)) {
    const size = rng.between(Math.min(2_000, maxSize), maxSize);
    const unit = rng.pick(["x", "é", "😀", "<script>alert(1)</script>", "' OR 1=1 -- ", "\u0301", "%"]);
    return { value: unit.repeat(Math.ceil(size / unit.length)).slice(0, size), note: `${size} chars of ${short(unit)}` };
  }
  switch (rng.int(9)) {
    case 0:
    case 1:
      return text("xss", rng.pick(XSS_PAYLOADS));
    case 2:
      return text("sql", rng.pick(SQL_PAYLOADS));
    case 3:
      return text("unicode", rng.pick(UNICODE_EDGES));
    case 4: {
      const trick = rng.pick(BYTE_TRICKS);
      return { value: trick.bytes, note: trick.note };
    }
    case 5:
      return text("tag lookalike", rng.pick(tagLookalikes(rng.pick(TAGS))));
    case 6:
      return text("random", rng.text(rng.between(1, 300)));
    case 7:
      return text("special", rng.pick(SPECIALS));
    default:
      return text("mixed", rng.pick(XSS_PAYLOADS) + rng.pick(SQL_PAYLOADS) + rng.pick(UNICODE_EDGES));
  }
}

const textOf = (v: Value) => (typeof v.value === "string" ? v.value : undefined);

/** Every byte percent-encoded, even letters. */
function encodeAll(value: string): string {
  return [...Buffer.from(value)].map((b) => `%${b.toString(16).toUpperCase().padStart(2, "0")}`).join("");
}

/** Fields a mass-assignment bug would pick up. */
function craftedFields(ctx: Context): Field[] {
  const all: Field[] = [
    ["authorId", ctx.attackerId],
    ["author_id", ctx.attackerId],
    ["authorId", ctx.ownerId],
    ["isAdmin", "1"],
    ["is_admin", "true"],
    ["isAdmin", "on"],
    ["role", "admin"],
    ["admin", "yes"],
    ["userId", ctx.ownerId],
    ["user_id", ctx.ownerId],
    ["id", ctx.demo[0].id],
    ["postId", ctx.post.id],
    ["image", ctx.demo[0].image],
    ["created_at", "0"],
    ["createdAt", "-1"],
    ["__proto__[isAdmin]", "true"],
    ["constructor[prototype][isAdmin]", "true"],
    ["user[isAdmin]", "1"],
    ["_method", "DELETE"],
  ];
  return rng.some(all, rng.between(1, 5));
}

/** Repeat, rename to `name[]`, drop, add crafted fields, shuffle: the shapes a form parser must survive. */
function mischief(fields: Field[], ctx: Context): { fields: Field[]; note: string } {
  const out = [...fields];
  const notes: string[] = [];
  if (out.length && rng.chance(0.2)) {
    const [name] = out[rng.int(out.length)];
    const v = hostileValue(20_000);
    out.push([name, v.value]);
    notes.push(`repeated ${name} (${v.note})`);
  }
  if (out.length && rng.chance(0.15)) {
    const i = rng.int(out.length);
    notes.push(`${out[i][0]} as ${out[i][0]}[]`);
    out[i] = [`${out[i][0]}[]`, out[i][1]];
  }
  if (out.length && rng.chance(0.1)) notes.push(`without ${out.splice(rng.int(out.length), 1)[0][0]}`);
  if (rng.chance(0.25)) {
    const crafted = craftedFields(ctx);
    out.push(...crafted);
    notes.push(`+${crafted.map(([n]) => n).join(",")}`);
  }
  if (rng.chance(0.1)) {
    out.sort(() => rng.next() - 0.5);
    notes.push("shuffled");
  }
  return { fields: out, note: notes.join(" ") };
}

const toParts = (fields: Field[]): Part[] => fields.map(([name, body]) => ({ name, body }));

function boundary(): string {
  return `----hostile${rng.int(1e9)}`;
}

type Encoded = { contentType?: string; body: Buffer; note: string };

/** A multipart body broken in one of the ways real clients, proxies and attackers break them. */
function brokenMultipart(parts: Part[]): Encoded {
  const b = boundary();
  const ok = `multipart/form-data; boundary=${b}`;
  const some = parts.length ? parts : [{ name: "title", body: "x" }];
  switch (rng.int(20)) {
    case 0:
      return { contentType: `multipart/form-data; boundary=x${b}`, body: multipart(b, some), note: "boundary differs from the body's" };
    case 1:
      return { contentType: ok, body: multipart(b, some, { close: false }), note: "no final boundary" };
    case 2: {
      const whole = multipart(b, some);
      const cut = rng.between(1, whole.length - 1);
      return { contentType: ok, body: whole.subarray(0, cut), note: `cut at byte ${cut} of ${whole.length}` };
    }
    case 3:
      return { contentType: ok, body: multipart(b, some.map((p, i) => (i === 0 ? { ...p, headers: "Content-Disposition: form-data" } : p))), note: "part header without name" };
    case 4:
      return { contentType: ok, body: multipart(b, some.map((p) => ({ ...p, headers: "Content-Type: text/plain" }))), note: "parts without Content-Disposition" };
    case 5: {
      const size = rng.between(9_000, 200_000);
      const huge = { headers: `Content-Disposition: form-data; name="title"; filename="${"A".repeat(size)}"`, body: "x" };
      return { contentType: ok, body: multipart(b, [huge, ...some]), note: `part header of ${size} bytes` };
    }
    case 6:
      return { contentType: "multipart/form-data", body: multipart(b, some), note: "no boundary parameter" };
    case 7:
      return { contentType: "multipart/form-data; boundary=", body: multipart("", some), note: "empty boundary" };
    case 8: {
      const long = "b".repeat(rng.between(71, 2_000));
      return { contentType: `multipart/form-data; boundary=${long}`, body: multipart(long, some), note: `boundary of ${long.length} chars` };
    }
    case 9:
      return { contentType: ok, body: multipart(b, some, { newline: "\n" }), note: "LF line ends" };
    case 10: {
      const many = Array.from({ length: 100 }, (_, i) => some[i % some.length]);
      return { contentType: ok, body: multipart(b, many), note: "100 parts" };
    }
    case 11: {
      const inner = boundary();
      const nested = { headers: `Content-Disposition: form-data; name="title"\r\nContent-Type: multipart/mixed; boundary=${inner}`, body: multipart(inner, some) };
      return { contentType: ok, body: multipart(b, [nested]), note: "nested multipart/mixed" };
    }
    case 12: {
      const body = Buffer.concat([Buffer.from("preamble junk \u0000\r\n"), multipart(b, some), Buffer.from("epilogue --junk")]);
      return { contentType: ok, body, note: "preamble and epilogue" };
    }
    case 13: {
      const body = Buffer.from(`--${b}\r\nContent-Disposition: form-data; name="title"\r\nnot a header, no blank line x\r\n--${b}--\r\n`);
      return { contentType: ok, body, note: "header block not terminated" };
    }
    case 14: {
      const headers = Buffer.concat([Buffer.from('Content-Disposition: form-data; name="ti'), Buffer.from([0x00, 0xff, 0xc0, 0xaf]), Buffer.from('tle"')]);
      return { contentType: ok, body: multipart(b, [{ headers, body: "x" }, ...some]), note: "NUL and invalid UTF-8 in a part header" };
    }
    case 15: {
      const sneaky = { headers: `Content-Disposition: form-data; name="title\\"; name=\\"content"; filename*=UTF-8''%ED%A0%80%C0%AF`, body: "x" };
      return { contentType: ok, body: multipart(b, [sneaky, ...some]), note: "quoted name injection, filename* with a lone surrogate" };
    }
    case 16: {
      const encoded = some.map((p) => ({ headers: `Content-Disposition: form-data; name="${p.name}"\r\nContent-Transfer-Encoding: base64\r\nContent-Type: text/plain; charset=utf-16`, body: Buffer.from(Buffer.from(String(p.body)).toString("base64")) }));
      return { contentType: ok, body: multipart(b, encoded), note: "base64 and UTF-16 parts" };
    }
    case 17:
      return { contentType: `multipart/form-data; boundary="${b} x"`, body: multipart(`${b} x`, some), note: "quoted boundary with a space" };
    case 18:
      return { contentType: `multipart/form-data; boundary=${b}; boundary=other`, body: multipart(b, some), note: "boundary given twice" };
    default:
      return { contentType: ok, body: Buffer.alloc(0), note: "empty body" };
  }
}

/** The fields sent with the wrong Content-Type, in the wrong encoding, or not quite urlencoded. */
function oddEncoding(fields: Field[]): Encoded {
  const plain = urlencoded(fields);
  switch (rng.int(14)) {
    case 0:
      return { contentType: "text/plain", body: plain, note: "text/plain" };
    case 1:
      return { contentType: "application/json", body: Buffer.from(JSON.stringify(Object.fromEntries(fields.map(([k, v]) => [k, v.toString()])))), note: "JSON" };
    case 2:
      return { contentType: undefined, body: plain, note: "no Content-Type" };
    case 3:
      return { contentType: `${URLENC}; charset=utf-16le`, body: Buffer.from(plain.toString("latin1"), "utf16le"), note: "UTF-16LE body" };
    case 4: {
      const raw = Buffer.concat(fields.flatMap(([k, v], i) => [Buffer.from(`${i ? "&" : ""}${k}=`), Buffer.isBuffer(v) ? v : Buffer.from(v)]));
      return { contentType: URLENC, body: Buffer.concat([raw, Buffer.from("&x="), rng.pick(BYTE_TRICKS).bytes]), note: "raw bytes, not percent-encoded" };
    }
    case 5:
      return { contentType: URLENC, body: Buffer.concat([plain, Buffer.from("&x=%&y=%zz&z=%E0%A4%A&%ED%A0%80=%C0%AF&&&=&a=b=c")]), note: "broken percent-escapes" };
    case 6:
      return { contentType: "multipart/form-data", body: plain, note: "multipart without boundary, urlencoded body" };
    case 7: {
      const b = boundary();
      return { contentType: URLENC, body: multipart(b, toParts(fields)), note: "urlencoded type, multipart body" };
    }
    case 8:
      return brokenMultipart(toParts(fields));
    case 9:
      return { contentType: `${URLENC}; charset=evil`, body: plain, note: "unknown charset" };
    case 10:
      return { contentType: URLENC, body: Buffer.concat([Buffer.from("a=1&".repeat(5_000)), plain]), note: "5,000 extra fields" };
    case 11: {
      const b = boundary();
      return { contentType: `multipart/mixed; boundary=${b}`, body: multipart(b, toParts(fields)), note: "multipart/mixed" };
    }
    case 12:
      return { contentType: "application/xml", body: Buffer.from('<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><form>&e;</form>'), note: "XML with an external entity" };
    default:
      return { contentType: URLENC, body: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), plain]), note: "UTF-8 BOM" };
  }
}

/** The same action as JavaScript-enhanced forms call it (`/route.data`), for a share of the requests: no page is rendered. */
function maybeData(target: string, p = 0.7): string {
  if (!rng.chance(p)) return target;
  const q = target.indexOf("?");
  return q < 0 ? `${target}.data` : `${target.slice(0, q)}.data${target.slice(q)}`;
}

function postHeaders(contentType?: string, extra: Record<string, string> = {}): Record<string, string> {
  return { ...(contentType ? { "Content-Type": contentType } : {}), Origin: base, ...extra };
}

// ---------------------------------------------------------------------------
// Attack families
// ---------------------------------------------------------------------------

function listAnswer(o: Outcome): string | null {
  if (o.status === 414 || o.status === 431) return null;
  if (o.status !== 200) return `expected 200, got ${o.status}`;
  const cards = o.text.split('class="card card-c').length - 1;
  return cards <= MAX_CARDS ? null : `${cards} cards, more than ${MAX_CARDS}`;
}

/** GET /posts?tag=&limit= (and its .data twin) with hostile, repeated, array and lookalike values. */
function listQuery(): Attack {
  const params: string[] = [];
  let note: string;
  let reflect: string | undefined;
  switch (rng.int(7)) {
    case 0: {
      const v = hostileValue(12_000);
      params.push(`tag=${pct(v.value)}`);
      note = `tag ${v.note}`;
      reflect = textOf(v);
      break;
    }
    case 1: {
      const lookalike = rng.pick(tagLookalikes(rng.pick(TAGS)));
      params.push(`tag=${pct(lookalike)}`);
      note = `tag lookalike ${short(lookalike)}`;
      break;
    }
    case 2:
      params.push(`tag[]=${pct(rng.pick(TAGS))}`);
      note = "tag[]";
      break;
    case 3: {
      const v = hostileValue(2_000);
      params.push(`tag=${pct(rng.pick(TAGS))}`, `tag=${pct(v.value)}`);
      note = `tag repeated, then ${v.note}`;
      break;
    }
    case 4:
      params.push(`tag=${pct(rng.pick(TAGS))}`);
      note = "a real tag";
      break;
    case 5:
      params.push(rng.pick(["tag", "tag=", "tag=%20"]));
      note = "empty tag";
      break;
    default:
      note = "no tag";
  }
  if (rng.chance(0.7)) {
    const limit = rng.pick(LIMITS);
    params.push(`limit=${pct(limit)}`);
    note += `, limit ${short(limit)}`;
  }
  if (rng.chance(0.1)) params.push(rng.pick(["_data=routes%2Fposts", "index", "edit", "__proto__%5Bx%5D=1", "limit[]=18", "limit=18&limit=-5"]));
  const data = rng.chance(0.8);
  const path = `/posts${data ? ".data" : ""}${params.length ? `?${params.join("&")}` : ""}`;
  return { family: "list query", note, actor: rng.chance(0.8) ? "anon" : "attacker", method: "GET", path, reflect, expect: data ? undefined : listAnswer };
}

/** GET /posts/:postId with hostile ids, and other users' articles in edit mode. */
function postPage(ctx: Context): Attack {
  const real = rng.pick([ctx.post, ...ctx.demo]).id;
  let id: string;
  let note: string;
  let reflect: string | undefined;
  let existing = false;
  switch (rng.int(6)) {
    case 0: {
      const v = hostileValue(8_000);
      id = pct(v.value);
      note = `id ${v.note}`;
      reflect = textOf(v);
      break;
    }
    case 1: {
      const sql = rng.pick(SQL_PAYLOADS);
      id = pct(`${real}${sql}`);
      note = `real id + ${short(sql)}`;
      break;
    }
    case 2:
      id = encodeAll(real);
      note = "real id, every byte encoded";
      existing = true;
      break;
    case 3:
      id = `${real}${rng.pick(["%00", "%2F..%2F..", "%ED%A0%80", "%C0%AE", "%", "%zz", ".data%00"])}`;
      note = "real id + junk escape";
      break;
    case 4: {
      const odd = rng.pick(["..", ".", "%2e%2e", "..%2F..%2Fpackage.json", "' OR 1=1 --", "*", "%", "_", "null", "undefined", "__proto__", "constructor"]);
      id = pct(odd);
      note = `id ${short(odd)}`;
      break;
    }
    default:
      id = real;
      note = "real id";
      existing = true;
  }
  const query = rng.pick(["?edit", "?edit=1", "", `?tag=${pct(hostileValue(4_000).value)}&limit=${pct(rng.pick(LIMITS))}`, "?edit&tag=Morava&limit=-1", "?edit[]=1"]);
  const noEditForm = (o: Outcome) => (/<textarea[^>]*name="content"/.test(o.text) ? "shows the edit form to someone who may not edit" : null);
  return {
    family: "article page",
    note: `${note} ${short(query)}`,
    actor: rng.chance(0.6) ? "anon" : "attacker",
    method: "GET",
    path: maybeData(`/posts/${id}${query}`, 0.6),
    reflect,
    // 301: express.static adds a slash to /posts/<id>%2F..%2F.. (a directory once decoded); it serves nothing there.
    expect: both(existing ? statusIn(200, 414, 431) : statusIn(200, 301, 400, 404, 414, 431), noEditForm),
  };
}

/** An image, a page of the site (`/images/..` is `/`), or a refusal; never any other file. */
function imageAnswer(o: Outcome): string | null {
  if (o.status >= 200 && o.status < 300 && !/^(image\/(jpeg|webp)|text\/html)/.test(o.contentType)) return `served ${o.status} ${o.contentType || "without a type"}`;
  if (SECRETS.test(o.text)) return `served a private file: ${short(o.text, 80)}`;
  return null;
}

/** GET /images/… with traversal in every spelling, long names and junk; sent raw so nothing normalises the path. */
function imageRequests(ctx: Context, n: number): Attack[] {
  const attacks: Attack[] = IMAGE_TRAVERSALS.map((p) => ({ family: "image path", note: "listed traversal", actor: "anon", method: "GET", path: p, transport: "raw", expect: imageAnswer }));
  const keys = [ctx.post.image, ...ctx.demo.map((d) => d.image)];
  while (attacks.length < n) {
    const key = rng.pick(keys);
    const name = `${key}-${rng.pick(["400", "800", "1200"])}.${rng.pick(["jpg", "webp"])}`;
    const variants: [string, string, Record<string, string>?][] = [
      [`/images/${name}`, "a real variant"],
      [`/images/${name}/../../../package.json`, "real name then ../"],
      [`/images/${name}%2F..%2F..%2Fpackage.json`, "real name then encoded ../"],
      [`/images/${encodeAll(name)}`, "real name, every byte encoded"],
      [`/images/${encodeAll(name).replace(/%/g, "%25")}`, "real name double-encoded"],
      [`/images/${name}%00.html`, "real name + NUL"],
      [`/images/${name}\\..\\..\\package.json`, "real name then backslashes"],
      [`/images/..%2F${name}`, "encoded ../ before a real name"],
      [`/images/${"A".repeat(rng.between(17, 6_000))}-400.jpg`, "very long name"],
      [`/images/${pct(rng.bytes(rng.between(1, 200)))}`, "random bytes"],
      [`/images/${key}`, "bare key"],
      [`/images/${key.toUpperCase()}-400.jpg`, "key in capitals"],
      [`/images/${pct(rng.pick(XSS_PAYLOADS))}`, "XSS as the name"],
      [`/images/${pct(rng.pick(SQL_PAYLOADS))}-400.jpg`, "SQL as the name"],
      [`/images/${name}?${pct(rng.pick(XSS_PAYLOADS))}`, "XSS in the query"],
      [`/images/${name}`, "hostile Range", { Range: rng.pick(["bytes=-1-", "bytes=999999999-", "bytes=0-0,".repeat(200) + "0-0", "bytes=a-b", "lines=1-2"]) }],
    ];
    const [p, note, headers] = rng.pick(variants);
    attacks.push({ family: "image path", note, actor: rng.chance(0.8) ? "anon" : "attacker", method: rng.chance(0.1) ? "HEAD" : "GET", path: p, headers, transport: "raw", expect: note === "a real variant" ? both(statusIn(200), imageAnswer) : imageAnswer });
  }
  return attacks;
}

/** Sources, configuration and the database must never be served, however the path is spelled. */
function privateFileRequests(): Attack[] {
  const notServed = both(statusIn(400, 403, 404), (o) => (SECRETS.test(o.text) ? "served a private file" : null));
  return PRIVATE_FILES.map((p): Attack => ({ family: "private file", note: "raw target", actor: "anon", method: "GET", path: p, transport: "raw", expect: notServed }));
}

function accountPath(): { path: string; note: string } {
  if (!rng.chance(0.3)) return { path: "/signinsignup", note: "" };
  const target = rng.pick(REDIRECTS);
  return { path: `/signinsignup?${rng.pick(["", "forgot&", "mode=register&"])}redirectTo=${pct(target)}`, note: `, redirectTo ${short(target)}` };
}

/** E-mails that look like the owner's but are not; with the right password they must still not sign in. */
function emailLookalikes(email: string): string[] {
  return [`${email}\u200B`, email.replace("@", "＠"), email.replace("e", "\u0435"), `${email}\u0000`, `${email}' --`, `${email}%`, email.replace(/\./, "_"), `' OR email LIKE '%${email.slice(-12)}' --`];
}

/**
 * Every sign-in costs the server a bcrypt comparison (~0.2 s of CPU) until the account is throttled
 * (10 failures): most attempts go to the owner's account, so only the first few cost that much.
 */
function signInAttempt(ctx: Context): Attack {
  const roll = rng.next();
  const lookalike = roll < 0.15;
  const email: Value = lookalike
    ? text("owner lookalike", rng.pick(emailLookalikes(ctx.ownerEmail)))
    : roll < 0.85
      ? text("known e-mail", rng.pick([ctx.ownerEmail, ctx.ownerEmail.toUpperCase(), ` ${ctx.ownerEmail} `, `${ctx.ownerEmail}\t`]))
      : hostileValue(20_000);
  const password: Value = lookalike ? { value: GOOD_PASSWORD, note: "the owner's password" } : hostileValue(20_000);
  const fields: Field[] = [["intent", "signin"], ["email", email.value], ["password", password.value]];
  if (rng.chance(0.3)) fields.push(["remember", rng.pick(["on", "off", "1", "' OR 1=1", ""])]);
  if (rng.chance(0.2)) fields.push(["redirectTo", rng.pick(REDIRECTS)]);
  const shaped = mischief(fields, ctx);
  const { path, note } = accountPath();
  return {
    family: "sign-in",
    note: `email ${email.note}, password ${password.note}${note} ${shaped.note}`,
    actor: "anon",
    method: "POST",
    path: maybeData(path),
    headers: postHeaders(URLENC),
    body: urlencoded(shaped.fields),
    reflect: textOf(email),
    expect: statusIn(400, 429),
  };
}

const SHORT_NAMES = [...XSS_PAYLOADS, ...UNICODE_EDGES, ...SQL_PAYLOADS].filter((name) => name.trim().length > 0 && name.length <= 50);

function registerAttempt(ctx: Context): Attack {
  const { path, note } = accountPath();
  if (rng.chance(0.12)) {
    // Valid, with a weird display name and mass-assignment bait: accepted, but never as an admin.
    const displayName = rng.pick(SHORT_NAMES);
    const email = rng.chance(0.3) ? uniqueEmail("o'hara+%_\\") : uniqueEmail("hostile");
    const fields: Field[] = [["intent", "register"], ["displayName", displayName], ["email", email], ["password", GOOD_PASSWORD], ["confirmPassword", GOOD_PASSWORD], ...craftedFields(ctx)];
    return { family: "register", note: `valid, display name ${short(displayName)}${note}`, actor: "anon", method: "POST", path: maybeData(path, 0.5), headers: postHeaders(URLENC), body: urlencoded(fields), reflect: displayName, expect: statusIn(303, 400, 429), follow: "/" };
  }
  const displayName = hostileValue(20_000);
  const email = rng.chance(0.5) ? text("known e-mail", rng.pick([ctx.ownerEmail, ctx.ownerEmail.toUpperCase(), ctx.demoEmail])) : hostileValue(20_000);
  const password = rng.chance(0.5) ? hostileValue(20_000) : text("good", GOOD_PASSWORD);
  const confirm = rng.chance(0.5) ? password : hostileValue(1_000);
  const shaped = mischief([["intent", "register"], ["displayName", displayName.value], ["email", email.value], ["password", password.value], ["confirmPassword", confirm.value]], ctx);
  return {
    family: "register",
    note: `name ${displayName.note}, email ${email.note}, password ${password.note}${note} ${shaped.note}`,
    actor: "anon",
    method: "POST",
    path: maybeData(path),
    headers: postHeaders(URLENC),
    body: urlencoded(shaped.fields),
    reflect: textOf(displayName) ?? textOf(email),
    expect: statusIn(303, 400, 429),
  };
}

function forgotAttempt(ctx: Context): Attack {
  const email = rng.chance(0.3) ? text("known e-mail", rng.pick([ctx.ownerEmail, ctx.demoEmail, ...emailLookalikes(ctx.ownerEmail)])) : hostileValue(20_000);
  const shaped = mischief([["intent", "forgot"], ["email", email.value]], ctx);
  return {
    family: "forgot password",
    note: `email ${email.note} ${shaped.note}`,
    actor: "anon",
    method: "POST",
    path: maybeData(rng.chance(0.5) ? "/signinsignup?forgot" : accountPath().path),
    headers: postHeaders(URLENC),
    body: urlencoded(shaped.fields),
    reflect: textOf(email),
    expect: both(statusIn(303, 400, 429), (o) => (o.status === 303 && o.location !== "/signinsignup" ? `went to ${o.location}` : null)),
  };
}

function oddIntent(): Attack {
  const intents: [string, Field[]][] = [
    ["no intent", []],
    ["empty intent", [["intent", ""]]],
    ["SIGNIN", [["intent", "SIGNIN"]]],
    ["'signin '", [["intent", "signin "]]],
    ["' register'", [["intent", " register"]]],
    ["signin+NUL", [["intent", "signin\u0000"]]],
    ["forgot+ZWSP", [["intent", "forgot\u200B"]]],
    ["save", [["intent", "save"]]],
    ["admin", [["intent", "admin"]]],
    ["__proto__", [["intent", "__proto__"]]],
    ["intent[]=signin", [["intent[]", "signin"]]],
    ["unknown then signin", [["intent", "nope"], ["intent", "signin"]]],
    ["hostile", [["intent", hostileValue(5_000).value]]],
  ];
  const [label, intent] = rng.pick(intents);
  const fields: Field[] = [...intent, ["email", hostileValue(5_000).value], ["password", hostileValue(5_000).value], ["displayName", hostileValue(5_000).value]];
  return { family: "odd intent", note: label, actor: "anon", method: "POST", path: maybeData(accountPath().path), headers: postHeaders(URLENC), body: urlencoded(fields), expect: statusIn(400) };
}

function accountForm(ctx: Context): Attack {
  const roll = rng.int(20);
  if (roll < 3) return signInAttempt(ctx);
  if (roll < 9) return registerAttempt(ctx);
  if (roll < 13) return forgotAttempt(ctx);
  return oddIntent();
}

/** The reset link with junk tokens: never a usable form, never a changed password. */
function resetAttempt(): Attack {
  const token = rng.chance(0.3) ? text("token-shaped", Buffer.from(rng.bytes(32)).toString("base64url")) : hostileValue(8_000);
  const query = rng.pick([`?token=${pct(token.value)}`, `?token[]=${pct(token.value)}`, `?token=a&token=${pct(token.value)}`, "", "?token"]);
  if (rng.chance(0.4)) {
    const noForm = (o: Outcome) => (/name="password"/.test(o.text) ? "offers a new-password form for a junk token" : null);
    return { family: "reset link", note: `token ${token.note} ${short(query, 20)}`, actor: "anon", method: "GET", path: `/reset-password${query}`, reflect: textOf(token), expect: both(statusIn(200, 414, 431), noForm) };
  }
  // A valid new password costs a bcrypt hash even with a junk token: a few only.
  const password = rng.chance(0.1) ? text("valid", "nove-heslo-123") : hostileValue(20_000);
  const fields: Field[] = [["password", password.value], ["confirmPassword", rng.chance(0.8) ? password.value : hostileValue(1_000).value]];
  if (rng.chance(0.4)) fields.push(["token", token.value]);
  const encoded = rng.chance(0.8) ? { contentType: URLENC, body: urlencoded(fields), note: "urlencoded" } : oddEncoding(fields);
  return { family: "reset password", note: `token ${token.note}, password ${password.note}, ${encoded.note}`, actor: "anon", method: "POST", path: maybeData(`/reset-password${query}`), headers: postHeaders(encoded.contentType), body: encoded.body, expect: refused };
}

const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Files that are not a JPEG or PNG the server can decode: none may be stored. */
function junkImage(): { part: Part; note: string } {
  const kinds: [string, () => Buffer][] = [
    ["text", () => Buffer.from("Toto nie je obrázok.")],
    ["JPEG magic + noise", () => Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), rng.bytes(rng.between(10, 4_000))])],
    ["JPEG magic + script", () => Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), Buffer.from("<script>alert(1)</script>")])],
    ["PNG magic + noise", () => Buffer.concat([PNG_MAGIC, rng.bytes(rng.between(10, 4_000))])],
    ["PNG 65535² header, bad CRC", () => Buffer.concat([PNG_MAGIC, Buffer.from("0000000d49484452ffff0000ffff0000080600000000000000", "hex")])],
    ["GIF", () => Buffer.from("GIF89a\x01\x00\x01\x00\x00\x00\x00;")],
    ["SVG with script", () => Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(1)</script></svg>')],
    ["HTML", () => Buffer.from("<!doctype html><script>alert(document.cookie)</script>")],
    ["PDF", () => Buffer.from("%PDF-1.4\n%âãÏÓ\n1 0 obj\n")],
    ["empty", () => Buffer.alloc(0)],
    ["random bytes", () => rng.bytes(rng.between(1, 60_000))],
    ["ZIP", () => Buffer.from("PK\u0003\u0004\u0014\u0000\u0000\u0000")],
  ];
  const [kind, make] = rng.pick(kinds);
  const filename = rng.pick(["obrazok.jpg", "../../../etc/passwd", "..\\..\\server.js", "x.jpg\u0000.php", "<img src=x onerror=alert(1)>.jpg", "%2e%2e%2f.png", "", `${"a".repeat(300)}.png`, "obrázok 😀.png", "\u202Egpj.exe", "CON.jpg"]);
  const contentType = rng.pick(["image/jpeg", "image/png", "image/svg+xml", "text/html", "application/octet-stream", "image/jpeg; charset=<script>"]);
  return { part: { name: "image", filename, contentType, body: make() }, note: `image ${kind} as ${short(filename, 24)} (${contentType})` };
}

/** The create-post fields, some of them hostile; never a valid image, so nothing may be stored. */
function postParts(ctx: Context): { parts: Part[]; note: string; reflect?: string } {
  const notes: string[] = [];
  const title = rng.chance(0.6) ? hostileValue() : text("valid", "Bitka pri Moháči");
  const content = rng.chance(0.6) ? hostileValue() : text("valid", "Text článku.");
  notes.push(`title ${title.note}`, `content ${content.note}`);
  const parts: Part[] = [{ name: rng.chance(0.1) ? "title[]" : "title", body: title.value }, { name: "content", body: content.value }];
  const tagCount = rng.between(0, 7);
  const tags = Array.from({ length: tagCount }, () => (rng.chance(0.5) ? rng.pick(TAGS) : rng.chance(0.5) ? rng.pick(tagLookalikes(rng.pick(TAGS))) : hostileValue(5_000).value));
  const tagName = rng.pick(["tags", "tags", "tags", "tags[]", "tags[0]", "tag"]);
  for (const tag of tags) parts.push({ name: tagName, body: tag });
  notes.push(`${tagCount} ${tagName}`);
  if (rng.chance(0.7)) {
    const image = junkImage();
    parts.push(image.part);
    notes.push(image.note);
  }
  if (rng.chance(0.4)) {
    const pending = rng.pick<Value>([
      text("another post's image key", ctx.post.image),
      text("a demo image key", rng.pick(ctx.demo).image),
      text("traversal key", "../../../package"),
      hostileValue(2_000),
    ]);
    parts.push({ name: "pendingImage", body: pending.value });
    notes.push(`pendingImage ${pending.note}`);
  }
  if (rng.chance(0.2)) {
    const crafted = craftedFields(ctx);
    parts.push(...toParts(crafted));
    notes.push(`+${crafted.map(([n]) => n).join(",")}`);
  }
  if (rng.chance(0.1)) parts.push({ name: "title", body: "Druhý nadpis" });
  return { parts, note: notes.join(", "), reflect: textOf(title) ?? textOf(content) };
}

/** POST /create-post as a signed-in user: well-formed multipart with hostile fields, or broken multipart. */
function createPostAttempt(ctx: Context, broken: boolean): Attack {
  const { parts, note, reflect } = postParts(ctx);
  const b = boundary();
  const encoded: Encoded = broken ? brokenMultipart(parts) : { contentType: `multipart/form-data; boundary=${b}`, body: multipart(b, parts), note: "well-formed" };
  return { family: broken ? "create-post broken body" : "create-post form", note: `${encoded.note}: ${note}`, actor: "attacker", method: "POST", path: maybeData("/create-post"), headers: postHeaders(encoded.contentType), body: encoded.body, reflect, expect: refused };
}

function createPostAnonymous(ctx: Context): Attack {
  const { parts, note } = postParts(ctx);
  const b = boundary();
  const toSignIn = (o: Outcome) => (o.status === 303 && o.location?.startsWith("/signinsignup") ? null : `expected 303 to sign-in, got ${o.status} ${o.location ?? ""}`);
  return { family: "create-post anonymous", note, actor: "anon", method: "POST", path: "/create-post", headers: postHeaders(`multipart/form-data; boundary=${b}`), body: multipart(b, parts), expect: toSignIn };
}

/** POST /create-post/image (the JavaScript upload): never a stored image. */
function imageUploadAttempt(): Attack {
  const image = junkImage();
  const parts = rng.chance(0.2) ? [image.part, image.part] : [image.part];
  const encoded = rng.chance(0.7) ? (() => { const b = boundary(); return { contentType: `multipart/form-data; boundary=${b}`, body: multipart(b, parts), note: "well-formed" }; })() : brokenMultipart(parts);
  const actor: Actor = rng.chance(0.8) ? "attacker" : "anon";
  return { family: "image upload", note: `${encoded.note}: ${image.note}`, actor, method: "POST", path: "/create-post/image", headers: postHeaders(encoded.contentType), body: encoded.body, expect: refused };
}

/** Another user, or a visitor, saves or deletes the owner's or the demo author's article, with mass-assignment bait. */
function othersPostAttempt(ctx: Context): Attack {
  const target = rng.chance(0.5) ? ctx.post : rng.pick(ctx.demo);
  const actor: Actor = rng.chance(0.7) ? "attacker" : "anon";
  const intent = rng.pick(["save", "delete"]);
  const fields: Field[] = [["intent", intent], ["title", "Ukradnutý nadpis"], ["content", "Ukradnutý text"], ["confirm", "yes"], ...craftedFields(ctx)];
  const [plainSuffix, pathNote] = rng.pick<[string, string]>([
    [target.id, "plain"],
    [`${target.id}?edit`, "?edit"],
    [`${target.id}?index`, "?index"],
    [`${target.id}/`, "trailing slash"],
    [encodeAll(target.id), "id fully encoded"],
    [`${target.id}?_method=DELETE`, "?_method=DELETE"],
    [`${target.id}?tag=Morava&limit=18`, "list state"],
    [`${target.id}.data`, ".data"],
    [`${target.id}%20`, "id + space"],
  ]);
  // Mostly as JavaScript sends it (.data): a refusal then renders no page.
  const suffix = pathNote === "plain" ? maybeData(plainSuffix, 0.6) : plainSuffix;
  const method = rng.chance(0.8) ? "POST" : rng.pick(["PUT", "PATCH", "DELETE"]);
  const extra = rng.chance(0.25) ? rng.pick<Record<string, string>>([{ "X-HTTP-Method-Override": "DELETE" }, { "X-User-Id": ctx.ownerId }, { "X-Forwarded-User": ctx.ownerEmail }, { Authorization: "Basic YWRtaW46YWRtaW4=" }, { "X-Remix-Admin": "1" }]) : {};
  const roll = rng.int(10);
  const encoded: Encoded =
    roll < 6
      ? { contentType: URLENC, body: urlencoded(fields), note: "urlencoded" }
      : roll < 8
        ? (() => { const b = boundary(); return { contentType: `multipart/form-data; boundary=${b}`, body: multipart(b, toParts(fields)), note: "multipart" }; })()
        : oddEncoding(fields);
  const whose = target === ctx.post ? "another user's post" : "a demo post";
  return {
    family: "someone else's post",
    note: `${intent} ${whose}, ${pathNote}, ${encoded.note}, +${fields.slice(4).map(([n]) => n).join(",")} ${Object.keys(extra).join(",")}`,
    actor,
    method,
    path: `/posts/${suffix}`,
    headers: postHeaders(encoded.contentType, extra),
    body: encoded.body,
    expect: suffix.includes(".data") ? refused : statusIn(403, 404, 405),
  };
}

/**
 * The owner's own edits that must be refused (blank, too long, unknown intent, unconfirmed delete), never a valid one.
 * When the body is `mangled` (broken multipart, odd encodings), a parser may drop, rename or shift fields (a BOM
 * glued to the first name, a part without a name): then only field sets with no save intent and no confirmed
 * delete anywhere, which no such change can make valid.
 */
function ownerInvalidFields(ctx: Context, mangled: boolean): { fields: Field[]; note: string } {
  const content = hostileValue();
  const safeIntent = (v: Value) => (typeof v.value === "string" && ["save", "delete"].includes(v.value) ? "bogus" : v.value);
  const validTitle = "Platný nadpis";
  let fields: Field[];
  let note: string;
  switch (mangled ? rng.pick([4, 5, 6, 8]) : rng.int(10)) {
    case 0: {
      const blank = rng.pick(["", "   ", "\t\n", "\uFEFF", "\u00A0\u3000"]);
      fields = [["intent", "save"], ["title", blank], ["content", content.value]];
      note = `blank title ${short(blank)}`;
      break;
    }
    case 1: {
      const long = `x${rng.pick(XSS_PAYLOADS)}`.padEnd(rng.between(92, 5_000), "x");
      fields = [["intent", "save"], ["title", long], ["content", content.value]];
      note = `title of ${long.length} chars`;
      break;
    }
    case 2: {
      const blank = rng.pick(["", " ", "\n\n", "\t"]);
      fields = [["intent", "save"], ["title", validTitle], ["content", blank]];
      note = `blank content ${short(blank)}`;
      break;
    }
    case 3: {
      const size = rng.between(30_001, 400_000);
      fields = [["intent", "save"], ["title", validTitle], ["content", rng.pick(["a", "<b>", "😀"]).repeat(size)]];
      note = `content of ${size}+ chars`;
      break;
    }
    case 4:
      fields = [["title", validTitle], ["content", content.value]];
      note = "no intent";
      break;
    case 5: {
      const intent = rng.chance(0.5) ? text("near miss", rng.pick(["SAVE", "save ", "save\u0000", "Save", "delete\u200B", "uložiť", "edit", "update", "__proto__"])) : hostileValue(2_000);
      fields = [["intent", safeIntent(intent)], ["title", validTitle], ["content", content.value], ["confirm", "yes"]];
      note = `intent ${intent.note}`;
      break;
    }
    case 6:
      fields = [["intent[]", "save"], ["title", validTitle], ["content", content.value]];
      note = "intent[]=save";
      break;
    case 7:
      fields = [["intent", "bogus"], ["intent", "save"], ["title", validTitle], ["content", content.value]];
      note = "intent bogus, then save";
      break;
    case 8: {
      const confirm = rng.pick<[string, Field[]]>([
        ["no confirm", []],
        ["confirm=no", [["confirm", "no"]]],
        ["confirm=YES", [["confirm", "YES"]]],
        ["confirm='yes '", [["confirm", "yes "]]],
        ["confirm=áno", [["confirm", "áno"]]],
        ["confirm=true", [["confirm", "true"]]],
        ["confirm[]=yes", [["confirm[]", "yes"]]],
        ["confirm=no, then yes", [["confirm", "no"], ["confirm", "yes"]]],
      ]);
      fields = [["intent", "delete"], ...confirm[1]];
      note = `delete, ${confirm[0]}`;
      break;
    }
    default:
      fields = [["intent", "save"], ["title", ""], ["title", validTitle], ["content", content.value]];
      note = "title blank, then valid";
  }
  if (rng.chance(0.3)) fields.push(...craftedFields(ctx).filter(([n]) => n !== "_method"));
  return { fields, note: `${note}, content ${content.note}` };
}

function ownerInvalidAttempt(ctx: Context): Attack {
  const roll = rng.int(20);
  const { fields, note } = ownerInvalidFields(ctx, roll >= 16);
  const encoded: Encoded =
    roll < 13
      ? { contentType: URLENC, body: urlencoded(fields), note: "urlencoded" }
      : roll < 16
        ? (() => { const b = boundary(); return { contentType: `multipart/form-data; boundary=${b}`, body: multipart(b, toParts(fields)), note: "multipart" }; })()
        : roll < 18
          ? brokenMultipart(toParts(fields))
          : oddEncoding(fields);
  const query = rng.pick(["", "?edit", `?tag=${pct(hostileValue(2_000).value)}&limit=${pct(rng.pick(LIMITS))}`]);
  return { family: "owner's invalid edit", note: `${note}, ${encoded.note}`, actor: "owner", method: "POST", path: maybeData(`/posts/${ctx.post.id}${query}`), headers: postHeaders(encoded.contentType), body: encoded.body, expect: notDone };
}

/** Same writes, but with a body no form parser should accept (wrong type, broken multipart), from other users: refused before reading. */
function odderBodies(ctx: Context): Attack {
  const targets: [string, Actor, string, Field[], (o: Outcome) => string | null][] = [
    ["sign-in", "anon", accountPath().path, [["intent", "signin"], ["email", ctx.ownerEmail], ["password", "zle-heslo-123"]], refused],
    ["reset", "anon", `/reset-password?token=${pct(hostileValue(200).value)}`, [["password", "nove-heslo-123"], ["confirmPassword", "nove-heslo-124"]], refused],
    ["sign-out", "anon", "/signout", [["x", "y"]], () => null],
    ["create-post", "attacker", "/create-post", [["title", "Nadpis"], ["content", "Text"], ["tags", "Morava"]], refused],
    ["image upload", "attacker", "/create-post/image", [["image", "not a file"]], refused],
    ["demo post", "attacker", `/posts/${rng.pick(ctx.demo).id}`, [["intent", "delete"], ["confirm", "yes"]], statusIn(403)],
  ];
  const [what, actor, p, fields, expectation] = rng.pick(targets);
  const encoded = oddEncoding(fields);
  const parsesForm = what === "sign-in" || what === "reset";
  return { family: "odd body", note: `${what}, ${encoded.note}`, actor, method: "POST", path: parsesForm ? maybeData(p) : p, headers: postHeaders(encoded.contentType), body: encoded.body, expect: expectation };
}

/** Every state-changing form, with a valid body, from another site: 403, and nothing happens. */
function crossSiteAttempts(ctx: Context, n: number): Attack[] {
  const port = new URL(base).port;
  const foreign: Record<string, string>[] = [
    { Origin: "https://evil.example" },
    { Origin: "null" },
    { Origin: `${base}.evil.example` },
    { Origin: `http://evil.example:${port}` },
    { Origin: `http://localhost:${port}` },
    { Origin: "http://dejiny.test.evil.example" },
    { Origin: "file://" },
    { Origin: base, "Sec-Fetch-Site": "cross-site" },
    { "Sec-Fetch-Site": "cross-site" },
    { "Sec-Fetch-Site": "same-site", Origin: "http://sub.evil.example" },
    { "Sec-Fetch-Site": "same-site" },
    { "Sec-Fetch-Site": "Same-Origin, cross-site" },
    { Origin: "https://evil.example", Referer: `${base}/posts` },
  ];
  const b = "----crosssite";
  const forms: [string, Actor, string, string, string, Buffer][] = [
    ["owner's valid save", "owner", "POST", `/posts/${ctx.post.id}`, URLENC, urlencoded([["intent", "save"], ["title", "Podvrhnutý nadpis"], ["content", "Podvrhnutý text"]])],
    ["owner's confirmed delete", "owner", "POST", `/posts/${ctx.post.id}`, URLENC, urlencoded([["intent", "delete"], ["confirm", "yes"]])],
    ["owner's save as PUT", "owner", "PUT", `/posts/${ctx.post.id}`, URLENC, urlencoded([["intent", "save"], ["title", "Podvrhnutý nadpis"], ["content", "Text"]])],
    ["owner's delete via .data", "owner", "POST", `/posts/${ctx.post.id}.data`, URLENC, urlencoded([["intent", "delete"], ["confirm", "yes"]])],
    ["owner's sign-out", "owner", "POST", "/signout", URLENC, Buffer.alloc(0)],
    ["owner's credentials", "anon", "POST", "/signinsignup", URLENC, urlencoded([["intent", "signin"], ["email", ctx.ownerEmail], ["password", GOOD_PASSWORD]])],
    ["new account", "anon", "POST", "/signinsignup", URLENC, urlencoded([["intent", "register"], ["displayName", "Cudzí"], ["email", uniqueEmail("csrf")], ["password", GOOD_PASSWORD], ["confirmPassword", GOOD_PASSWORD]])],
    ["reset request", "anon", "POST", "/signinsignup", URLENC, urlencoded([["intent", "forgot"], ["email", ctx.ownerEmail]])],
    ["new password", "anon", "POST", "/reset-password?token=abc", URLENC, urlencoded([["password", "nove-heslo-123"], ["confirmPassword", "nove-heslo-123"]])],
    ["create post", "attacker", "POST", "/create-post", `multipart/form-data; boundary=${b}`, multipart(b, [{ name: "title", body: "Cudzí" }, { name: "content", body: "Text" }, { name: "tags", body: "Morava" }])],
    ["image upload", "attacker", "POST", "/create-post/image", `multipart/form-data; boundary=${b}`, multipart(b, [junkImage().part])],
  ];
  return Array.from({ length: n }, () => {
    const headers = rng.pick(foreign);
    const [what, actor, method, p, contentType, body] = rng.pick(forms);
    return { family: "cross-site", note: `${what} with ${JSON.stringify(headers)}`, actor, method, path: p, headers: { "Content-Type": contentType, ...headers }, body, expect: method === "POST" ? statusIn(403) : statusIn(403, 405) };
  });
}

/** Forged, tampered, oversized and garbled session cookies: never anyone's session. */
function cookieAttempt(ctx: Context): Attack {
  const session = ctx.owner.cookies.get("dejiny_session") ?? "x";
  const tampered = session.slice(0, 5) + (session[5] === "A" ? "B" : "A") + session.slice(6);
  const [note, cookie, raw] = rng.pick<[string, string, boolean?]>([
    ["SQL", "dejiny_session=' OR 1=1 --"],
    ["tampered owner cookie", `dejiny_session=${tampered}`],
    ["owner cookie without its signature", `dejiny_session=${session.split(".")[0]}`],
    ["owner cookie + junk", `dejiny_session=${session}%00x`],
    ["empty", "dejiny_session="],
    ["12 KB", `dejiny_session=${"A".repeat(12_000)}`],
    ["30 KB", `dejiny_session=${"A".repeat(30_000)}`],
    ["500 cookies", Array.from({ length: 500 }, (_, i) => `c${i}=${i}`).join("; ")],
    ["broken escapes", "dejiny_session=%ED%A0%80%C0%AF%"],
    ["JSON claims", `dejiny_session=${encodeURIComponent(JSON.stringify({ userId: ctx.ownerId, isAdmin: true }))}`],
    ["unsigned base64 JSON", `dejiny_session=${Buffer.from(JSON.stringify({ userId: ctx.ownerId })).toString("base64")}`],
    ["__proto__", "__proto__=x; constructor=y; dejiny_session=x"],
    ["raw invalid bytes", "dejiny_session=\xff\xfe\xc0\xaf", true],
  ]);
  const notSignedIn = (o: Outcome) => (o.text.includes("nav-signout") ? "treats a forged cookie as signed in" : null);
  const [what, method, p, contentType, body, expectation] = rng.pick<[string, string, string, string | undefined, Buffer | undefined, (o: Outcome) => string | null]>([
    ["list", "GET", "/posts", undefined, undefined, both(statusIn(200, 400, 431), notSignedIn)],
    ["save the owner's post", "POST", `/posts/${ctx.post.id}`, URLENC, urlencoded([["intent", "save"], ["title", "Cudzí nadpis"], ["content", "Text"]]), statusIn(400, 403, 431)],
    ["create post", "POST", "/create-post", "multipart/form-data; boundary=x", multipart("x", [{ name: "title", body: "t" }]), statusIn(303, 400, 431)],
  ]);
  return { family: "forged cookie", note: `${note} on ${what}`, actor: "anon", method, path: p, headers: { Cookie: cookie, ...(contentType ? postHeaders(contentType) : {}) }, body, transport: raw ? "raw" : "fetch", expect: expectation };
}

/** Odd headers and methods, sent raw: client-address headers, Host, methods, huge and many headers. */
function headerTrick(ctx: Context): Attack {
  const hostile = rng.pick(["unknown", "1.1.1.1, 2.2.2.2, 3.3.3.3", "' OR 1=1 --", "A".repeat(8_000), "::ffff:127.0.0.1", "[::1]", "999.999.999.999", "", "<script>alert(1)</script>", "\xff\xfe"]);
  const choices: [string, () => Attack][] = [
    ["X-Forwarded-For on the list", () => ({ family: "header", note: `X-Forwarded-For ${short(hostile)}`, actor: "anon", method: "GET", path: "/posts", headers: { "X-Forwarded-For": hostile }, transport: "raw" })],
    ["X-Forwarded-For on a reset request", () => ({ family: "header", note: `X-Forwarded-For ${short(hostile)} on forgot`, actor: "anon", method: "POST", path: "/signinsignup", headers: { "X-Forwarded-For": hostile, "Content-Type": URLENC, Origin: base }, body: urlencoded([["intent", "forgot"], ["email", uniqueEmail("nobody")]]), transport: "raw", expect: statusIn(303, 400, 429) })],
    ["Host", () => {
      const host = rng.pick(["evil.example", "<script>", "a b", "localhost:99999", "127.0.0.1:65536", "[::1", "..", "127.0.0.1@evil.example", "H".repeat(4_000), "\xff.example"]);
      const p = rng.pick(["/", "/posts", `/posts/${ctx.post.id}`, "/create-post", "/signinsignup"]);
      return { family: "header", note: `Host ${short(host)}`, actor: "anon", method: "GET", path: p, headers: { Host: host }, transport: "raw" };
    }],
    ["X-Forwarded-Host and -Proto", () => {
      const value = rng.pick(["evil.example", "<script>", "a b", "javascript", "gopher", "https", "..", "\xff"]);
      const p = rng.pick(["/", "/posts", "/signinsignup?redirectTo=/create-post"]);
      return { family: "header", note: `X-Forwarded-Host/Proto ${short(value)}`, actor: "anon", method: "GET", path: p, headers: { "X-Forwarded-Host": value, "X-Forwarded-Proto": value }, transport: "raw" };
    }],
    ["method", () => {
      const method = rng.pick(["OPTIONS", "PUT", "PATCH", "DELETE", "PROPFIND", "TRACE", "M-SEARCH", "FOO"]);
      const p = rng.pick(["/", "/posts", "/signinsignup", "/create-post", "/signout", `/posts/${rng.pick(ctx.demo).id}`, "/images/x-400.jpg"]);
      const actor: Actor = rng.chance(0.5) ? "attacker" : "anon";
      const guard = p.startsWith("/posts/") ? statusIn(400, 403, 404, 405, 501) : undefined;
      return { family: "method", note: `${method} ${p}`, actor, method, path: p, headers: { Origin: base }, transport: "raw", expect: guard };
    }],
    ["Accept", () => ({ family: "header", note: "weird Accept and Accept-Encoding", actor: "anon", method: "GET", path: rng.pick(["/", "/posts", "/tags.json"]), headers: { Accept: "text/html;q=abc, */*;q=1e9", "Accept-Encoding": "gzip;q=0, br;q=x, *;q=-1", "Accept-Language": "sk;q=\xff" }, transport: "raw" })],
    ["huge header", () => ({ family: "header", note: "one 20 KB header", actor: "anon", method: "GET", path: "/posts", headers: { "X-Junk": "J".repeat(20_000) }, transport: "raw" })],
    ["many headers", () => ({ family: "header", note: "300 headers", actor: "anon", method: "GET", path: "/posts", headers: Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`X-H${i}`, "v"])), transport: "raw" })],
  ];
  return rng.pick(choices)[1]();
}

/** Requests whose framing lies: bodies shorter than their Content-Length, bad chunks, smuggling shapes, raw bytes in the request line. */
function socketAttempts(ctx: Context): Attack[] {
  const host = new URL(base).host;
  const ownerCookie = ctx.owner.cookieHeader();
  const attackerCookie = ctx.attacker.cookieHeader();
  const b = "----cut";
  const form = multipart(b, [{ name: "title", body: "Nadpis" }, { name: "content", body: "Text ".repeat(200) }, { name: "tags", body: "Morava" }]);
  const tail = ` HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`;
  const head = (method: string, target: string, lines: string[]) => [`${method} ${target} HTTP/1.1`, `Host: ${host}`, "Connection: close", `X-Forwarded-For: 10.250.0.${rng.between(1, 254)}`, ...lines, "", ""].join("\r\n");
  const cases: [string, string, Buffer][] = [
    ["create-post cut mid-part", "/create-post", Buffer.concat([Buffer.from(head("POST", "/create-post", [`Cookie: ${attackerCookie}`, `Origin: ${base}`, `Content-Type: multipart/form-data; boundary=${b}`, `Content-Length: ${form.length}`])), form.subarray(0, 300)])],
    ["create-post claims 99 GB", "/create-post", Buffer.concat([Buffer.from(head("POST", "/create-post", [`Cookie: ${attackerCookie}`, `Origin: ${base}`, `Content-Type: multipart/form-data; boundary=${b}`, "Content-Length: 99999999999"])), form])],
    ["image upload cut", "/create-post/image", Buffer.concat([Buffer.from(head("POST", "/create-post/image", [`Cookie: ${attackerCookie}`, `Origin: ${base}`, `Content-Type: multipart/form-data; boundary=${b}`, "Content-Length: 5000"])), form.subarray(0, 120)])],
    ["owner's edit cut", `/posts/${ctx.post.id}`, Buffer.from(head("POST", `/posts/${ctx.post.id}`, [`Cookie: ${ownerCookie}`, `Origin: ${base}`, `Content-Type: ${URLENC}`, "Content-Length: 2000"]) + "intent=save&title=&content=Tex")],
    ["owner's multipart edit cut", `/posts/${ctx.post.id}`, Buffer.concat([Buffer.from(head("POST", `/posts/${ctx.post.id}`, [`Cookie: ${ownerCookie}`, `Origin: ${base}`, `Content-Type: multipart/form-data; boundary=${b}`, "Content-Length: 3000"])), multipart(b, [{ name: "intent", body: "save" }, { name: "title", body: "" }, { name: "content", body: "Text" }]).subarray(0, 90)])],
    ["sign-in cut", "/signinsignup", Buffer.from(head("POST", "/signinsignup", [`Origin: ${base}`, `Content-Type: ${URLENC}`, "Content-Length: 500"]) + "intent=signin&email=a%40b.sk&pass")],
    ["reset cut", "/reset-password?token=x", Buffer.from(head("POST", "/reset-password?token=x", [`Origin: ${base}`, `Content-Type: ${URLENC}`, "Content-Length: 500"]) + "password=abc")],
    ["bad chunk size", "/signinsignup", Buffer.from(head("POST", "/signinsignup", [`Content-Type: ${URLENC}`, "Transfer-Encoding: chunked"]) + "zz\r\nintent=forgot\r\n0\r\n\r\n")],
    ["chunked body cut mid-chunk", "/signinsignup", Buffer.from(head("POST", "/signinsignup", [`Content-Type: ${URLENC}`, "Transfer-Encoding: chunked"]) + "400\r\nintent=forgot&email=")],
    ["Content-Length and Transfer-Encoding", "/signinsignup", Buffer.from(head("POST", "/signinsignup", [`Content-Type: ${URLENC}`, "Content-Length: 4", "Transfer-Encoding: chunked"]) + "0\r\n\r\nGET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")],
    ["two Content-Lengths", "/signinsignup", Buffer.from(head("POST", "/signinsignup", [`Content-Type: ${URLENC}`, "Content-Length: 13", "Content-Length: 40"]) + "intent=forgot")],
    ["negative Content-Length", "/signinsignup", Buffer.from(head("POST", "/signinsignup", [`Content-Type: ${URLENC}`, "Content-Length: -1"]) + "intent=forgot")],
    ["invalid UTF-8 in the path", "/posts/\\xff\\xfe", Buffer.concat([Buffer.from("GET /posts/"), Buffer.from([0xff, 0xfe, 0xc0, 0xaf]), Buffer.from(tail)])],
    ["overlong dots in an image path", "/images/\\xc0\\xae…", Buffer.concat([Buffer.from("GET /images/"), Buffer.from([0xc0, 0xae, 0xc0, 0xae, 0x2f]), Buffer.from(`package.json${tail}`)])],
    ["HTTP/1.0 without Host", "/posts", Buffer.from("GET /posts HTTP/1.0\r\n\r\n")],
    ["header without a colon", "/posts", Buffer.from(head("GET", "/posts", ["This is not a header"]))],
    ["obsolete folded header", "/posts", Buffer.from(head("GET", "/posts", ["X-Folded: a", " continued"]))],
    ["NUL in a header", "/posts", Buffer.from(head("GET", "/posts", ["X-Nul: a\u0000b"]))],
    ["absolute-form target to another host", "http://evil.example/posts", Buffer.from(head("GET", "http://evil.example/posts", []))],
    ["asterisk target", "*", Buffer.from(head("OPTIONS", "*", []))],
  ];
  return cases.map(([note, p, body]) => ({ family: "framing", note, actor: "anon", method: "RAW", path: p, body, transport: "socket" }));
}

/** The other pages with hostile query strings (redirect targets, modes, tokens, Remix internals). */
function pageQuery(): Attack {
  const page = rng.pick(["/", "/conflicts", "/signinsignup", "/signinsignup", "/reset-password", "/create-post", "/tags.json", "/healthz", "/signout", "/nie-je-tu"]);
  const key = rng.pick(["redirectTo", "redirectTo", "mode", "forgot", "resetSent", "passwordChanged", "token", "edit", "index", "_data", "q", "__proto__[x]", "redirectTo[]"]);
  const v = key.startsWith("redirectTo") && rng.chance(0.6) ? text("redirect", rng.pick(REDIRECTS)) : hostileValue(8_000);
  return { family: "page query", note: `${key}=${v.note}`, actor: rng.chance(0.7) ? "anon" : "attacker", method: "GET", path: `${page}?${pct(key)}=${pct(v.value)}`, reflect: textOf(v) };
}

/** A redirect that stays on this site however a browser or a proxy reads it (not `//host`, not `/\host`, not encoded so). */
function ownPath(o: Outcome): string | null {
  const location = o.location ?? "";
  let decoded = location;
  try {
    decoded = decodeURIComponent(location);
  } catch {
    // Left as it is.
  }
  const foreign = !location.startsWith("/") || /^\/[\\/]/.test(location) || /^\/[\\/]/.test(decoded.replace(/[\t\n\r]/g, ""));
  return foreign ? `redirects to ${location}, which can name another host` : null;
}

/** A user signs in (right password) with a hostile `redirectTo`: a 303 to a path of this site, always. */
function redirectAfterSignIn(ctx: Context): Attack {
  const target = rng.pick(REDIRECTS);
  const fields: Field[] = [["intent", "signin"], ["email", ctx.travellerEmail], ["password", GOOD_PASSWORD], ["redirectTo", target]];
  return { family: "sign-in redirect", note: `redirectTo ${short(target)}`, actor: "anon", method: "POST", path: "/signinsignup", headers: postHeaders(URLENC), body: urlencoded(fields), expect: both(statusIn(303), ownPath) };
}

/** What the hardening work bounded: each must be refused with a 4xx, quickly, and change nothing. */
function boundedInput(ctx: Context): Attack {
  const b = boundary();
  const choices: [string, () => Attack][] = [
    ["decompression bomb", () => ({
      family: "bounded",
      note: "PNG declaring 5 × 9,999,999 pixels",
      actor: "attacker",
      method: "POST",
      path: rng.pick(["/create-post", "/create-post/image"]),
      headers: postHeaders(`multipart/form-data; boundary=${b}`),
      body: multipart(b, [{ name: "title", body: "Bomba" }, { name: "content", body: "Text." }, { name: "tags", body: "Ostatné" }, { name: "image", filename: "bomba.png", contentType: "image/png", body: ctx.bomb }]),
      expect: statusIn(400, 429),
    })],
    ["nested markup", () => {
      const depth = rng.pick([21, 500, 10_000]);
      const tag = rng.pick(["b", "i", "a", "div", "table", "p><b", "svg"]);
      const content = `<${tag}>`.repeat(depth).slice(0, 30_000);
      return { family: "bounded", note: `<${tag}> × ${depth} by the owner`, actor: "owner", method: "POST", path: `/posts/${ctx.post.id}`, headers: postHeaders(URLENC), body: urlencoded([["intent", "save"], ["title", "Nadpis"], ["content", content]]), expect: both(statusIn(400), notDone) };
    }],
    ["hidden controls in a title", () => {
      const title = `Nadpis${rng.pick(["\u202e", "\u2066", "\u200f", "\t", "\u0007", "\u001b[31m", "\u0085"])}koniec`;
      return { family: "bounded", note: `title ${short(title)} by the owner`, actor: "owner", method: "POST", path: `/posts/${ctx.post.id}`, headers: postHeaders(URLENC), body: urlencoded([["intent", "save"], ["title", title], ["content", "Text."]]), expect: both(statusIn(400), notDone) };
    }],
    ["hidden controls in a display name", () => {
      const displayName = `Admin${rng.pick(["\u202e", "\u2066", "\r\nBcc: x@evil.example", "\u001b]0;x\u0007"])}`;
      const fields: Field[] = [["intent", "register"], ["displayName", displayName], ["email", uniqueEmail("bidi")], ["password", GOOD_PASSWORD], ["confirmPassword", GOOD_PASSWORD]];
      return { family: "bounded", note: `display name ${short(displayName)}`, actor: "anon", method: "POST", path: "/signinsignup", headers: postHeaders(URLENC), body: urlencoded(fields), expect: statusIn(400, 429) };
    }],
    ["legacy data request", () => {
      const page = rng.pick(["/", "/posts", `/posts/${ctx.post.id}`, "/signinsignup", "/create-post", "/nie-je-tu"]);
      const route = rng.pick(["root", "routes/posts", "routes/posts.$postId", "routes/_index", "", "x"]);
      return { family: "bounded", note: `?_data=${route} on ${page}`, actor: rng.chance(0.5) ? "attacker" : "anon", method: "GET", path: `${page}?_data=${pct(route)}`, expect: statusIn(400) };
    }],
    ["a random article id", () => {
      const id = rng.bytes(9).toString("base64url");
      return { family: "bounded", note: `/posts/${id}`, actor: rng.chance(0.5) ? "attacker" : "anon", method: "GET", path: `/posts/${id}${rng.pick(["", "?tag=Morava", "?limit=18", "?edit", "?x=1"])}`, expect: statusIn(404) };
    }],
    ["a form through a proxy from a foreign or junk origin", () => {
      const origin = rng.pick(["https://evil.example", "null", "not an origin", "http://dejiny.example.evil.example", "https://dejiny.example:99999", "https://dejiny.example/x"]);
      const site = rng.pick(["same-origin", "cross-site", "same-site"]);
      const headers = postHeaders(URLENC, { Origin: origin, "Sec-Fetch-Site": site, "X-Forwarded-Host": "dejiny.example", "X-Forwarded-Proto": "https" });
      // A browser's own "same-origin" with a well-formed Origin is believed (only a non-browser, with no victim's cookies, could lie); anything else is refused.
      const believed = site === "same-origin" && ["https://evil.example", "http://dejiny.example.evil.example"].includes(origin);
      return { family: "bounded", note: `Origin ${short(origin)}, Sec-Fetch-Site ${site}, via a proxy`, actor: "attacker", method: "POST", path: rng.pick(["/signinsignup", "/signout", `/posts/${ctx.post.id}`]), headers, body: urlencoded([["intent", "signin"], ["email", "a@b.sk"], ["password", "x"]]), expect: believed ? undefined : statusIn(403) };
    }],
  ];
  return rng.pick(choices)[1]();
}

/** Every family, in a fixed order from the seed; anonymous clients each get an address of their own. */
function allAttacks(ctx: Context): Attack[] {
  const times = <T>(n: number, make: () => T) => Array.from({ length: n }, make);
  const attacks: Attack[] = [
    ...times(150, listQuery),
    ...times(90, () => postPage(ctx)),
    ...imageRequests(ctx, 220),
    ...privateFileRequests(),
    ...times(220, () => accountForm(ctx)),
    ...times(50, resetAttempt),
    ...times(200, () => createPostAttempt(ctx, false)),
    ...times(120, () => createPostAttempt(ctx, true)),
    ...times(20, () => createPostAnonymous(ctx)),
    ...times(50, imageUploadAttempt),
    ...times(170, () => othersPostAttempt(ctx)),
    ...times(170, () => ownerInvalidAttempt(ctx)),
    ...times(60, () => odderBodies(ctx)),
    ...crossSiteAttempts(ctx, 280),
    ...times(40, () => cookieAttempt(ctx)),
    ...times(60, () => headerTrick(ctx)),
    ...socketAttempts(ctx),
    ...times(70, pageQuery),
    ...times(40, () => redirectAfterSignIn(ctx)),
    ...times(120, () => boundedInput(ctx)),
  ];
  // Interleave the families (deterministically) so slow ones do not queue together.
  for (let i = attacks.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [attacks[i], attacks[j]] = [attacks[j], attacks[i]];
  }
  attacks.forEach((attack, i) => {
    if (attack.actor === "anon" && attack.transport !== "socket" && !attack.headers?.["X-Forwarded-For"]) {
      attack.headers = { "X-Forwarded-For": `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`, ...attack.headers };
    }
  });
  return attacks;
}

// ---------------------------------------------------------------------------
// The database and the image folder, before and after
// ---------------------------------------------------------------------------

type Row = Record<string, unknown>;
type Snapshot = { posts: Row[]; postTags: Row[]; users: Row[]; pending: Row[]; files: Map<string, string> };

function snapshot(): Snapshot {
  const data = readDatabase(databasePath, (db) => ({
    posts: db.prepare("SELECT id, title, content, excerpt, author_id, image, image_width, image_height, created_at, updated_at FROM posts ORDER BY id").all() as Row[],
    postTags: db.prepare("SELECT post_id, tag, created_at FROM post_tags ORDER BY post_id, tag").all() as Row[],
    users: db.prepare("SELECT id, email, display_name, is_admin, password_hash, disabled_at FROM users ORDER BY id").all() as Row[],
    pending: db.prepare("SELECT * FROM pending_images ORDER BY key").all() as Row[],
  }));
  const files = new Map<string, string>();
  for (const name of readdirSync(uploadsDir).sort()) {
    const full = path.join(uploadsDir, name);
    if (statSync(full).isDirectory()) files.set(name, "directory");
    else {
      const bytes = readFileSync(full);
      files.set(name, `${bytes.length} bytes, sha256 ${createHash("sha256").update(bytes).digest("hex")}`);
    }
  }
  return { ...data, files };
}

/** Rows added, removed or changed, by key, each with the fields that differ. */
function rowChanges(what: string, before: Row[], after: Row[], key: (row: Row) => string): string[] {
  const out: string[] = [];
  const old = new Map(before.map((r) => [key(r), r]));
  const now = new Map(after.map((r) => [key(r), r]));
  for (const [k, row] of old) {
    const current = now.get(k);
    if (!current) out.push(`${what} ${k} was removed`);
    else
      for (const field of Object.keys(row))
        if (row[field] !== current[field]) out.push(`${what} ${k}: ${field} changed from ${short(String(row[field]), 60)} to ${short(String(current[field]), 60)}`);
  }
  for (const k of now.keys()) if (!old.has(k)) out.push(`${what} ${k} was added`);
  return out;
}

/** Articles, tags, pending images and files exactly as before; accounts that existed unchanged; no new admin. */
function changesSince(before: Snapshot, after: Snapshot): string[] {
  const existing = new Set(before.users.map((u) => u.id as string));
  const newAdmins = after.users.filter((u) => !existing.has(u.id as string) && u.is_admin !== 0).map((u) => `new account ${u.email} is an admin`);
  return [
    ...rowChanges("post", before.posts, after.posts, (r) => r.id as string),
    ...rowChanges("post tag", before.postTags, after.postTags, (r) => `${r.post_id}/${r.tag}`),
    ...rowChanges("pending image", before.pending, after.pending, (r) => r.key as string),
    ...rowChanges("account", before.users, after.users.filter((u) => existing.has(u.id as string)), (r) => r.id as string),
    ...newAdmins,
    ...rowChanges("file", [...before.files].map(([name, info]) => ({ name, info })), [...after.files].map(([name, info]) => ({ name, info })), (r) => r.name as string),
  ];
}

// ---------------------------------------------------------------------------
// What a saved XSS payload may look like once rendered
// ---------------------------------------------------------------------------

const NO_COMPRESSION = { headers: { "Accept-Encoding": "identity" } };
/** The spec's tags and the long form's (docs/articles.md, "Article text"). */
const ALLOWED_TAGS = new Set(["b", "i", "em", "strong", "a", "p", "br", "h2", "h3", "ul", "ol", "li", "blockquote", "cite"]);
const FORBIDDEN_MARKUP = /<\s*(script|iframe|object|embed|svg|math|style|frame|frameset|base|link|meta|template|noscript)\b/i;

function decodeEntities(value: string): string {
  return value
    .replace(/&#x([0-9a-f]+);?/gi, (_, hex: string) => String.fromCodePoint(Number.parseInt(hex, 16) % 0x110000))
    .replace(/&#(\d+);?/g, (_, dec: string) => String.fromCodePoint(Number(dec) % 0x110000))
    .replace(/&colon;/gi, ":")
    .replace(/&tab;/gi, "\t")
    .replace(/&newline;/gi, "\n")
    .replace(/&amp;/gi, "&");
}

/** A URL that runs script (or carries a document) once a browser drops the whitespace and control characters. */
function isScriptUrl(value: string): boolean {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what browsers skip in a URL scheme
  const collapsed = decodeEntities(value).replace(/[\u0000-\u0020\u007f-\u009f]/g, "").toLowerCase();
  return /^(javascript|vbscript|data):/.test(collapsed);
}

/** Script, event handlers, script URLs and (unless `elements` is false) foreign elements anywhere in `scope`. */
function unsafeMarkup(scope: HTMLElement | null, where: string, elements = true): string[] {
  if (!scope) return [`${where} is missing`];
  const out: string[] = [];
  const forbidden = scope.outerHTML.match(FORBIDDEN_MARKUP);
  if (elements && forbidden) out.push(`${where} contains ${forbidden[0]}`);
  for (const element of [scope, ...scope.querySelectorAll("*")]) {
    for (const [name, value] of Object.entries(element.attributes)) {
      if (/^on/i.test(name)) out.push(`${where}: <${element.tagName.toLowerCase()} ${name}=…>`);
      if (/^(href|src|srcset|action|formaction|data|xlink:href|background|poster)$/i.test(name) && isScriptUrl(value)) out.push(`${where}: ${name}=${short(value)}`);
    }
  }
  return out;
}

/** Anything in a body's HTML that looks like a tag but is none of the allowed ones, bare, or a safe link. */
const STRAY_MARKUP = new RegExp(String.raw`<(?!\/?(?:${[...ALLOWED_TAGS].join("|")})\s*\/?>)(?!a href="https?:\/\/[^"<>\s]*" rel="nofollow ugc noopener">)[a-z!?/][^>]*>?`, "i");

/** The one attribute a body's element may carry (docs/articles.md, "Article text"): a link's absolute http(s) address, with our rel. */
const SAFE_LINK_ATTRS = /^href="https?:\/\/[^"<>\s]*" rel="nofollow ugc noopener"$/;

/** The page's own wrapper of a passage (app/lib/text/passages.ts): a p or div at the top with its anchor, nothing else. */
const PASSAGE_WRAPPER = /<(?:p|div) id="odsek-\d+">|<\/div>/g;

/** The article body: only the allowed tags, none with any attribute but a link's safe address; every other `<` escaped. */
function articleBodyProblems(content: HTMLElement | null): string[] {
  if (!content) return ["no .post-content"];
  const out = unsafeMarkup(content, ".post-content");
  for (const element of content.querySelectorAll("*")) {
    const tag = element.tagName.toLowerCase();
    const attrs = element.rawAttrs.trim();
    if (element.parentNode === content && /^(?:p|div)$/.test(tag) && /^id="odsek-\d+"$/.test(attrs)) continue;
    if (!ALLOWED_TAGS.has(tag)) out.push(`.post-content has <${tag}>`);
    else if (attrs !== "" && attrs !== "/" && !(tag === "a" && SAFE_LINK_ATTRS.test(attrs))) out.push(`.post-content has <${tag} ${attrs}>`);
  }
  const stray = content.innerHTML.replace(PASSAGE_WRAPPER, "").match(STRAY_MARKUP);
  if (stray) out.push(`.post-content has raw markup ${short(stray[0])}`);
  return out;
}

// ---------------------------------------------------------------------------
// The suite
// ---------------------------------------------------------------------------

let ctx: Context;
let initial: Snapshot;
let beforeBarrage: Snapshot;
let postDeleted = false;

describe(`hostile input (seed ${SEED}; HOSTILE_SEED=… to replay another)`, () => {
  beforeAll(async () => {
    initial = snapshot();
    const owner = await registerUser(base);
    const attacker = await registerUser(base);
    const traveller = await registerUser(base);
    const jpeg = await makeImage("jpeg");
    const form = new FormData();
    form.append("title", "Skúšobný článok");
    form.append("content", "Prvý riadok\nDruhý riadok.");
    form.append("tags", "Ostatné");
    form.append("image", new Blob([new Uint8Array(jpeg)], { type: "image/jpeg" }), "obrazok.jpg");
    const created = await owner.client.request("/create-post", { method: "POST", body: form, headers: { Origin: base } });
    expect(created.status, "the owner's own article is published").toBe(303);
    const id = created.headers.get("location")!.match(/^\/posts\/([\w-]+)$/)![1];
    const rows = readDatabase(databasePath, (db) => ({
      ids: db.prepare("SELECT id, email FROM users WHERE email IN (?, ?)").all(owner.email, attacker.email) as { id: string; email: string }[],
      post: db.prepare("SELECT id, image FROM posts WHERE id = ?").get(id) as { id: string; image: string },
      demo: db.prepare("SELECT p.id, p.image FROM posts p JOIN users u ON u.id = p.author_id WHERE u.password_hash IS NULL ORDER BY p.created_at LIMIT 4").all() as { id: string; image: string }[],
      demoEmail: (db.prepare("SELECT email FROM users WHERE password_hash IS NULL LIMIT 1").get() as { email: string } | undefined)?.email,
    }));
    expect(rows.demo.length, "the shared server has demo articles").toBeGreaterThan(0);
    ctx = {
      owner: owner.client,
      attacker: attacker.client,
      ownerId: rows.ids.find((u) => u.email === owner.email)!.id,
      attackerId: rows.ids.find((u) => u.email === attacker.email)!.id,
      ownerEmail: owner.email,
      travellerEmail: traveller.email,
      demoEmail: rows.demoEmail!,
      post: rows.post,
      demo: rows.demo,
      bomb: await makePngBomb(),
    };
    beforeBarrage = snapshot();
  });

  afterAll(async () => {
    // A failed run still removes its article.
    if (ctx && !postDeleted) await ctx.owner.post(`/posts/${ctx.post.id}`, { intent: "delete", confirm: "yes" }).catch(() => {});
    const statuses = Object.fromEntries([...tally].sort(([a], [b]) => a - b));
    console.log(`hostile: ${sent} requests, seed ${SEED}, statuses ${JSON.stringify(statuses)}`);
  });

  it("answers every hostile request without a 5xx, internals, a foreign redirect or a reflected payload", async () => {
    const attacks = allAttacks(ctx);
    expect(attacks.length).toBeGreaterThanOrEqual(2_000);
    const problems = await barrage(attacks, ctx);
    expect(problems, `${problems.length} of ${attacks.length} hostile requests misbehaved (seed ${SEED})`).toEqual([]);
    // The signed-in attackers stayed signed in, so their requests reached the form parsers.
    expect(await ctx.owner.isSignedIn(), "owner still signed in").toBe(true);
    expect(await ctx.attacker.isSignedIn(), "attacker still signed in").toBe(true);
  });

  it("changed no article, tag, pending image, existing account or image file, and made no admin", () => {
    expect(changesSince(beforeBarrage, snapshot())).toEqual([]);
  });

  it("stores every XSS payload its author saves as harmless markup, and shows it so", async () => {
    const problems: string[] = [];
    const viewer = new Client(base);
    for (const [index, payload] of XSS_PAYLOADS.entries()) {
      const label = `save ${short(payload, 70)}`;
      // A title may not hold control characters (refused, see hardening.test.ts): here they become spaces.
      const title = payload.slice(0, 90).replace(/[\p{Cc}\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu, " ");
      // Saved by the post's own author (an intended write), with mass-assignment bait alongside.
      const saved = await ctx.owner.post(`/posts/${ctx.post.id}`, {
        intent: "save",
        baseRevision: await editBase(ctx.owner, ctx.post.id),
        title,
        content: payload,
        authorId: ctx.attackerId,
        author_id: ctx.attackerId,
        image: ctx.demo[0].image,
        id: ctx.demo[0].id,
        isAdmin: "1",
        created_at: "0",
      });
      count(saved.response.status);
      if (saved.response.status !== 303) {
        problems.push(`${label}: answered ${saved.response.status} ${saved.doc.querySelector(".form-error")?.text ?? ""}`);
        continue;
      }
      // The edit form too, for every fourth payload (it shows the stored text back in a textarea).
      const [article, list, edit] = await Promise.all([
        viewer.get(`/posts/${ctx.post.id}`, NO_COMPRESSION),
        viewer.get("/posts", NO_COMPRESSION),
        index % 4 === 0 ? ctx.owner.get(`/posts/${ctx.post.id}?edit`, NO_COMPRESSION) : null,
      ]);
      const pages = [["article", article], ["list", list], ...(edit ? [["edit", edit] as const] : [])] as const;
      for (const [, page] of pages) count(page.response.status);
      const card = list.doc.querySelectorAll(".card").find((c) => c.querySelector(`a[href^="/posts/${ctx.post.id}"]`));
      const found = [
        ...articleBodyProblems(article.doc.querySelector(".post-content")),
        ...unsafeMarkup(article.doc.querySelector(".overlay-body"), "the article"),
        // The overlay's own icons are SVG: there, only attributes are checked.
        ...unsafeMarkup(article.doc.querySelector(".overlay"), "the article overlay", false),
        ...unsafeMarkup(card ?? null, "the article's card"),
        ...(edit ? [...unsafeMarkup(edit.doc.querySelector(".overlay-body"), "the edit form"), ...unsafeMarkup(edit.doc.querySelector(".overlay"), "the edit overlay", false)] : []),
      ];
      if (article.doc.querySelector(".overlay h1")?.text !== title.trim()) found.push(`title shown as ${short(article.doc.querySelector(".overlay h1")?.text ?? "")}`);
      for (const [name, page] of pages) {
        if (page.response.status !== 200) found.push(`${name} answered ${page.response.status}`);
        if (isDangerous(payload) && page.html.includes(payload)) found.push(`${name} page contains the payload verbatim`);
        if (INTERNALS.test(page.html)) found.push(`${name} page leaks internals`);
      }
      problems.push(...found.map((p) => `${label}: ${p}`));
    }
    expect(problems, `seed ${SEED}`).toEqual([]);
    // The bait changed nothing but the title and the text.
    const row = readDatabase(databasePath, (db) => db.prepare("SELECT author_id, image, created_at FROM posts WHERE id = ?").get(ctx.post.id)) as Row;
    const original = beforeBarrage.posts.find((p) => p.id === ctx.post.id)!;
    expect(row).toEqual({ author_id: original.author_id, image: original.image, created_at: original.created_at });
  }, 40_000);

  // Found by this suite (a 500 from request.formData()), fixed with readForm: kept as a regression test.
  it("answers a form body it cannot parse with a 4xx, not a 500", async () => {
    const b = "----unreadable";
    const bodies: [string, string | undefined, Buffer][] = [
      ["text/plain", "text/plain", Buffer.from("intent=delete")],
      ["no Content-Type", undefined, Buffer.from("intent=delete")],
      ["JSON", "application/json", Buffer.from('{"intent":"delete"}')],
      ["multipart without boundary", "multipart/form-data", Buffer.from("intent=delete")],
      ["multipart without final boundary", `multipart/form-data; boundary=${b}`, multipart(b, [{ name: "intent", body: "delete" }], { close: false })],
    ];
    const targets: [Client, string][] = [
      [new Client(base), "/signinsignup"],
      [new Client(base), "/reset-password?token=abc"],
      [ctx.owner, `/posts/${ctx.post.id}`],
    ];
    const answers: string[] = [];
    for (const [client, target] of targets)
      for (const [what, contentType, body] of bodies) {
        const response = await client.request(target, { method: "POST", headers: postHeaders(contentType), body: new Uint8Array(body) });
        count(response.status);
        const html = await response.text();
        expect(html, `${target} ${what}`).not.toMatch(INTERNALS);
        answers.push(`POST ${target} with ${what}: ${response.status}`);
      }
    expect(answers.filter((a) => !/: 4\d\d$/.test(a))).toEqual([]);
  });

  // Found by this suite (new URL() threw in @remix-run/express), fixed in server.js: kept as a regression test.
  it("answers a request with a malformed Host or X-Forwarded-Host without a 500", async () => {
    const answers: string[] = [];
    const hosts: Record<string, string>[] = [{ Host: "a b" }, { Host: "<script>" }, { "X-Forwarded-Host": "a b" }, { "X-Forwarded-Host": "[::1" }];
    for (const headers of hosts)
      for (const target of ["/create-post", "/signinsignup?redirectTo=/create-post"]) {
        const outcome = await viaRaw(new Client(base), { family: "host", note: "", actor: "anon", method: "GET", path: target, headers });
        count(outcome.status);
        expect(outcome.text, `${target} ${JSON.stringify(headers)}`).not.toMatch(INTERNALS);
        answers.push(`GET ${target} with ${JSON.stringify(headers)}: ${outcome.status}`);
      }
    expect(answers.filter((a) => / 5\d\d$/.test(a))).toEqual([]);
  });

  // Found by this suite (express's URIError answered 500), fixed in server.js: kept as a regression test.
  it("answers a path with a malformed percent-escape with a 4xx, not a 500", async () => {
    const answers: string[] = [];
    for (const target of ["/posts/x%zz", "/images/%", "/images/%E0%A4%A", "/posts/%ED%A0%80", "/%C0%AE", `/posts/${ctx.post.id}%C0%AE`]) {
      const response = await new Client(base).request(target);
      count(response.status);
      const html = await response.text();
      expect(html, target).not.toMatch(INTERNALS);
      answers.push(`GET ${target}: ${response.status}`);
    }
    expect(answers.filter((a) => / 5\d\d$/.test(a))).toEqual([]);
  });

  // Found by this suite: such a Host once passed server.js's check and made Remix's URL parsing throw.
  it("answers a Host with an out-of-range port with a 4xx, not a 500", async () => {
    const answers: string[] = [];
    for (const host of ["localhost:99999", "127.0.0.1:65536"])
      for (const target of ["/healthz", "/signinsignup", "/create-post", "/posts/neexistuje"]) {
        const outcome = await viaRaw(new Client(base), { family: "host", note: "", actor: "anon", method: "GET", path: target, headers: { Host: host } });
        count(outcome.status);
        expect(outcome.text, `${target} Host: ${host}`).not.toMatch(INTERNALS);
        answers.push(`GET ${target} with Host: ${host}: ${outcome.status}`);
      }
    console.log(`known bug hostPort:\n  ${answers.join("\n  ")}`);
    expect(answers.filter((a) => / 5\d\d$/.test(a))).toEqual([]);
  });

  it("deletes the test article with its images, leaving everything as it was, and is still healthy", async () => {
    const deleted = await ctx.owner.post(`/posts/${ctx.post.id}`, { intent: "delete", confirm: "yes" });
    count(deleted.response.status);
    expect(deleted.response.status).toBe(303);
    postDeleted = true;
    expect(changesSince(initial, snapshot())).toEqual([]);
    const health = await fetch(`${base}/healthz`);
    count(health.status);
    expect(health.status).toBe(200);
  });
});
