// Encodes the demo articles' images (demo/images/) into build/demo-images/:
// each image's variants as an upload's are made, and image.json with its size
// and the SHA-256 of the file it was made from. A first start then stores
// these files instead of encoding twelve images (seconds of a core), and
// encodes any image whose file no longer matches. Run by `npm run build`.
//   vite-node scripts/build-demo-images.ts
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { DEMO_IMAGES_BUILT } from "~/config/paths.server";
import { decodeImage, encodedVariants } from "~/services/images/image-encoding.server";
// Only its type: the module itself opens the database.
import type { BuiltDemoImage } from "~/services/operations/demo-images.server";

const source = "demo/images";
rmSync(DEMO_IMAGES_BUILT, { recursive: true, force: true });
for (const file of readdirSync(source)) {
  const bytes = readFileSync(path.join(source, file));
  const decoded = await decodeImage(bytes);
  const folder = path.join(DEMO_IMAGES_BUILT, file);
  mkdirSync(folder, { recursive: true });
  const files: BuiltDemoImage["files"] = [];
  for await (const { variant, format, bytes: encoded } of encodedVariants(decoded)) {
    const name = `${variant}.${format}`;
    writeFileSync(path.join(folder, name), encoded);
    files.push({ variant, format, name });
  }
  const built: BuiltDemoImage = { width: decoded.info.width, height: decoded.info.height, sha256: createHash("sha256").update(bytes).digest("hex"), files };
  writeFileSync(path.join(folder, "image.json"), JSON.stringify(built));
}
