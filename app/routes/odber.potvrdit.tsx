import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { TokenActionPage } from "~/components/forms/TokenActionPage";
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
    <TokenActionPage
      title="Potvrdenie odberu"
      token={token}
      usable={usable}
      button="Potvrdiť odber"
      error={result?.error}
      invalid={SUBSCRIPTION_MESSAGES.linkInvalid}
      elsewhere={{ to: "/odber", text: "Prihlásiť sa na odber" }}
    >
      Stlačením tlačidla potvrdíte, že chcete na túto e-mailovú adresu dostávať nové články zo stránky Dejiny. Odber môžete kedykoľvek zmeniť alebo zrušiť odkazom v&nbsp;každom e-maile.
    </TokenActionPage>
  );
}

export const meta: MetaFunction = () => tokenPageMeta("Potvrdenie odberu");

// The address carries a token: no cache may keep the page.
export const headers: HeadersFunction = () => ({ "Cache-Control": "no-store" });
