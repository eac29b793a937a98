import { readFile } from "node:fs/promises";
import { isTag } from "~/lib/tags";
import { readSources, type Source } from "~/lib/sources";
import { countPostsOf, insertPost, updatePost } from "~/models/posts.server";
import { ensureAuthorWithoutLogin, getUserByEmail } from "~/models/users.server";
import { excerptOf } from "~/lib/text/content-text";
import { toStoredContent } from "~/services/articles/content.server";
import { storeDemoImage } from "./demo-images.server";
import { projectPath } from "~/config/paths.server";
import { articleCount } from "~/lib/moderation/moderation";
import { logModeration } from "~/services/platform/moderation-log.server";
import { removePostsOf } from "~/services/articles/posts.server";
import { seedConflicts } from "~/services/articles/conflicts.server";

/**
 * A later revision of a demo article: its summary ("Čo ste zmenili?"), when
 * it was saved, the passages of the text it changed (each `[old, new]`,
 * `old` found exactly once), and, when they changed, the sources as typed.
 */
type DemoEdit = { summary: string; daysAgo: number; replace: [string, string][]; sources?: string[] };
/** Revision 1 of a demo article (its text and sources as typed), and its later edits, oldest first. */
type DemoArticle = {
  title: string;
  content: string;
  sources?: string[];
  tags: string[];
  image: string;
  daysAgo: number;
  /** When its events happened, as an author would type it (~/lib/time/periods). */
  period?: string;
  edits?: DemoEdit[];
};

const DAY = 24 * 60 * 60 * 1000;
/** The demo articles' author: an account that cannot sign in (the .invalid domain receives no mail). */
const DEMO_AUTHOR = { displayName: "Redakcia Dejín", email: "demo@dejiny.invalid" };

/** Publish the demo articles shipped in demo/, by an author who cannot sign in, each edit as the revision it would have been. */
export async function seedDemoContent(now = Date.now()): Promise<number> {
  const articles: DemoArticle[] = JSON.parse(await readFile(projectPath("demo/articles.json"), "utf8"));
  const author = ensureAuthorWithoutLogin(DEMO_AUTHOR.displayName, DEMO_AUTHOR.email);
  for (const article of articles) {
    const tags = article.tags.filter(isTag);
    const image = await storeDemoImage(article.image);
    const content = await toStoredContent(article.content);
    const id = insertPost({
      title: article.title,
      content,
      contentSource: article.content,
      sources: demoSources(article.sources),
      excerpt: excerptOf(content),
      image,
      authorId: author.id,
      tags,
      period: article.period,
      createdAt: now - article.daysAgo * DAY,
    });
    // Through the same write as an author's edit, so each is a revision with its summary and time.
    let typed = article.content;
    let sources = article.sources;
    let savedDaysAgo = article.daysAgo;
    for (const edit of article.edits ?? []) {
      if (!(edit.daysAgo < savedDaysAgo && edit.daysAgo >= 0)) throw new Error(`Demo edit "${edit.summary}" is not after the one before it`);
      typed = edit.replace.reduce(replacedOnce, typed);
      sources = edit.sources ?? sources;
      const stored = await toStoredContent(typed);
      const change = { title: article.title, content: stored, contentSource: typed, sources: demoSources(sources), excerpt: excerptOf(stored) };
      updatePost(id, change, { editorId: author.id, summary: edit.summary, at: now - edit.daysAgo * DAY });
      savedDaysAgo = edit.daysAgo;
    }
  }
  // "Aktuálne konflikty", each leading to the demo articles of its background.
  seedConflicts(JSON.parse(await readFile(projectPath("demo/conflicts.json"), "utf8")));
  return articles.length;
}

function demoSources(lines: string[] = []): Source[] {
  const read = readSources(lines.join("\n"));
  if ("error" in read) throw new Error(`Demo sources: ${read.error}`);
  return read.sources;
}

/** `text` with its one `old` passage made `new`: a demo edit that no longer matches its article fails loudly. */
function replacedOnce(text: string, [old, replacement]: [string, string]): string {
  const at = text.indexOf(old);
  if (at === -1 || text.indexOf(old, at + 1) !== -1) throw new Error(`Demo edit: "${old}" is not in the text exactly once`);
  return text.slice(0, at) + replacement + text.slice(at + old.length);
}

/**
 * Remove every article of the demo author, with its images, as an admin's
 * "remove all articles" does (and logged as one from the command line), but
 * as no decision: the demo author is nobody to tell. Answers how many. They do not come back: the demo is published only on a
 * site's very first start (startup.server.ts).
 */
export async function removeDemoContent(): Promise<number> {
  const author = getUserByEmail(DEMO_AUTHOR.email);
  // Nothing to remove is not an action for the moderation log.
  if (!author || countPostsOf(author.id) === 0) return 0;
  return removePostsOf(author.id, (count) => logModeration("command line", "removeArticles", { user: author, detail: articleCount(count) }));
}
