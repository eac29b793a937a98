import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { FormError, Notice } from "~/components/forms/Messages";
import { useFocusFirstError } from "~/components/forms/useFocusFirstError";
import { useBroughtNotice } from "~/components/layout/BroughtNotice";
import { SubscriptionChoices } from "~/components/subscriptions/SubscriptionChoices";
import { checkForm, formProblem, subscriptionChoicesSchema, SUBSCRIPTION_FIELDS } from "~/lib/forms";
import { tokenPageMeta } from "~/lib/site";
import { describeChoices, FREQUENCIES, SUBSCRIPTION_MESSAGES, SUBSCRIPTION_NOTICES, type Frequency, type SubscriptionNotice } from "~/lib/subscriptions";
import { readForm } from "~/services/platform/forms.server";
import { redirectWithNotice } from "~/services/platform/notice.server";
import { ifStorageFails } from "~/services/platform/storage-fault.server";
import { saveChoices, subscriptionOf, unsubscribe } from "~/services/subscriptions/manage.server";
import { choicesOf } from "~/services/subscriptions/subscribe.server";

/**
 * A subscription's settings, by the signed link of its mails (no sign-in):
 * its tags, centuries and frequency, and a button that ends it.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const subscription = subscriptionOf(token);
  if (!subscription) return data({ token, subscription: null }, { status: 404 });
  const { email, frequency, tags, centuries } = subscription;
  return { token, subscription: { email, frequency, tags, centuries } };
}

export async function action({ request }: ActionFunctionArgs) {
  const form = await readForm(request);
  const token = new URL(request.url).searchParams.get("token") ?? String(form.get("token") ?? "");
  const values = { tags: form.getAll("tags").map(String), centuries: form.getAll("centuries").map(Number), frequency: (form.get("frequency") === "weekly" ? "weekly" : "instant") as Frequency };
  const refuse = ({ status, error }: { status: number; error: string }) => data({ error, invalid: [] as string[], values }, { status });
  return ifStorageFails(async () => {
    if (form.get("intent") === "unsubscribe") {
      return unsubscribe(token) === "ended" ? redirect("/odber/zrusit?hotovo", 303) : refuse({ status: 404, error: SUBSCRIPTION_MESSAGES.manageInvalid });
    }
    const checked = checkForm(subscriptionChoicesSchema, form);
    if (!checked.ok) {
      const problem = formProblem(checked.errors, SUBSCRIPTION_FIELDS, SUBSCRIPTION_MESSAGES.emailMissing);
      return data({ error: problem?.message ?? SUBSCRIPTION_MESSAGES.badChoice, invalid: problem?.invalid ?? [], values }, { status: 400 });
    }
    if (!saveChoices(token, choicesOf(checked.value))) return refuse({ status: 404, error: SUBSCRIPTION_MESSAGES.manageInvalid });
    return redirectWithNotice<SubscriptionNotice>(`/odber/nastavenia?token=${token}`, "saved");
  }, refuse);
}

export default function SubscriptionSettings() {
  const { token, subscription } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const notice = useBroughtNotice(SUBSCRIPTION_NOTICES);
  const busy = useNavigation().state === "submitting";
  const form = useFocusFirstError(result?.error ? result : null);
  if (!subscription) {
    return (
      <main id="obsah" className="page auth-single">
        <h1>Nastavenia odberu</h1>
        <FormError text={SUBSCRIPTION_MESSAGES.manageInvalid} />
        <p>
          <Link to="/odber">Prihlásiť sa na odber</Link>
        </p>
      </main>
    );
  }
  const values = result?.values ?? subscription;
  return (
    <main id="obsah" className="page auth-single">
      <h1>Nastavenia odberu</h1>
      <Notice text={notice} />
      <p>
        Odber na adresu <strong>{subscription.email}</strong>: {describeChoices(subscription)}; {FREQUENCIES[subscription.frequency].toLowerCase()}.
      </p>
      <Form method="post" replace className="auth-form" ref={form}>
        <FormError id="nastavenia-chyba" text={result?.error} />
        <input type="hidden" name="token" value={token} />
        <SubscriptionChoices tags={values.tags} centuries={values.centuries} frequency={values.frequency} invalid={result?.invalid ?? []} errorId="nastavenia-chyba" />
        <button type="submit" className="button" disabled={busy}>
          Uložiť nastavenia
        </button>
      </Form>
      <h2>Zrušenie odberu</h2>
      <Form method="post" replace>
        <input type="hidden" name="token" value={token} />
        <input type="hidden" name="intent" value="unsubscribe" />
        <p>Po zrušení vám už nič nepošleme a&nbsp;vašu adresu zabudneme (ponecháme si iba jej odtlačok, aby sme vám omylom nepísali znova).</p>
        <button type="submit" className="button button-secondary">
          Zrušiť odber
        </button>
      </Form>
    </main>
  );
}

export const meta: MetaFunction = () => tokenPageMeta("Nastavenia odberu");

// The address carries a token: no cache may keep the page.
export const headers: HeadersFunction = () => ({ "Cache-Control": "no-store" });
