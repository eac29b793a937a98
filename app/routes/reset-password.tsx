import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { NewPasswordFields } from "~/components/forms/Field";
import { useFormCheck } from "~/components/forms/useFormCheck";
import { checkForm, formProblem, NEW_PASSWORD_FIELDS, resetPasswordSchema } from "~/lib/forms";
import type { SignInNotice } from "~/lib/notices";
import { ACCOUNT_MESSAGES, BUSY_MESSAGE } from "~/lib/rules";
import { tokenPageMeta } from "~/lib/site";
import { formText } from "~/services/accounts/auth.server";
import { BusyError, retryAfter } from "~/services/platform/concurrency.server";
import { readForm } from "~/services/platform/forms.server";
import { redirectWithNotice } from "~/services/platform/notice.server";
import { ifStorageFails } from "~/services/platform/storage-fault.server";
import { isResetTokenUsable, resetPassword } from "~/services/accounts/password-reset.server";
import { trustDevice } from "~/services/accounts/trusted-devices.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  return { token, usable: isResetTokenUsable(token) };
}

export async function action({ request }: ActionFunctionArgs) {
  const form = await readForm(request);
  const token = new URL(request.url).searchParams.get("token") ?? formText(form, "token");
  const checked = checkForm(resetPasswordSchema, form);
  if (!checked.ok) {
    const problem = formProblem(checked.errors, NEW_PASSWORD_FIELDS, ACCOUNT_MESSAGES.passwordTooShort)!;
    return data({ error: problem.message, invalid: problem.invalid as string[] }, { status: 400 });
  }
  const { password } = checked.value;
  // A full disk keeps the old password and the link (the change is one transaction): the same link works again later.
  return ifStorageFails(
    async () => {
      const userId = await resetPassword(token, password).catch((error) => {
        if (error instanceof BusyError) return "busy" as const;
        throw error;
      });
      if (userId === "busy") return data({ error: BUSY_MESSAGE, invalid: [] }, { status: 503, headers: retryAfter(503) });
      if (!userId) return data({ error: ACCOUNT_MESSAGES.resetInvalid, invalid: [] }, { status: 400 });
      // The link came to the owner's mailbox: this browser signs in on its own budget from now on (its cookie added beside the notice's).
      return trustDevice(await redirectWithNotice<SignInNotice>("/signinsignup", "passwordChanged"), request, userId);
    },
    ({ status, error, headers }) => data({ error, invalid: [] }, { status, headers }),
  );
}

export default function ResetPassword() {
  const { token, usable } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const check = useFormCheck(resetPasswordSchema, NEW_PASSWORD_FIELDS, ACCOUNT_MESSAGES.passwordTooShort);
  const shown = check.problem ? { error: check.problem.message, invalid: check.problem.invalid } : result;
  return (
    <main id="obsah" className="page auth-single">
      <h1>Nové heslo</h1>
      {usable ? (
        <Form method="post" replace noValidate className="auth-form" onSubmit={check.onSubmit}>
          <input type="hidden" name="token" value={token} />
          {shown?.error && (
            <p className="form-error" id="reset-error" role="alert">
              {shown.error}
            </p>
          )}
          <NewPasswordFields label="Nové heslo" invalid={shown?.invalid ?? []} errorId="reset-error" />
          <button type="submit" className="button">
            Nastaviť heslo
          </button>
        </Form>
      ) : (
        <>
          <p className="form-error" role="alert">
            {ACCOUNT_MESSAGES.resetInvalid}
          </p>
          <p>
            <Link to="/signinsignup?forgot">Požiadať o nový odkaz</Link>
          </p>
        </>
      )}
    </main>
  );
}

export const meta: MetaFunction = () => tokenPageMeta("Nové heslo");

// The address carries a reset token: no cache may keep the page.
export const headers: HeadersFunction = () => ({ "Cache-Control": "no-store" });
