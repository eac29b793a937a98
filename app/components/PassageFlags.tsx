import { Link } from "@remix-run/react";
import { clipText } from "~/lib/content-text";
import { reasonLabel } from "~/lib/moderation";
import { passageAnchor } from "~/lib/passages";

export type PassageFlag = { paragraph: number | null; passage: string; reason: string; note: string };

/** How much of a flagged passage the edit form quotes: enough to find it in the text. */
const QUOTED = 120;

/**
 * Above the edit form's text, the open "Zdroj?" flags readers left on the
 * article's passages: which passage (as it was then), and what they ask,
 * so its author knows what to fix. Who asked is not shown.
 */
export function PassageFlags({ postId, flags }: { postId: string; flags: PassageFlag[] }) {
  if (flags.length === 0) return null;
  return (
    <section className="passage-flags" aria-labelledby="passage-flags-title">
      <h2 id="passage-flags-title">Čitatelia sa pýtajú na zdroje</h2>
      <ul>
        {flags.map((flag, i) => (
          <li key={i}>
            {flag.paragraph !== null && <Link to={`/posts/${postId}#${passageAnchor(flag.paragraph)}`}>Odsek {flag.paragraph}</Link>}: „{clipText(flag.passage, QUOTED)}“ —{" "}
            {reasonLabel(flag.reason)}
            {flag.note && ` (${flag.note})`}
          </li>
        ))}
      </ul>
    </section>
  );
}
