import { centuryLabel, FREQUENCIES, SUBSCRIPTION_CENTURIES, type Frequency } from "~/lib/subscriptions";
import { TAGS } from "~/lib/tags";

type Props = { tags: string[]; centuries: number[]; frequency: Frequency; invalid: string[]; errorId: string };

/**
 * What a subscription follows (/odber and its settings page): tags and
 * centuries as checkboxes (none ticked: every new article) and how often, as
 * radio buttons. Plain fields: the same form with JavaScript or without.
 */
export function SubscriptionChoices({ tags, centuries, frequency, invalid, errorId }: Props) {
  const marked = (field: string) => invalid.includes(field);
  return (
    <>
      <p>Ak nevyberiete žiadny tag ani storočie, pošleme vám všetky nové články. Inak iba tie, ktoré majú niektorý z&nbsp;vybraných tagov alebo sa odohrávajú v&nbsp;niektorom z&nbsp;vybraných storočí.</p>
      <fieldset className={`field tag-checkboxes subscription-choices${marked("tags") ? " invalid" : ""}`} aria-describedby={marked("tags") ? errorId : undefined}>
        <legend>Tagy</legend>
        {TAGS.map((tag) => (
          <label key={tag}>
            <input type="checkbox" name="tags" value={tag} defaultChecked={tags.includes(tag)} /> {tag}
          </label>
        ))}
      </fieldset>
      <fieldset className={`field tag-checkboxes subscription-choices${marked("centuries") ? " invalid" : ""}`} aria-describedby={marked("centuries") ? errorId : undefined}>
        <legend>Storočia</legend>
        {SUBSCRIPTION_CENTURIES.map((century) => (
          <label key={century}>
            <input type="checkbox" name="centuries" value={century} defaultChecked={centuries.includes(century)} /> {centuryLabel(century)}
          </label>
        ))}
      </fieldset>
      <fieldset className={`field tag-checkboxes${marked("frequency") ? " invalid" : ""}`} aria-describedby={marked("frequency") ? errorId : undefined}>
        <legend>Ako často</legend>
        {(Object.keys(FREQUENCIES) as Frequency[]).map((value) => (
          <label key={value}>
            <input type="radio" name="frequency" value={value} defaultChecked={frequency === value} /> {FREQUENCIES[value]}
          </label>
        ))}
      </fieldset>
    </>
  );
}
