import { centuryLabel } from "./time/periods";

/**
 * Following the site by e-mail (docs/subscriptions.md): the words, the
 * choices and their bounds, for the forms and the server alike.
 */

/** Each new article as it is published, or a weekly digest. */
export const FREQUENCIES = { instant: "Každý nový článok hneď po uverejnení", weekly: "Raz za týždeň prehľad nových článkov" } as const;
export type Frequency = keyof typeof FREQUENCIES;

/**
 * The forms a subscription may come from, recorded as its consent: the
 * /odber page (opened from the list, an article, a tag, the timeline or the
 * footer) or a signed-in reader's one step.
 */
export const SUBSCRIPTION_SOURCES = ["odber", "zoznam", "clanok", "stitok", "casova-os", "paticka", "ucet"] as const;
export type SubscriptionSource = (typeof SUBSCRIPTION_SOURCES)[number];

export function readSource(value: unknown): SubscriptionSource {
  return SUBSCRIPTION_SOURCES.find((s) => s === value) ?? "odber";
}

/** The centuries one may follow: 8th century BC to the 21st, the site's span (a fixed list, so a subscription's rows are bounded). */
export const SUBSCRIPTION_CENTURIES: readonly number[] = [...Array.from({ length: 8 }, (_, i) => i - 8), ...Array.from({ length: 21 }, (_, i) => i + 1)];

const centurySet = new Set(SUBSCRIPTION_CENTURIES);
export function isSubscriptionCentury(value: number): boolean {
  return centurySet.has(value);
}

export { centuryLabel };

export const SUBSCRIPTION_MESSAGES = {
  emailMissing: "Zadajte, prosím, svoju e-mailovú adresu.",
  emailInvalid: "Toto nevyzerá ako e-mailová adresa. Skontrolujte ju, prosím.",
  badChoice: "Niektorá z vybraných možností neexistuje. Vyberte, prosím, znova.",
  frequency: "Vyberte, ako často vám máme písať.",
  tooMany: "Odber z tejto siete sme v poslednej hodine spustili už viackrát. Skúste to, prosím, neskôr.",
  notQueued: "E-mail s odkazom sa teraz nepodarilo pripraviť na odoslanie. Skúste to, prosím, o chvíľu znova.",
  linkInvalid: "Tento odkaz je neplatný, už bol použitý alebo vypršal. Prihláste sa na odber, prosím, znova.",
  manageInvalid: "Tento odkaz na nastavenia odberu už neplatí: odber bol zrušený. Ak chcete, prihláste sa na odber znova.",
} as const;

/** What the pages say after a redirect (notice.server.ts): fixed texts, nothing the visitor typed. */
export const SUBSCRIPTION_NOTICES = {
  /** The same words whether or not the address was known (no enumeration). */
  subscribeSent:
    "Ak je adresa správna, poslali sme na ňu e-mail s odkazom na potvrdenie odberu. Odkaz platí 24 hodín. Kým odber nepotvrdíte, nič iné vám nepošleme. Ak e-mail nevidíte, pozrite sa aj do priečinka so spamom.",
  subscribed: "Odber je zapnutý. Nové články vám budeme posielať na adresu vášho účtu.",
  confirmed: "Odber je potvrdený. Tu si ho môžete kedykoľvek zmeniť alebo zrušiť.",
  saved: "Nastavenia odberu sú uložené.",
} as const;
export type SubscriptionNotice = keyof typeof SUBSCRIPTION_NOTICES;

/** What a subscription follows: every new article (no tags, no centuries), or those with one of the tags or within one of the centuries. */
export type SubscriptionChoices = { frequency: Frequency; tags: string[]; centuries: number[] };

/** A subscription's topics in words, for its pages. */
export function describeChoices({ tags, centuries }: Pick<SubscriptionChoices, "tags" | "centuries">): string {
  if (tags.length === 0 && centuries.length === 0) return "všetky nové články";
  return [...tags, ...centuries.map(centuryLabel)].join(", ");
}

/** Whether a subscription follows an article of these tags and century (null: the article has no period). */
export function follows({ tags, centuries }: Pick<SubscriptionChoices, "tags" | "centuries">, article: { tags: string[]; century: number | null }): boolean {
  if (tags.length === 0 && centuries.length === 0) return true;
  return article.tags.some((tag) => tags.includes(tag)) || (article.century !== null && centuries.includes(article.century));
}

const WEEK = 7 * 24 * 60 * 60 * 1000;

/** The weekly digest's latest hour by `now`: Monday 06:00 UTC (7:00 in Bratislava in winter, 8:00 in summer). */
export function digestDueAt(now: number): number {
  const day = new Date(now);
  const monday = Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate() - ((day.getUTCDay() + 6) % 7), 6);
  return monday <= now ? monday : monday - WEEK;
}
