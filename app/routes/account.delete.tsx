import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Field } from "~/components/forms/Field";
import { FormError } from "~/components/forms/Messages";
import { useFocusFirstError } from "~/components/forms/useFocusFirstError";
import { articleCount } from "~/lib/moderation/moderation";
import type { SignInNotice } from "~/lib/notices";
import { pageTitle } from "~/lib/site";
import { countPostsOf } from "~/models/posts.server";
import { deleteAccount, subscriptionOfAccount } from "~/services/accounts/account.server";
import { retryAfter } from "~/services/platform/concurrency.server";
import { readForm } from "~/services/platform/forms.server";
import { asRefusal, ifStorageFails } from "~/services/platform/storage-fault.server";
import { endSession, requireUser } from "~/services/platform/session.server";
import { noticeCookieHeader } from "~/services/platform/notice.server";
import { requesterFor } from "~/services/accounts/trusted-devices.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return { email: user.email, articles: countPostsOf(user.id), subscribed: subscriptionOfAccount(user) !== undefined };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const form = await readForm(request);
  const result = await ifStorageFails(
    async () => deleteAccount(user, form, await requesterFor(request, context.clientAddress, { userId: user.id })),
    asRefusal,
  );
  // The account and its sessions are gone; the cookie goes too.
  if (result.ok) return endSession(request, "/signinsignup", { notice: await noticeCookieHeader<SignInNotice>("accountDeleted") });
  return data({ error: result.error, invalid: result.invalid }, { status: result.status, headers: retryAfter(result.status) });
}

export default function DeleteAccount() {
  const { email, articles, subscribed } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  const form = useFocusFirstError(result);
  return (
    <main id="obsah" className="page account-page">
      <h1>Zrušenie účtu</h1>
      <p>Zrušením účtu {email} sa natrvalo a okamžite odstránia:</p>
      <ul>
        <li>účet: meno, e-mail a heslo,</li>
        <li>
          {articles > 0 ? `všetky vaše články (${articleCount(articles)})` : "vaše články (teraz nemáte žiadny)"} aj s obrázkami,
        </li>
        <li>všetky prihlásené zariadenia, odkazy na obnovenie hesla a vaše hlásenia{subscribed ? "," : "."}</li>
        {subscribed && <li>váš odber nových článkov e-mailom.</li>}
      </ul>
      <p>Vrátiť sa to nedá. V zázname moderovania zostanú záznamy s vaším menom v podobe, akú malo v čase zásahu.</p>
      <Form method="post" className="stack-form" noValidate ref={form} key={result?.error ?? "delete"}>
        <input type="hidden" name="username" autoComplete="username" value={email} />
        <FormError id="delete-error" text={result?.error} />
        <Field name="password" label="Heslo (na potvrdenie)" type="password" autoComplete="current-password" required invalid={result?.invalid.includes("password")} errorId="delete-error" />
        <div className="button-row">
          <button type="submit" className="button button-danger" disabled={busy}>
            Natrvalo zrušiť účet
          </button>
          <Link to="/account" className="button button-secondary">
            Späť
          </Link>
        </div>
      </Form>
    </main>
  );
}

export const meta: MetaFunction = () => [{ title: pageTitle("Zrušenie účtu") }, { name: "robots", content: "noindex" }];
