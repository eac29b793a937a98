import { env } from "~/config/env.server";
import { safeRedirect } from "~/lib/links";
import { checkForm, forgotPasswordSchema, formProblem, REGISTER_FIELDS, registerSchema } from "~/lib/forms";
import { ACCOUNT_MESSAGES, BUSY_MESSAGE, isEmail, MESSAGES } from "~/lib/rules";
import type { StatementOfReasons } from "~/lib/moderation/moderation";
import type { SignInNotice } from "~/lib/notices";
import { isNameTaken } from "~/models/users.server";
import { createAccount } from "~/services/accounts/account.server";
import { authenticator, formText, hashPassword, passwordWorkIsFull, SignInFailure } from "~/services/accounts/auth.server";
import { BusyError } from "~/services/platform/concurrency.server";
import type { StorageFault } from "~/services/platform/storage-fault.server";
import { queuePasswordReset } from "~/services/accounts/password-reset.server";
import { startSession } from "~/services/platform/session.server";
import { redirectWithNotice } from "~/services/platform/notice.server";
import { appealToken, disablingStatementOf, readAppealToken } from "~/services/moderation/statements.server";
import { fileAppeal } from "~/services/moderation/appeals.server";
import { registerAttempts, release, reserve, resetMailAttempts, resetRequestAttempts, signInAttempts } from "~/services/platform/throttle.server";
import { requesterFor, trustDevice } from "~/services/accounts/trusted-devices.server";

type Intent = "signin" | "register" | "forgot";
type FieldName = "displayName" | "email" | "password" | "confirmPassword";

/** What the form shows again after a refusal: the message, the fields to mark, the input (never a password). */
export type AccountFormResult = {
  intent: Intent;
  status: number;
  error: string;
  invalid: FieldName[];
  values: { email?: string; displayName?: string };
  /** A disabled account, after the right password: the decision that disabled it, with its appeal form (signed token instead of a session). */
  disabled?: { statement: StatementOfReasons; token: string; appealError?: string; appealText?: string; appealed?: boolean };
};

function refuse(intent: Intent, status: number, error: string, invalid: FieldName[], values: AccountFormResult["values"]): AccountFormResult {
  return { intent, status, error, invalid, values };
}

/** The form shown again when the storage failed under it (storage-fault.server.ts). */
export function storageRefusal(intent: FormDataEntryValue | null, form: FormData, { status, error }: StorageFault): AccountFormResult {
  const values = { displayName: formText(form, "displayName").trim(), email: formText(form, "email").trim() };
  return refuse(intent === "register" || intent === "forgot" ? intent : "signin", status, error, [], values);
}

export async function signIn(request: Request, form: FormData, clientAddress: string): Promise<AccountFormResult | Response> {
  const email = formText(form, "email").trim();
  const values = { email };
  // A burst past what the server queues is told at once, without a write to the database.
  if (passwordWorkIsFull()) return refuse("signin", 503, BUSY_MESSAGE, [], values);
  // Reserved before the password is hashed, so parallel guesses cannot pass the gate together.
  // A browser that signed in to this account before is counted on its own (trusted-devices.server.ts).
  const attempts = signInAttempts(email, await requesterFor(request, clientAddress, { email }));
  if (!reserve(attempts)) return refuse("signin", 429, ACCOUNT_MESSAGES.tooManyAttempts, [], values);
  try {
    const user = await authenticator.authenticate("form", request);
    release(attempts);
    return trustDevice(await startSession(request, user.id, form.get("remember") === "on", safeRedirect(form.get("redirectTo"))), request, user.id);
  } catch (error) {
    if (error instanceof SignInFailure && error.reason === "credentials") {
      return refuse("signin", 400, MESSAGES.badCredentials, ["email", "password"], values);
    }
    // Only a wrong password counts.
    release(attempts);
    if (error instanceof BusyError) return refuse("signin", 503, BUSY_MESSAGE, [], values);
    if (error instanceof SignInFailure) return disabledAnswer(error.userId!, values);
    throw error;
  }
}

const DISABLED = "Tento účet je zablokovaný.";
/** Where to turn without a statement of reasons: the footer shows the contact only when CONTACT_EMAIL is set. */
const DISABLED_NO_STATEMENT = env.contactEmail
  ? "Ak ide podľa vás o omyl, napíšte redakcii (kontakt nájdete v pätičke stránky)."
  : "Ak ide podľa vás o omyl, napíšte redakcii.";

/** What a disabled account is told after the right password: the statement of reasons when a decision disabled it. */
function disabledAnswer(userId: string, values: AccountFormResult["values"], appeal: Omit<NonNullable<AccountFormResult["disabled"]>, "statement" | "token"> = {}): AccountFormResult {
  const statement = disablingStatementOf(userId);
  if (!statement) return refuse("signin", 403, `${DISABLED} ${DISABLED_NO_STATEMENT}`, [], values);
  return { ...refuse("signin", 403, `${DISABLED} Nižšie je rozhodnutie redakcie a jeho dôvod.`, [], values), disabled: { statement, token: appealToken(userId, statement.id), ...appeal } };
}

/** The appeal a disabled account files from the sign-in page, with the token its right password earned. */
export function appealFromSignIn(form: FormData): AccountFormResult {
  const proof = readAppealToken(form.get("token"));
  if (!proof) return refuse("signin", 403, "Platnosť formulára námietky vypršala. Prihláste sa znova: rozhodnutie aj formulár sa zobrazia.", [], {});
  const filed = fileAppeal(proof.userId, proof.decisionId, form);
  // Filed: the form did what it was sent for (the account is still disabled, as the page says).
  if (filed.ok) return { ...disabledAnswer(proof.userId, {}, { appealed: true }), status: 200 };
  return { ...disabledAnswer(proof.userId, {}, { appealError: filed.error, appealText: formText(form, "text") }), status: filed.status };
}

export async function register(request: Request, form: FormData, clientAddress: string): Promise<AccountFormResult | Response> {
  const checked = checkForm(registerSchema, form);
  const values = { displayName: formText(form, "displayName").trim(), email: formText(form, "email").trim() };
  const fail = (status: number, error: string, invalid: FieldName[]) => refuse("register", status, error, invalid, values);
  if (!checked.ok) {
    const problem = formProblem(checked.errors, REGISTER_FIELDS, ACCOUNT_MESSAGES.fillAll)!;
    return fail(400, problem.message, problem.invalid);
  }
  const { displayName, email, password } = checked.value;
  if (passwordWorkIsFull()) return fail(503, BUSY_MESSAGE, []);
  const registration = registerAttempts(clientAddress);
  if (!reserve(registration)) return fail(429, ACCOUNT_MESSAGES.tooManyAttempts, []);

  let passwordHash: string;
  try {
    passwordHash = await hashPassword(password);
  } catch (error) {
    if (!(error instanceof BusyError)) throw error;
    release(registration);
    return fail(503, BUSY_MESSAGE, []);
  }
  // Asked right before the insert, in the same turn of the event loop: two registrations cannot both take one look.
  if (isNameTaken(displayName)) return fail(400, ACCOUNT_MESSAGES.displayNameTaken, ["displayName"]);
  const user = createAccount({ displayName, email, passwordHash });
  // This tells whoever asks that the e-mail has an account: registration signs the new account in at once,
  // which nobody could miss, so an answer that hid it would still tell. It costs a password hash, and the
  // registrations of one address (an IPv6 client's /64) are limited (docs/decisions/registration-tells-taken-email.md).
  if (!user) return fail(400, ACCOUNT_MESSAGES.emailTaken, ["email"]);
  return trustDevice(await startSession(request, user.id, form.get("remember") === "on", safeRedirect(form.get("redirectTo"))), request, user.id);
}

export async function forgotPassword(form: FormData, clientAddress: string): Promise<AccountFormResult | Response> {
  const checked = checkForm(forgotPasswordSchema, form);
  if (!checked.ok) return refuse("forgot", 400, MESSAGES.emailRequired, ["email"], { email: "" });
  const { email } = checked.value;
  if (!reserve(resetRequestAttempts(clientAddress))) {
    return refuse("forgot", 429, ACCOUNT_MESSAGES.tooManyAttempts, [], { email });
  }
  // Queued, not done here: the answer takes the same time, and says the same, whether or not the account
  // exists, and whether or not its mails are used up (then the link sent last still works: LIMITS).
  if (isEmail(email) && reserve(resetMailAttempts(email))) queuePasswordReset(email);
  return redirectWithNotice<SignInNotice>("/signinsignup", "resetSent");
}
