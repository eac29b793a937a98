import { passagesHtml, splitPassages } from "~/lib/text/passages";
import { linkCitations, type Source } from "~/lib/sources";
import { PostSources } from "./PostSources";

/**
 * An article's body and its "Zdroje", the markers [n] in the body linked to
 * them. Each passage has its anchor (#odsek-N); `flagHref`, for a reader who
 * may flag one, adds its "Zdroj?" link.
 */
export function PostText({ content, sources, flagHref }: { content: string; sources: Source[]; flagHref?: (n: number) => string }) {
  const cited = linkCitations(content, sources.length);
  return (
    <>
      {/* Stored content was sanitised when it was written (b, i, em, strong, a, p, br, and h2, h3, ul, ol, li, blockquote, cite; a link's http(s) href); markers [n] become links to the sources. */}
      <div className="post-content" dangerouslySetInnerHTML={{ __html: passagesHtml(splitPassages(cited.html), flagHref) }} />
      <PostSources sources={sources} mentioned={cited.mentioned} />
    </>
  );
}
