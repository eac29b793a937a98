import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { FormError } from "~/components/forms/Messages";
import { tokenPageMeta } from "~/lib/site";
import { SUBSCRIPTION_MESSAGES, type SubscriptionNotice } from "~/lib/subscriptions";
import { readForm } from "~/services/platform/forms.server";
import { redirectWithNotice } from "~/services/platform/notice.server";
import { ifStorageFails } from "~/services/platform/storage-fault.server";
import { confirmSubscription, isConfirmLinkUsable } from "~/services/subscriptions/subscribe.server";
import { manageToken } from "~/services/subscriptions/subscription-links.server";

/**
 * The link of a subscription's confirmation mail opens this page; its
 * button (a POST) confirms, then leads to the subscription's settings.
 * Opening the link changes nothing, so a mail scanner confirms nobody.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  return { usable: isConfirmLinkUsable(token), token };
}

export async function action({ request }: ActionFunctionArgs) {
  const form = await readForm(request);
  const token = new URL(request.url).searchParams.get("token") ?? String(form.get("token") ?? "");
  return ifStorageFails(
    async () => {
      const id = confirmSubscription(token);
      if (!id) return data({ error: SUBSCRIPTION_MESSAGES.linkInvalid as string }, { status: 400 });
      return redirectWithNotice<SubscriptionNotice>(`/odber/nastavenia?token=${manageToken(id)}`, "confirmed");
    },
    ({ status, error, headers }) => data({ error }, { status, headers }),
  );
}

export default function ConfirmSubscription() {
  const { usable, token } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  return (
    <main id="obsah" className="page auth-single">
      <h1>Potvrdenie odberu</h1>
      {usable ? (
        <Form method="post" replace className="auth-form">
          <input type="hidden" name="token" value={token} />
          <FormError text={result?.error} />
          <p>Stlačením tlačidla potvrdíte, že chcete na túto e-mailovú adresu dostávať nové články zo stránky Dejiny. Odber môžete kedykoľvek zmeniť alebo zrušiť odkazom v&nbsp;každom e-maile.</p>
          <button type="submit" className="button">
            Potvrdiť odber
          </button>
        </Form>
      ) : (
        <>
          {/* The loader's answer after a refused POST too: the link no longer works. */}
          <FormError text={SUBSCRIPTION_MESSAGES.linkInvalid} />
          <p>
            <Link to="/odber">Prihlásiť sa na odber</Link>
          </p>
        </>
      )}
    </main>
  );
}

export const meta: MetaFunction = () => tokenPageMeta("Potvrdenie odberu");

// The address carries a token: no cache may keep the page.
export const headers: HeadersFunction = () => ({ "Cache-Control": "no-store" });
