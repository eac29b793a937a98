import { getMeta, setMeta } from "~/models/meta.server";
import { countPosts } from "~/models/posts.server";
import { seedDemoContent } from "./demo.server";
import { env } from "./env.server";

/**
 * Runs once before the server listens (the database module has already
 * applied migrations on import). On the very first start of an installation
 * with no posts, it publishes the demo articles unless DEMO_CONTENT=off.
 */
export async function startup(): Promise<void> {
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
