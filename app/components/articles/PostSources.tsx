import { LINK_REL, mentionAnchor, sourceAnchor, type Source } from "~/lib/sources";

/** The "Zdroje" section of an article: numbered as the text cites them, each back to its first mention. */
export function PostSources({ sources, mentioned }: { sources: Source[]; mentioned: Set<number> }) {
  if (sources.length === 0) return null;
  return (
    <section className="post-sources" aria-labelledby="sources-title">
      <h2 id="sources-title">Zdroje</h2>
      <ol>
        {sources.map((source, i) => {
          const n = i + 1;
          return (
            <li key={n} id={sourceAnchor(n)}>
              {source.url ? (
                <a href={source.url} rel={LINK_REL}>
                  {source.text}
                </a>
              ) : (
                source.text
              )}
              {mentioned.has(n) && (
                <>
                  {" "}
                  <a href={`#${mentionAnchor(n)}`} className="source-back" aria-label={`Späť na zmienku [${n}] v texte`}>
                    ↩
                  </a>
                </>
              )}
            </li>
          );
        })}
      </ol>
    </section>
  );
}
