import { readFile } from "node:fs/promises";
import { isTag } from "~/lib/tags";
import { insertPost } from "~/models/posts.server";
import { ensureAuthorWithoutLogin } from "~/models/users.server";
import { excerptOf } from "~/lib/content-text";
import { toStoredContent } from "./content.server";
import { storeImage } from "./images.server";
import { projectPath } from "~/config/paths.server";

type DemoArticle = { title: string; content: string; tags: string[]; image: string; daysAgo: number };

const DAY = 24 * 60 * 60 * 1000;

/** Publish the demo articles shipped in demo/, by an author who cannot sign in. */
export async function seedDemoContent(now = Date.now()): Promise<number> {
  const articles: DemoArticle[] = JSON.parse(await readFile(projectPath("demo/articles.json"), "utf8"));
  const author = ensureAuthorWithoutLogin("Redakcia Dejiny", "demo@dejiny.invalid");
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
