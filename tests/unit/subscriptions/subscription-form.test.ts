import { describe, expect, it } from "vitest";
import { checkForm, subscribeSchema, subscriptionChoicesSchema } from "~/lib/forms";
import { describeChoices, readSource, SUBSCRIPTION_CENTURIES, SUBSCRIPTION_MESSAGES } from "~/lib/subscriptions";
import { TAGS } from "~/lib/tags";

/** The subscription forms' rules: every choice from a fixed list, so a subscription's rows are bounded. */

const form = (fields: [string, string][]) => {
  const data = new FormData();
  for (const [name, value] of fields) data.append(name, value);
  return data;
};

describe("the subscription forms", () => {
  it("takes an address alone (the footer's form): every new article, each as published", () => {
    const checked = checkForm(subscribeSchema, form([["email", " Citatel@Example.com "]]));
    expect(checked).toEqual({ ok: true, value: { email: "Citatel@Example.com", tags: [], centuries: [], frequency: "instant" } });
  });

  it("takes every tag and every century of the lists, and nothing else", () => {
    const all = form([...TAGS.map((t): [string, string] => ["tags", t]), ...SUBSCRIPTION_CENTURIES.map((c): [string, string] => ["centuries", String(c)]), ["frequency", "weekly"]]);
    expect(checkForm(subscriptionChoicesSchema, all).ok).toBe(true);
    for (const bad of [["tags", "Neexistuje"], ["centuries", "0"], ["centuries", "22"], ["centuries", "-9"], ["centuries", "1.5"], ["centuries", "015"]] as [string, string][]) {
      const checked = checkForm(subscriptionChoicesSchema, form([bad]));
      expect(checked.ok ? null : checked.errors[bad[0]]?.[0]).toBe(SUBSCRIPTION_MESSAGES.badChoice);
    }
  });

  it("refuses more values than the lists hold (repeats sent on purpose)", () => {
    const many = form(Array.from({ length: TAGS.length + 1 }, (): [string, string] => ["tags", TAGS[0]]));
    expect(checkForm(subscriptionChoicesSchema, many).ok).toBe(false);
  });

  it("refuses an unknown frequency and a bad address", () => {
    expect(checkForm(subscriptionChoicesSchema, form([["frequency", "hourly"]]))).toMatchObject({ ok: false, errors: { frequency: [SUBSCRIPTION_MESSAGES.frequency] } });
    expect(checkForm(subscribeSchema, form([["email", "nie-adresa"]]))).toMatchObject({ ok: false, errors: { email: [SUBSCRIPTION_MESSAGES.emailInvalid] } });
  });

  it("records a known source only, and says what a subscription follows", () => {
    expect(readSource("clanok")).toBe("clanok");
    expect(readSource("<script>")).toBe("odber");
    expect(describeChoices({ tags: [], centuries: [] })).toBe("všetky nové články");
    expect(describeChoices({ tags: ["Stredovek"], centuries: [-1, 15] })).toBe("Stredovek, 1. storočie pred Kr., 15. storočie");
  });
});
