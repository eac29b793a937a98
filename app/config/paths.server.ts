import { fileURLToPath } from "node:url";

// This module sits two folders below the project root both as source
// (app/config/) and once built (build/server/), so one relative URL serves both.
const root = new URL("../../", import.meta.url);

/** Absolute path of a file or folder shipped with the project (drizzle/, demo/, …). */
export function projectPath(relative: string): string {
  return fileURLToPath(new URL(relative, root));
}

/** Where `npm run build` puts the demo images' variants, encoded (scripts/build-demo-images.ts). */
export const DEMO_IMAGES_BUILT = projectPath("build/demo-images");
