import { redirect } from "@remix-run/node";
import { isEmail, ACCOUNT_MESSAGES, DISPLAY_NAME_MAX_LENGTH, MESSAGES, passwordProblem } from "~/lib/rules";
import { createUser, normaliseEmail } from "~/models/users.server";
import { authenticator, formText, hashPassword, SignInFailure } from "~/services/auth.server";
import { requestPasswordReset } from "~/services/password-reset.server";
import { safeRedirect, startSession } from "~/services/session.server";
import { countAgainst, isThrottled } from "~/services/throttle.server";

type Intent = "signin" | "register" | "forgot";
type FieldName = "displayName" | "email" | "password" | "confirmPassword";

/** What the form shows again after a refusal: the message, the fields to mark, the input (never a password). */
export type AccountFormResult = {
  intent: Intent;
  status: number;
  error: string;
  invalid: FieldName[];
  values: { email?: string; displayName?: string };
};

function refuse(intent: Intent, status: number, error: string, invalid: FieldName[], values: AccountFormResult["values"]): AccountFormResult {
  return { intent, status, error, invalid, values };
}

export async function signIn(request: Request, form: FormData, clientAddress: string): Promise<AccountFormResult | Response> {
  const email = formText(form, "email").trim();
  const account = normaliseEmail(email);
  const values = { email };
  if (isThrottled("signinFailuresPerAddress", clientAddress) || isThrottled("signinFailuresPerAccount", account)) {
    return refuse("signin", 429, ACCOUNT_MESSAGES.tooManyAttempts, [], values);
  }
  try {
    const user = await authenticator.authenticate("form", request);
    return startSession(user.id, form.get("remember") === "on", safeRedirect(form.get("redirectTo")));
  } catch (error) {
    if (!(error instanceof SignInFailure)) throw error;
    if (error.reason === "disabled") return refuse("signin", 403, "Tento účet je zablokovaný. Obráťte sa na redakciu.", [], values);
    countAgainst("signinFailuresPerAddress", clientAddress);
    countAgainst("signinFailuresPerAccount", account);
    return refuse("signin", 400, MESSAGES.badCredentials, ["email", "password"], values);
  }
}

export async function register(form: FormData, clientAddress: string): Promise<AccountFormResult | Response> {
  const displayName = formText(form, "displayName").trim();
  const email = formText(form, "email").trim();
  const password = formText(form, "password");
  const confirmPassword = formText(form, "confirmPassword");
  const values = { displayName, email };
  const fail = (status: number, error: string, invalid: FieldName[]) => refuse("register", status, error, invalid, values);

  const missing = (["displayName", "email", "password", "confirmPassword"] as const).filter((name) => !formText(form, name).trim());
  if (missing.length > 0) return fail(400, ACCOUNT_MESSAGES.fillAll, missing);
  if (displayName.length > DISPLAY_NAME_MAX_LENGTH) return fail(400, ACCOUNT_MESSAGES.displayName, ["displayName"]);
  if (!isEmail(email)) return fail(400, MESSAGES.badCredentials, ["email"]);
  const problem = passwordProblem(password, confirmPassword);
  if (problem) return fail(400, problem, problem === MESSAGES.passwordsDiffer ? ["password", "confirmPassword"] : ["password"]);
  if (isThrottled("registerPerAddress", clientAddress)) return fail(429, ACCOUNT_MESSAGES.tooManyAttempts, []);
  countAgainst("registerPerAddress", clientAddress);

  const user = createUser({ displayName, email, passwordHash: await hashPassword(password) });
  if (!user) return fail(400, ACCOUNT_MESSAGES.emailTaken, ["email"]);
  return startSession(user.id, form.get("remember") === "on", safeRedirect(form.get("redirectTo")));
}

export async function forgotPassword(form: FormData, clientAddress: string): Promise<AccountFormResult | Response> {
  const email = formText(form, "email").trim();
  if (!email) return refuse("forgot", 400, MESSAGES.emailRequired, ["email"], { email });
  const account = normaliseEmail(email);
  if (isThrottled("resetPerAddress", clientAddress) || isThrottled("resetPerAccount", account)) {
    return refuse("forgot", 429, ACCOUNT_MESSAGES.tooManyAttempts, [], { email });
  }
  countAgainst("resetPerAddress", clientAddress);
  countAgainst("resetPerAccount", account);
  // Not awaited: the answer comes as fast, and says the same, whether or not the account exists.
  if (isEmail(email)) void requestPasswordReset(email).catch((error) => console.error("Password reset request failed", error));
  return redirect("/signinsignup?resetSent", 303);
}
