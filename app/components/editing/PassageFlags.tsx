import { Link } from "@remix-run/react";
import { passageAnchor, type PassageFlag } from "~/lib/text/passages";

/**
 * Above the edit form's text, the open "Zdroj?" flags readers left on the
 * article's passages: which passage (as it was then), and what they ask,
 * so its author knows what to fix. Neither who asked nor their note for the
 * editors is shown.
 */
export function PassageFlags({ postId, flags }: { postId: string; flags: PassageFlag[] }) {
  if (flags.length === 0) return null;
  return (
    <section className="passage-flags" aria-labelledby="passage-flags-title">
      <h2 id="passage-flags-title">Čitatelia sa pýtajú na zdroje</h2>
      <ul>
        {flags.map((flag, i) => (
          <li key={i}>
            <Link to={`/posts/${postId}#${passageAnchor(flag.paragraph)}`}>Odsek {flag.paragraph}</Link>: „{flag.quote}“ — {flag.reason}
          </li>
        ))}
      </ul>
    </section>
  );
}
