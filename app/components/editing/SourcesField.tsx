import { SOURCES_FIELD_MAX_LENGTH } from "~/lib/sources";

type Props = { defaultValue?: string; invalid?: boolean; errorId: string };

/** An article's sources, one per line: the create and edit forms' field (~/lib/sources has its rules). */
export function SourcesField({ defaultValue, invalid = false, errorId }: Props) {
  return (
    <div className="field">
      <label htmlFor="field-sources">
        Zdroje <span className="field-optional">(nepovinné)</span>
      </label>
      <textarea
        id="field-sources"
        name="sources"
        rows={4}
        maxLength={SOURCES_FIELD_MAX_LENGTH}
        defaultValue={defaultValue}
        aria-invalid={invalid || undefined}
        aria-describedby={invalid ? errorId : "sources-hint"}
      />
      <p className="field-hint" id="sources-hint">
        Jeden zdroj na riadok (autor, názov, rok…); odkaz http:// alebo https:// môže byť na konci riadka. V{"\u00a0"}texte naň odkážete číslom
        v{"\u00a0"}hranatých zátvorkách: [1], [2]…
      </p>
    </div>
  );
}
