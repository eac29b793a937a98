import { readFile } from "node:fs/promises";
import { isTag } from "~/lib/tags";
import { countPostsOf, insertPost } from "~/models/posts.server";
import { ensureAuthorWithoutLogin, getUserByEmail } from "~/models/users.server";
import { excerptOf } from "~/lib/content-text";
import { toStoredContent } from "./content.server";
import { storeImage } from "./images.server";
import { projectPath } from "~/config/paths.server";
import { moderateAccount } from "./moderation.server";

type DemoArticle = { title: string; content: string; tags: string[]; image: string; daysAgo: number };

const DAY = 24 * 60 * 60 * 1000;
/** The demo articles' author: an account that cannot sign in (the .invalid domain receives no mail). */
const DEMO_AUTHOR = { displayName: "Redakcia Dejiny", email: "demo@dejiny.invalid" };

/** Publish the demo articles shipped in demo/, by an author who cannot sign in. */
export async function seedDemoContent(now = Date.now()): Promise<number> {
  const articles: DemoArticle[] = JSON.parse(await readFile(projectPath("demo/articles.json"), "utf8"));
  const author = ensureAuthorWithoutLogin(DEMO_AUTHOR.displayName, DEMO_AUTHOR.email);
  for (const article of articles) {
    const tags = article.tags.filter(isTag);
    const image = await storeImage(await readFile(projectPath(`demo/images/${article.image}`)));
    const content = await toStoredContent(article.content);
    insertPost({
      title: article.title,
      content,
      excerpt: excerptOf(content),
      image,
      authorId: author.id,
      tags,
      createdAt: now - article.daysAgo * DAY,
    });
  }
  return articles.length;
}

/**
 * Remove every article of the demo author, with its images, as an admin's
 * "remove all articles" does (and logged as one from the command line).
 * Answers how many. They do not come back: the demo is published only on a
 * site's very first start (startup.server.ts).
 */
export async function removeDemoContent(): Promise<number> {
  const author = getUserByEmail(DEMO_AUTHOR.email);
  // Nothing to remove is not an action for the moderation log.
  if (!author || countPostsOf(author.id) === 0) return 0;
  const result = await moderateAccount("command line", author.id, "removeArticles");
  return result.ok ? (result.removed ?? 0) : 0;
}
