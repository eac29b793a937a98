import { execFileSync } from "node:child_process";
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Readable } from "node:stream";
import { afterAll, describe, expect, it } from "vitest";
import { bucketStore } from "~/services/images/image-bucket.server";
import { checkingNames, folderStore, ForeignImageNameError } from "~/services/images/image-store.server";
import type { ImageStore } from "~/services/images/image-store-type.server";

// The image stores' own guard, whatever their callers checked: only the
// site's file names, inside the folder (or under the bucket's prefix), and
// never through a symbolic link.
const root = mkdtempSync(path.join(tmpdir(), "dejiny-store-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const NAME = "AAAAAAAAAAAAAAAA-400.jpg";
const FOREIGN = ["../x-400.jpg", "../AAAAAAAAAAAAAAAA-400.jpg", "/etc/passwd", "AAAAAAAAAAAAAAAA-400.png", "AAAAAAAAAAAAAAA-400.jpg", "a/AAAAAAAAAAAAAAAA-400.jpg", `${NAME}\0`, "", `${NAME}.tmp`];

/** A store in a folder of its own, a secret file beside that folder. */
function newStore(name: string) {
  const dir = path.join(root, name);
  const folder = path.join(dir, "uploads");
  mkdirSync(folder, { recursive: true });
  writeFileSync(path.join(dir, "secret.txt"), "SECRET");
  return { dir, folder, secret: path.join(dir, "secret.txt"), store: folderStore(folder) };
}

/** Every method of a store refuses every foreign name. */
async function expectRefusesForeignNames(store: ImageStore) {
  for (const name of FOREIGN) {
    for (const call of [() => store.has(name), () => store.read(name), () => store.open(name), () => store.write(name, Buffer.from("x")), () => store.remove(name)]) {
      await expect(call(), JSON.stringify(name)).rejects.toBeInstanceOf(ForeignImageNameError);
    }
  }
}

describe("the folder store", () => {
  it("writes, reads, opens and removes a file of the site's shape", async () => {
    const { folder, store } = newStore("plain");
    await store.write(NAME, Buffer.from("image"));
    expect([await store.has(NAME), (await store.read(NAME))?.toString()]).toEqual([true, "image"]);
    const file = (await store.open(NAME))!;
    expect(file.size).toBe(5);
    // The folder store itself streams (only recent-images.server.ts answers with bytes).
    (file.body as Readable).destroy();
    await store.remove(NAME);
    expect([await store.has(NAME), await store.read(NAME), await store.open(NAME), readdirSync(folder)]).toEqual([false, null, null, []]);
  });

  it("refuses any other name, and writes or removes nothing outside its folder", async () => {
    const { dir, store } = newStore("foreign");
    writeFileSync(path.join(dir, "x-400.jpg"), "keep me");
    await expectRefusesForeignNames(store);
    expect(readFileSync(path.join(dir, "x-400.jpg"), "utf8")).toBe("keep me");
    expect(readdirSync(dir).sort()).toEqual(["secret.txt", "uploads", "x-400.jpg"]);
  });

  it("treats a symbolic link, a folder or a FIFO as missing: never read, served or followed", async () => {
    const { folder, secret, store } = newStore("links");
    const names = ["AAAAAAAAAAAAAAAA-400.jpg", "BBBBBBBBBBBBBBBB-400.jpg", "CCCCCCCCCCCCCCCC-400.jpg", "DDDDDDDDDDDDDDDD-400.jpg"];
    symlinkSync(secret, path.join(folder, names[0]));
    symlinkSync("/proc/self/environ", path.join(folder, names[1]));
    mkdirSync(path.join(folder, names[2]));
    // Opening a FIFO for reading would wait for a writer for ever.
    execFileSync("mkfifo", [path.join(folder, names[3])]);
    for (const name of names) expect([await store.has(name), await store.read(name), await store.open(name)], name).toEqual([false, null, null]);
  });

  it("replaces a link with the file it writes, never writes through it (nor through a leftover .tmp link)", async () => {
    const { folder, secret, store } = newStore("write-over");
    symlinkSync(secret, path.join(folder, NAME));
    symlinkSync(secret, path.join(folder, "BBBBBBBBBBBBBBBB-400.jpg.tmp"));
    await store.write(NAME, Buffer.from("image"));
    await store.write("BBBBBBBBBBBBBBBB-400.jpg", Buffer.from("other"));
    expect(readFileSync(secret, "utf8")).toBe("SECRET");
    expect(lstatSync(path.join(folder, NAME)).isFile()).toBe(true);
    expect([(await store.read(NAME))?.toString(), (await store.read("BBBBBBBBBBBBBBBB-400.jpg"))?.toString()]).toEqual(["image", "other"]);
    expect(readdirSync(folder).sort()).toEqual(["AAAAAAAAAAAAAAAA-400.jpg", "BBBBBBBBBBBBBBBB-400.jpg"]);
  });

  it("removes a link, not what it points at", async () => {
    const { folder, secret, store } = newStore("remove-link");
    symlinkSync(secret, path.join(folder, NAME));
    await store.remove(NAME);
    expect([existsSync(secret), readdirSync(folder)]).toEqual([true, []]);
  });
});

describe("the bucket store", () => {
  it("refuses any other name before it asks the storage anything", async () => {
    // Nothing listens on port 9: a request would fail with a connection error instead.
    const bucket = bucketStore({ bucket: "b", prefix: "site/", endpoint: "http://127.0.0.1:9", region: "us-east-1", accessKeyId: "a", secretAccessKey: "s" });
    await expectRefusesForeignNames(checkingNames(bucket));
  });
});
