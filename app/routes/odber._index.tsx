import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Field } from "~/components/forms/Field";
import { FormError, Notice } from "~/components/forms/Messages";
import { useFocusFirstError } from "~/components/forms/useFocusFirstError";
import { useBroughtNotice } from "~/components/layout/BroughtNotice";
import { SubscriptionChoices } from "~/components/subscriptions/SubscriptionChoices";
import { checkForm, formProblem, subscribeSchema, subscriptionChoicesSchema, SUBSCRIPTION_FIELDS } from "~/lib/forms";
import { EMAIL_MAX_LENGTH } from "~/lib/rules";
import { pageTitle } from "~/lib/site";
import { isSubscriptionCentury, readSource, SUBSCRIPTION_MESSAGES, SUBSCRIPTION_NOTICES, type Frequency, type SubscriptionNotice } from "~/lib/subscriptions";
import { isTag } from "~/lib/tags";
import { readCentury } from "~/lib/time/periods";
import { retryAfter } from "~/services/platform/concurrency.server";
import { readForm } from "~/services/platform/forms.server";
import { redirectWithNotice } from "~/services/platform/notice.server";
import { getCurrentUser } from "~/services/platform/session.server";
import { asRefusal, ifStorageFails, onForm } from "~/services/platform/storage-fault.server";
import { choicesOf, subscribe, subscribeConfirmedAddress } from "~/services/subscriptions/subscribe.server";
import { manageToken } from "~/services/subscriptions/subscription-links.server";

/**
 * "Odber e-mailom": follow the site by e-mail, no account needed. A visitor
 * types an address and gets a confirmation link; a signed-in reader whose
 * address is confirmed subscribes at once. Opened from the list, an
 * article, a tag's list (`?stitok=`), the timeline (`?storocie=`) or the
 * footer (`?od=` names which, recorded with the consent).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const params = new URL(request.url).searchParams;
  const user = await getCurrentUser(request);
  const tag = params.get("stitok");
  const century = readCentury(params.get("storocie"));
  return {
    account: user ? { email: user.email, confirmed: user.emailConfirmedAt !== null } : null,
    source: readSource(params.get("od")),
    initial: { tags: isTag(tag) ? [tag] : [], centuries: century !== null && isSubscriptionCentury(century) ? [century] : [] },
  };
}

const valuesOf = (form: FormData) => ({
  email: String(form.get("email") ?? ""),
  tags: form.getAll("tags").map(String),
  centuries: form.getAll("centuries").map(Number),
  frequency: (form.get("frequency") === "weekly" ? "weekly" : "instant") as Frequency,
});

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readForm(request);
  const user = await getCurrentUser(request);
  const source = readSource(form.get("zdroj"));
  const refused = (status: number, error: string, invalid: string[] = []) => data({ error, invalid, values: valuesOf(form) }, { status, headers: retryAfter(status) });
  const problemOf = (errors: Parameters<typeof formProblem>[0]) => {
    const problem = formProblem(errors, SUBSCRIPTION_FIELDS, SUBSCRIPTION_MESSAGES.emailMissing);
    return refused(400, problem?.message ?? SUBSCRIPTION_MESSAGES.badChoice, problem?.invalid);
  };
  // A signed-in reader whose address is proven: one step, and the settings page.
  if (user !== null && user.emailConfirmedAt !== null) {
    const checked = checkForm(subscriptionChoicesSchema, form);
    if (!checked.ok) return problemOf(checked.errors);
    const result = await ifStorageFails(() => subscribeConfirmedAddress(user, choicesOf(checked.value), source, context.clientAddress), (fault) => asRefusal(onForm(fault)));
    if (!result.ok) return refused(result.status, result.error);
    return redirectWithNotice<SubscriptionNotice>(`/odber/nastavenia?token=${manageToken(result.id)}`, "subscribed");
  }
  const checked = checkForm(subscribeSchema, form);
  if (!checked.ok) return problemOf(checked.errors);
  const { email, ...chosen } = checked.value;
  const result = await ifStorageFails(() => subscribe({ email, ...choicesOf(chosen) }, source, context.clientAddress), (fault) => asRefusal(onForm(fault)));
  if (!result.ok) return refused(result.status, result.error);
  // The same words whatever became of the address.
  return redirectWithNotice<SubscriptionNotice>("/odber", "subscribeSent");
}

export default function Subscribe() {
  const { account, source, initial } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const notice = useBroughtNotice(SUBSCRIPTION_NOTICES);
  const busy = useNavigation().state === "submitting";
  const form = useFocusFirstError(result?.error ? result : null);
  const values = result?.values ?? { email: account?.email ?? "", ...initial, frequency: "instant" as Frequency };
  return (
    <main id="obsah" className="page auth-single">
      <h1>Odber nových článkov e-mailom</h1>
      <Notice text={notice} />
      <p>Pošleme vám nové články z&nbsp;Dejín: každý hneď po uverejnení, alebo raz za týždeň ich prehľad. Účet nepotrebujete a&nbsp;odber zrušíte jedným kliknutím v&nbsp;ktoromkoľvek e-maile.</p>
      <Form method="post" replace className="auth-form" ref={form}>
        <FormError id="odber-chyba" text={result?.error} />
        <input type="hidden" name="zdroj" value={source} />
        {account?.confirmed ? (
          <p>
            Nové články vám budeme posielať na adresu vášho účtu <strong>{account.email}</strong>.
          </p>
        ) : (
          <Field
            name="email"
            label="E-mailová adresa"
            type="email"
            autoComplete="email"
            required
            maxLength={EMAIL_MAX_LENGTH}
            defaultValue={values.email}
            invalid={result?.invalid.includes("email")}
            errorId="odber-chyba"
          />
        )}
        <SubscriptionChoices tags={values.tags} centuries={values.centuries} frequency={values.frequency} invalid={result?.invalid ?? []} errorId="odber-chyba" />
        {!account?.confirmed && <p>Na adresu vám najprv pošleme odkaz na potvrdenie odberu. Kým ho nepotvrdíte, nič iné vám nepošleme.</p>}
        <button type="submit" className="button" disabled={busy}>
          {account?.confirmed ? "Prihlásiť sa na odber" : "Poslať odkaz na potvrdenie"}
        </button>
      </Form>
    </main>
  );
}

export const meta: MetaFunction = () => [{ title: pageTitle("Odber e-mailom") }];

// What a signed-in reader sees differs from a visitor's: kept by nobody.
export const headers: HeadersFunction = () => ({ "Cache-Control": "no-store" });
