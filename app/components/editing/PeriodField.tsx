import { useState } from "react";
import { PERIOD_MAX_LENGTH, periodUnderstood } from "~/lib/time/periods";

type Props = { defaultValue?: string; invalid?: boolean; errorId: string };

/**
 * When the article's events happened (~/lib/time/periods): the create and edit
 * forms' field. It says what it understood, rendered by the server for the
 * value it shows and, with JavaScript, as the author types; why it cannot
 * is the form's error, from the same parser on the server.
 */
export function PeriodField({ defaultValue = "", invalid = false, errorId }: Props) {
  const [typed, setTyped] = useState(defaultValue);
  const understood = periodUnderstood(typed);
  return (
    <div className="field">
      <label htmlFor="field-period">
        Obdobie <span className="field-optional">(nepovinné)</span>
      </label>
      <input
        id="field-period"
        name="period"
        type="text"
        maxLength={PERIOD_MAX_LENGTH}
        defaultValue={defaultValue}
        onChange={(event) => setTyped(event.currentTarget.value)}
        aria-invalid={invalid || undefined}
        aria-describedby={invalid ? `${errorId} period-hint period-understood` : "period-hint period-understood"}
        placeholder="napr. 29. 8. 1526"
      />
      <p className="field-hint" id="period-hint">
        Kedy sa to stalo: rok (1526), rozsah (862 – 885), dátum (29. 8. 1526), storočie (9. stor.) alebo desaťročie (1920. roky); pred naším
        letopočtom „pred Kr.“ za rokom (44 pred Kr.), približne „okolo“ pred ním.
      </p>
      <p className="field-hint" id="period-understood" aria-live="polite">
        {understood}
      </p>
    </div>
  );
}
