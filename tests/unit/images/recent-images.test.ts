import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Readable } from "node:stream";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, describe, expect, it } from "vitest";
import { folderStore } from "~/services/images/image-store.server";
import type { ImageStore } from "~/services/images/image-store-type.server";
import { holdingRecentFiles, RECENT_IMAGE_LIMITS } from "~/services/images/recent-images.server";

// The folder's recently sent files, held in memory: bounded, short-lived, dropped when the site removes them.
const root = mkdtempSync(path.join(tmpdir(), "dejiny-recent-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const name = (letter: string) => `${letter.repeat(16)}-400.jpg`;

/** A folder store holding recent files, and what each open was: "memory", "folder", or null (no file). */
function newStore(label: string, limits = RECENT_IMAGE_LIMITS) {
  const folder = path.join(root, label);
  mkdirSync(folder);
  const plain = folderStore(folder);
  let folderOpens = 0;
  const counted: ImageStore = { ...plain, open: (file) => (folderOpens++, plain.open(file)) };
  const store = holdingRecentFiles(counted, folder, limits);
  const open = async (file: string) => {
    const before = folderOpens;
    const opened = await store.open(file);
    if (!opened) return null;
    if (!Buffer.isBuffer(opened.body)) (opened.body as Readable).destroy();
    return { from: folderOpens > before ? "folder" : "memory", text: Buffer.isBuffer(opened.body) ? opened.body.toString() : "(stream)" };
  };
  return { folder, plain, store, open };
}

describe("holding recent image files", () => {
  it("answers a file sent once from memory, with the folder's validators, until it is removed, by the site or behind its back", async () => {
    const { folder, plain, store, open } = newStore("plain", { maxBytes: 1000, maxFileBytes: 100, heldMs: 60_000 });
    await store.write(name("A"), Buffer.from("first"));
    expect(await open(name("A"))).toEqual({ from: "folder", text: "first" });
    const [held, direct] = [(await store.open(name("A")))!, (await plain.open(name("A")))!];
    (direct.body as Readable).destroy();
    expect([held.size, held.etag, held.modified]).toEqual([5, direct.etag, direct.modified]);
    expect(await open(name("A"))).toEqual({ from: "memory", text: "first" });
    await store.remove(name("A"));
    expect(await open(name("A"))).toBeNull();

    // Renamed behind the site's back: the watched folder says so before the next request is read.
    await store.write(name("A"), Buffer.from("again"));
    expect(await open(name("A"))).toEqual({ from: "folder", text: "again" });
    expect(await open(name("A"))).toEqual({ from: "memory", text: "again" });
    renameSync(path.join(folder, name("A")), path.join(folder, `${name("A")}.aside`));
    await sleep(20);
    expect(await open(name("A"))).toBeNull();
  });

  it("lets a copy go after heldMs, and reads the folder again", async () => {
    const { store, open } = newStore("expiring", { maxBytes: 1000, maxFileBytes: 100, heldMs: 50 });
    await store.write(name("B"), Buffer.from("bytes"));
    expect(await open(name("B"))).toEqual({ from: "folder", text: "bytes" });
    expect(await open(name("B"))).toEqual({ from: "memory", text: "bytes" });
    await sleep(80);
    expect(await open(name("B"))).toEqual({ from: "folder", text: "bytes" });
  });

  it("holds at most maxBytes, the least recently sent going first, and never a file over maxFileBytes", async () => {
    const { folder, open } = newStore("bounded", { maxBytes: 25, maxFileBytes: 10, heldMs: 60_000 });
    for (const letter of ["C", "D", "E"]) writeFileSync(path.join(folder, name(letter)), letter.repeat(10));
    writeFileSync(path.join(folder, name("F")), "F".repeat(11));
    for (const letter of ["C", "D", "C", "E"]) await open(name(letter));
    // C was sent after D: D went to make room for E; F is streamed from the folder each time.
    expect(await open(name("C"))).toEqual({ from: "memory", text: "C".repeat(10) });
    expect(await open(name("E"))).toEqual({ from: "memory", text: "E".repeat(10) });
    expect(await open(name("D"))).toEqual({ from: "folder", text: "D".repeat(10) });
    for (let i = 0; i < 2; i++) expect(await open(name("F"))).toEqual({ from: "folder", text: "(stream)" });
  });

  it("refuses foreign names as the folder store does", async () => {
    const { store } = newStore("foreign");
    await expect(store.open("../AAAAAAAAAAAAAAAA-400.jpg")).rejects.toThrow(/Not an image file name/);
  });
});
