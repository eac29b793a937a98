import { linkCitations, type Source } from "~/lib/sources";
import { PostSources } from "./PostSources";

/** An article's body and its "Zdroje", the markers [n] in the body linked to them. */
export function PostText({ content, sources }: { content: string; sources: Source[] }) {
  const cited = linkCitations(content, sources.length);
  return (
    <>
      {/* Stored content was sanitised when it was written (b, i, em, strong, a, p, br, and h2, h3, ul, ol, li, blockquote, cite; a link's http(s) href); markers [n] become links to the sources. */}
      <div className="post-content" dangerouslySetInnerHTML={{ __html: cited.html }} />
      <PostSources sources={sources} mentioned={cited.mentioned} />
    </>
  );
}
