import { useEffect, useState } from "react";
import { MAX_TAGS, MESSAGES } from "~/lib/rules";
import { TAGS } from "~/lib/tags";
import { CloseIcon } from "~/components/layout/Icons";

type Props = { initial: string[]; invalid: boolean; errorId: string };

/**
 * Tags for a new article. Without JavaScript: 30 checkboxes. With it: the
 * spec's dropdown and list of chosen tags with remove buttons. Both send the
 * same repeated `tags` fields; the server checks them either way.
 */
export function TagPicker({ initial, invalid, errorId }: Props) {
  const [enhanced, setEnhanced] = useState(false);
  const [chosen, setChosen] = useState<string[]>(initial);
  const [message, setMessage] = useState<string | null>(null);
  useEffect(() => setEnhanced(true), []);
  const describedBy = [invalid ? errorId : null, message ? "tag-message" : null].filter(Boolean).join(" ") || undefined;

  if (!enhanced) {
    return (
      <fieldset className={`field tag-checkboxes${invalid ? " invalid" : ""}`} aria-describedby={invalid ? errorId : undefined}>
        <legend>Tagy (1 až {MAX_TAGS})</legend>
        {TAGS.map((tag) => (
          <label key={tag}>
            <input type="checkbox" name="tags" value={tag} defaultChecked={initial.includes(tag)} /> {tag}
          </label>
        ))}
      </fieldset>
    );
  }

  function add(tag: string) {
    if (!tag) return;
    if (chosen.includes(tag)) return setMessage(MESSAGES.tagDuplicate);
    if (chosen.length >= MAX_TAGS) return setMessage(MESSAGES.tagLimit);
    setMessage(null);
    setChosen([...chosen, tag]);
  }

  return (
    <div className={`field tag-picker${invalid ? " invalid" : ""}`}>
      <label htmlFor="tag-select">Tagy (1 až {MAX_TAGS})</label>
      <select
        id="tag-select"
        value=""
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy}
        onChange={(event) => add(event.currentTarget.value)}
      >
        <option value="">Vyber tag</option>
        {TAGS.map((tag) => (
          <option key={tag} value={tag}>
            {tag}
          </option>
        ))}
      </select>
      {message && (
        <p className="field-message" id="tag-message" role="alert">
          {message}
        </p>
      )}
      <p className="chosen-label" id="chosen-tags-label">
        Zvolené tagy
      </p>
      <ul className="chosen-tags" aria-labelledby="chosen-tags-label">
        {chosen.length === 0 && <li className="chosen-none">žiadne</li>}
        {chosen.map((tag) => (
          <li key={tag}>
            <input type="hidden" name="tags" value={tag} />
            {tag}
            <button
              type="button"
              onClick={() => {
                setMessage(null);
                setChosen(chosen.filter((t) => t !== tag));
              }}
            >
              <CloseIcon label={`Odobrať tag ${tag}`} />
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
