import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { TokenActionPage } from "~/components/forms/TokenActionPage";
import { ACCOUNT_MESSAGES } from "~/lib/rules";
import { tokenPageMeta } from "~/lib/site";
import { formText } from "~/services/accounts/auth.server";
import { confirmEmail, isConfirmationTokenUsable } from "~/services/accounts/email-confirmation.server";
import { readForm } from "~/services/platform/forms.server";
import { ifStorageFails } from "~/services/platform/storage-fault.server";

/**
 * The link mailed to confirm an address opens this page; its button (a
 * POST) confirms. Opening the link changes nothing, so a mail scanner that
 * fetches it does not confirm an address for anyone.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const params = new URL(request.url).searchParams;
  if (params.has("confirmed")) return { state: "confirmed" as const, token: "" };
  const token = params.get("token") ?? "";
  return { state: isConfirmationTokenUsable(token) ? ("usable" as const) : ("invalid" as const), token };
}

export async function action({ request }: ActionFunctionArgs) {
  const form = await readForm(request);
  const token = new URL(request.url).searchParams.get("token") ?? formText(form, "token");
  return ifStorageFails(
    () => (confirmEmail(token) ? redirect("/confirm-email?confirmed", 303) : data({ error: ACCOUNT_MESSAGES.confirmationInvalid as string }, { status: 400 })),
    ({ status, error, headers }) => data({ error }, { status, headers }),
  );
}

export default function ConfirmEmail() {
  const { state, token } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  if (state === "confirmed") {
    return (
      <main id="obsah" className="page auth-single">
        <h1>E-mailová adresa je potvrdená</h1>
        <p className="notice" role="status">
          Ďakujeme. Odteraz vám budeme posielať aj e-maily o vašich hláseniach a o rozhodnutiach redakcie.
        </p>
        <p>
          <Link to="/account">Prejsť na môj účet</Link>
        </p>
      </main>
    );
  }
  return (
    <TokenActionPage
      title="Potvrdenie e-mailovej adresy"
      token={token}
      usable={state === "usable"}
      button="Potvrdiť adresu"
      error={result?.error}
      invalid={ACCOUNT_MESSAGES.confirmationInvalid}
      elsewhere={{ to: "/account", text: "Prejsť na môj účet" }}
    >
      Stlačením tlačidla potvrdíte, že e-mailová adresa vášho účtu na stránke Dejiny patrí vám. Potom vám na ňu budeme posielať aj e-maily o vašich hláseniach a o rozhodnutiach redakcie.
    </TokenActionPage>
  );
}

export const meta: MetaFunction = () => tokenPageMeta("Potvrdenie e-mailovej adresy");

// The address carries a token: no cache may keep the page.
export const headers: HeadersFunction = () => ({ "Cache-Control": "no-store" });
