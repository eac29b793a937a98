import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { Notice } from "~/components/forms/Messages";
import { TokenActionPage } from "~/components/forms/TokenActionPage";
import { tokenPageMeta } from "~/lib/site";
import { SUBSCRIPTION_MESSAGES } from "~/lib/subscriptions";
import { readForm } from "~/services/platform/forms.server";
import { ifStorageFails } from "~/services/platform/storage-fault.server";
import { subscriptionOf, unsubscribe } from "~/services/subscriptions/manage.server";

/**
 * Ending a subscription by hand: the page a mail's unsubscribe link opens
 * in a browser (odber.odhlasit.ts sends a GET here). Opening it ends
 * nothing (link scanners open links); its button does.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const params = new URL(request.url).searchParams;
  if (params.has("hotovo")) return { state: "ended" as const, token: "" };
  const token = params.get("token") ?? "";
  return { state: subscriptionOf(token) ? ("active" as const) : ("invalid" as const), token };
}

export async function action({ request }: ActionFunctionArgs) {
  const form = await readForm(request);
  const token = new URL(request.url).searchParams.get("token") ?? String(form.get("token") ?? "");
  return ifStorageFails(
    () => (unsubscribe(token) === "ended" ? redirect("/odber/zrusit?hotovo", 303) : data({ error: SUBSCRIPTION_MESSAGES.manageInvalid as string }, { status: 400 })),
    ({ status, error, headers }) => data({ error }, { status, headers }),
  );
}

export default function Unsubscribe() {
  const { state, token } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  if (state === "ended") {
    return (
      <main id="obsah" className="page auth-single">
        <h1>Zrušenie odberu</h1>
        <Notice text="Odber je zrušený. Už vám nič nepošleme." />
        <p>
          <Link to="/">Prejsť na úvodnú stránku</Link>
        </p>
      </main>
    );
  }
  return (
    <TokenActionPage
      title="Zrušenie odberu"
      token={token}
      usable={state === "active"}
      button="Zrušiť odber"
      error={result?.error}
      invalid={SUBSCRIPTION_MESSAGES.manageInvalid}
      elsewhere={{ to: "/odber", text: "Prihlásiť sa na odber" }}
    >
      Stlačením tlačidla zrušíte odber nových článkov zo stránky Dejiny.
    </TokenActionPage>
  );
}

export const meta: MetaFunction = () => tokenPageMeta("Zrušenie odberu");

// The address carries a token: no cache may keep the page.
export const headers: HeadersFunction = () => ({ "Cache-Control": "no-store" });
