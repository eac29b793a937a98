import { getMeta, setMeta } from "~/models/meta.server";
import { countPosts, referencedImageKeys } from "~/models/posts.server";
import { indexMissingPosts } from "~/models/search.server";
import { seedDemoContent } from "./demo.server";
import { env } from "~/config/env.server";
import { addMissingThumbnails, removeOrphanImages } from "./images.server";
import { removeStalePendingImages } from "./posts.server";

const HOUR = 60 * 60 * 1000;

/**
 * Runs once before the server listens (the database module has already
 * applied migrations on import): indexes articles the search does not know
 * yet (all of them, on the first start after an upgrade), removes image files nothing refers to,
 * schedules the clean-up of unused pending images, and on the very first
 * start of an installation with no posts publishes the demo articles unless
 * DEMO_CONTENT=off. A read-only replica does none of it.
 */
export async function startup(): Promise<void> {
  // All of the work below writes: a replica's copy stays as the primary made it.
  if (env.readOnly) {
    console.info(`Read-only mode: serving ${env.databasePath}; writes are refused.`);
    return;
  }
  const indexed = indexMissingPosts();
  if (indexed > 0) console.info(`Indexed ${indexed} articles for search.`);
  const orphans = await removeOrphanImages(referencedImageKeys());
  if (orphans > 0) console.info(`Removed ${orphans} image files that no article refers to (left by an interrupted upload).`);
  await removeStalePendingImages();
  // In the background: a site upgraded with thousands of images need not wait for their thumbnails.
  void addMissingThumbnails(referencedImageKeys()).then((made) => {
    if (made > 0) console.info(`Made the phone thumbnails of ${made} images stored before thumbnails existed.`);
  });
  // Hourly, and not keeping the process alive on its own.
  setInterval(() => void removeStalePendingImages().catch((error) => console.error("Pending image clean-up failed", error)), HOUR).unref();
  await installOnce();
}

async function installOnce(): Promise<void> {
  if (getMeta("installed_at")) return;
  if (env.demoContent && countPosts() === 0) {
    try {
      const count = await seedDemoContent();
      console.info(`First start: published ${count} demo articles (DEMO_CONTENT=off turns this off).`);
    } catch (error) {
      // The site is still usable without its demo; the next start tries again.
      console.error("Could not publish the demo articles", error);
      return;
    }
  }
  setMeta("installed_at", new Date().toISOString());
}
