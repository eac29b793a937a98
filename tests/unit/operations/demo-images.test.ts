import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { env } from "~/config/env.server";
import { DEMO_IMAGES_BUILT } from "~/config/paths.server";
import { variantFiles } from "~/lib/images";
import { storeImage } from "~/services/images/images.server";
import { storeDemoImage } from "~/services/operations/demo-images.server";

// The demo images' variants are encoded by `npm run build` (scripts/build-demo-images.ts),
// so a first start stores files rather than encoding twelve images.
const stored = (key: string) => variantFiles(key).map((name) => readFileSync(path.join(env.uploadsDir, name)));
const IMAGE = "snp.jpg";

describe("a demo image", () => {
  it("is stored from the build's variants, byte for byte what encoding it as an upload makes", async () => {
    const demo = await storeDemoImage(IMAGE);
    const upload = await storeImage(readFileSync(`demo/images/${IMAGE}`));
    expect([demo.width, demo.height]).toEqual([upload.width, upload.height]);
    expect(stored(demo.key)).toEqual(stored(upload.key));
  });

  it("is encoded anew when the build's variants were made from another file", async () => {
    const built = mkdtempSync(path.join(tmpdir(), "dejiny-demo-images-"));
    cpSync(path.join(DEMO_IMAGES_BUILT, IMAGE), path.join(built, IMAGE), { recursive: true });
    // A mark in a built file: stored as it is while the build's variants are used.
    writeFileSync(path.join(built, IMAGE, "400.webp"), "z buildu");
    const fromBuild = await storeDemoImage(IMAGE, built);
    expect(readFileSync(path.join(env.uploadsDir, `${fromBuild.key}-400.webp`), "utf8")).toBe("z buildu");

    const image = JSON.parse(readFileSync(path.join(built, IMAGE, "image.json"), "utf8"));
    writeFileSync(path.join(built, IMAGE, "image.json"), JSON.stringify({ ...image, sha256: "0".repeat(64) }));
    const encoded = await storeDemoImage(IMAGE, built);
    expect(readFileSync(path.join(env.uploadsDir, `${encoded.key}-400.webp`))).toEqual(readFileSync(path.join(DEMO_IMAGES_BUILT, IMAGE, "400.webp")));
  });
});
