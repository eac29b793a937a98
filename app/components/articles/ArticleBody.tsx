import type { Source } from "~/lib/sources";
import { PostTags } from "./PostTags";
import { PostText } from "./PostText";

/** An article's text, its sources and its tags, as readers see them: the article page and the preview alike. */
export function ArticleBody({ content, sources, tags, flagHref }: { content: string; sources: Source[]; tags: string[]; flagHref?: (n: number) => string }) {
  return (
    <>
      <PostText content={content} sources={sources} flagHref={flagHref} />
      <PostTags tags={tags} />
    </>
  );
}
