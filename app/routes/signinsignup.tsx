import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import { useEffect, useMemo, useRef } from "react";
import { DisplayNameField, Field, NewPasswordFields } from "~/components/forms/Field";
import { FormError, Notice } from "~/components/forms/Messages";
import { Statement } from "~/components/moderation/Statement";
import { CloseIcon } from "~/components/layout/Icons";
import { useBroughtNotice } from "~/components/layout/BroughtNotice";
import { useFormCheck } from "~/components/forms/useFormCheck";
import { forgotPasswordSchema, REGISTER_FIELDS, registerSchema } from "~/lib/forms";
import { safeRedirect } from "~/lib/links";
import { MODERATION_MESSAGES } from "~/lib/moderation/moderation";
import { SIGNIN_NOTICES } from "~/lib/notices";
import { ACCOUNT_MESSAGES, MESSAGES } from "~/lib/rules";
import { pageTitle } from "~/lib/site";
import { retryAfter } from "~/services/platform/concurrency.server";
import { readForm } from "~/services/platform/forms.server";
import { getCurrentUser } from "~/services/platform/session.server";
import { ifStorageFails, onForm } from "~/services/platform/storage-fault.server";
import { appealFromSignIn, forgotPassword, register, signIn, storageRefusal, type AccountFormResult } from "./signinsignup.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const redirectTo = safeRedirect(url.searchParams.get("redirectTo"));
  if (await getCurrentUser(request)) throw redirect(redirectTo);
  return { redirectTo };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readForm(request);
  const intent = form.get("intent");
  const answer = (): Promise<AccountFormResult | Response> | AccountFormResult => {
    if (intent === "signin") return signIn(request, form, context.clientAddress);
    if (intent === "register") return register(request, form, context.clientAddress);
    if (intent === "forgot") return forgotPassword(form, context.clientAddress);
    if (intent === "appeal") return appealFromSignIn(form);
    return { intent: "signin", status: 400, error: MESSAGES.badCredentials, invalid: [], values: {} };
  };
  // A sign-in writes too (its session): a full disk is answered on the form, with the e-mail and name kept.
  const result = await ifStorageFails(answer, (fault) => storageRefusal(intent, form, onForm(fault)));
  if (result instanceof Response) return result;
  return data(result, { status: result.status, headers: retryAfter(result.status) });
}

type Mode = "signin" | "register";

export default function SignInSignUp() {
  const { redirectTo } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const [searchParams] = useSearchParams();
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";

  // The form that was refused stays on screen, whatever the address says.
  const mode: Mode =
    result?.intent === "register" || result?.intent === "signin"
      ? result.intent
      : searchParams.get("mode") === "register"
        ? "register"
        : "signin";
  const forgotOpen = searchParams.has("forgot");
  const notice = useBroughtNotice(SIGNIN_NOTICES);
  const registerCheck = useFormCheck(registerSchema, REGISTER_FIELDS, ACCOUNT_MESSAGES.fillAll);
  const { clear: clearRegisterCheck } = registerCheck;
  useEffect(clearRegisterCheck, [mode, clearRegisterCheck]);
  const registerProblem = mode === "register" ? registerCheck.problem : null;
  // The browser's check of the register form, shown as the server would show it; else the server's answer.
  const formResult = useMemo(
    () => (registerProblem ? { error: registerProblem.message, invalid: registerProblem.invalid, values: {} } : result && result.intent === mode ? result : undefined),
    [registerProblem, result, mode],
  );
  const form = useRef<HTMLFormElement>(null);
  // After a refusal the browser would keep what was typed; passwords are never kept.
  useEffect(() => {
    form.current?.querySelectorAll<HTMLInputElement>('input[type="password"]').forEach((input) => (input.value = ""));
  }, [formResult]);
  const forgotResult = result?.intent === "forgot" ? result : undefined;
  const keep = redirectTo !== "/" ? `&redirectTo=${encodeURIComponent(redirectTo)}` : "";

  return (
    <main id="obsah" className="auth-page">
      <div className="auth-panel">
        <h1>{mode === "register" ? "Registrácia" : "Prihlásenie"}</h1>
        <Notice text={notice} />
        {/* Keyed by mode: switching clears the e-mail, the passwords and the error. */}
        <Form method="post" replace key={mode} className="auth-form" noValidate ref={form} onSubmit={mode === "register" ? registerCheck.onSubmit : undefined}>
          <input type="hidden" name="intent" value={mode} />
          <input type="hidden" name="redirectTo" value={redirectTo} />
          <FormError id="auth-error" text={formResult?.error} />
          {mode === "register" && (
            <DisplayNameField defaultValue={formResult?.values.displayName} invalid={formResult?.invalid.includes("displayName")} errorId="auth-error" />
          )}
          <Field
            name="email"
            label="E-mail"
            type="email"
            // The e-mail is the account's name: password managers pair it with the password field below it.
            autoComplete="email"
            required
            defaultValue={formResult?.values.email}
            invalid={formResult?.invalid.includes("email")}
            errorId="auth-error"
          />
          {mode === "register" ? (
            <NewPasswordFields label="Heslo" invalid={formResult?.invalid ?? []} errorId="auth-error" />
          ) : (
            <Field
              name="password"
              label="Heslo"
              type="password"
              autoComplete="current-password"
              required
              invalid={formResult?.invalid.includes("password")}
              errorId="auth-error"
            />
          )}
          <label className="checkbox">
            <input type="checkbox" name="remember" value="on" /> Zapamätať si ma
          </label>
          <button type="submit" className="button" disabled={busy}>
            {mode === "register" ? "Zaregistrovať sa" : "Prihlásiť sa"}
          </button>
        </Form>
        {result?.disabled && (
          <section aria-labelledby="rozhodnutie-o-ucte" className="disabled-statement">
            <h2 id="rozhodnutie-o-ucte">Rozhodnutie o vašom účte</h2>
            {result.disabled.appealed && (
              <p className="notice" role="status">
                {MODERATION_MESSAGES.appealFiled}
              </p>
            )}
            <Statement
              statement={result.disabled.statement}
              hidden={{ token: result.disabled.token }}
              error={result.disabled.appealError}
              text={result.disabled.appealText}
              headingLevel={3}
            />
          </section>
        )}
        <p className="auth-switch">
          {mode === "register" ? (
            <>
              Máte už účet? <Link to={`/signinsignup?mode=signin${keep}`}>Prihláste sa</Link>
            </>
          ) : (
            <>
              Nemáte účet? <Link to={`/signinsignup?mode=register${keep}`}>Zaregistrujte sa</Link>
            </>
          )}
        </p>
        {mode === "signin" && (
          <p>
            <Link to={`/signinsignup?forgot${keep}`} preventScrollReset>
              Zabudnuté heslo?
            </Link>
          </p>
        )}
      </div>
      <div className="auth-image" aria-hidden="true" />
      {forgotOpen && <ForgotPasswordModal error={forgotResult?.error} email={forgotResult?.values.email} closeHref={`/signinsignup?mode=signin${keep}`} />}
    </main>
  );
}

function ForgotPasswordModal({ error: serverError, email, closeHref }: { error?: string; email?: string; closeHref: string }) {
  const dialog = useRef<HTMLDivElement>(null);
  const check = useFormCheck(forgotPasswordSchema, ["email"], MESSAGES.emailRequired);
  const error = check.problem?.message ?? serverError;
  useEffect(() => dialog.current?.querySelector("input")?.focus(), []);
  return (
    <div className="modal-backdrop">
      <div className="modal" role="dialog" aria-modal="true" aria-labelledby="forgot-title" ref={dialog}>
        <div className="modal-head">
          <h2 id="forgot-title">Zabudnuté heslo</h2>
          <Link to={closeHref} className="modal-close" preventScrollReset replace>
            <CloseIcon label="Zavrieť" />
          </Link>
        </div>
        <p>Zadajte e-mail svojho účtu a pošleme vám odkaz na nastavenie nového hesla.</p>
        <Form method="post" replace noValidate onSubmit={check.onSubmit}>
          <input type="hidden" name="intent" value="forgot" />
          {error && (
            <p className="form-error" id="forgot-error" role="alert">
              {error}
            </p>
          )}
          <Field id="forgot-email" name="email" label="E-mail" type="email" autoComplete="email" defaultValue={email} invalid={Boolean(error)} errorId="forgot-error" />
          <button type="submit" className="button">
            Odoslať
          </button>
        </Form>
      </div>
    </div>
  );
}

export const meta: MetaFunction = () => [
  { title: pageTitle("Prihlásenie a registrácia") },
  { name: "robots", content: "noindex" },
];
