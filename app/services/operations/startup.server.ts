import { getMeta, setMeta } from "~/models/meta.server";
import { countPosts, referencedImageKeys } from "~/models/posts.server";
import { indexMissingPosts } from "~/models/search.server";
import { seedDemoContent } from "./demo.server";
import { env } from "~/config/env.server";
import { addMissingThumbnails, removeLooseImages } from "~/services/images/images.server";
import { startMailSender } from "~/services/platform/mail-outbox.server";
import { startMailings } from "~/services/subscriptions/mailings.server";
import { removeStalePendingImages } from "~/services/articles/posts.server";

const HOUR = 60 * 60 * 1000;

/**
 * Runs once before the server listens (the database module has already
 * applied migrations on import): indexes articles the search does not know
 * yet (all of them, on the first start after an upgrade), starts delivering the mail outbox, removes the files of interrupted uploads and deletes,
 * schedules the clean-up of unused pending images, goes on queueing subscriptions' mails and makes the week's digest when due, and on the very first
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
  try {
    const removed = await removeLooseImages();
    if (removed > 0) console.info(`Removed the files of ${removed} images that no article refers to (left by an interrupted upload or delete).`);
  } catch (error) {
    // A bucket out of reach need not keep the site down: the loose files wait for the next start.
    console.error("Could not clean up the image files; the next start tries again", error);
  }
  startMailSender();
  startMailings();
  await removeStalePendingImages();
  if (!getMeta(THUMBNAILS_COMPLETE)) void addThumbnails();
  // Hourly, and not keeping the process alive on its own.
  setInterval(() => void removeStalePendingImages().catch((error) => console.error("Pending image clean-up failed", error)), HOUR).unref();
  await installOnce();
}

/** Every image has its thumbnail (images are stored with one since): no start needs to look again. */
const THUMBNAILS_COMPLETE = "thumbnails_complete";

/**
 * In the background: a site upgraded with thousands of images need not wait
 * for their thumbnails. Once all are there, later starts skip the check (an
 * image store in a bucket would be asked about every image at every start).
 */
async function addThumbnails(): Promise<void> {
  try {
    const { made, failed } = await addMissingThumbnails(referencedImageKeys());
    if (made > 0) console.info(`Made the phone thumbnails of ${made} images stored before thumbnails existed.`);
    if (failed === 0) setMeta(THUMBNAILS_COMPLETE, new Date().toISOString());
  } catch (error) {
    console.error("Could not check the images' thumbnails; the next start tries again", error);
  }
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
