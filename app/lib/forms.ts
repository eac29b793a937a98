import { z } from "zod";
import {
  ACCOUNT_MESSAGES,
  CONTENT_MAX_LENGTH,
  contentMarkupProblem,
  DISPLAY_NAME_MAX_LENGTH,
  hasHiddenControls,
  isEmail,
  MESSAGES,
  PASSWORD_MAX_BYTES,
  PASSWORD_MIN_LENGTH,
  POST_MESSAGES,
  tagsProblem,
  TITLE_MAX_LENGTH,
  typedText,
} from "./rules";
import { isTag } from "./tags";

/**
 * One zod schema per form, for the server (through Conform's parseWithZod,
 * which reads FormData: empty fields as missing, repeated ones as arrays)
 * and for the browser. Each field stops at its first broken rule, so each
 * has one message; `formProblem` turns them into what the form shows.
 * The rules and messages themselves are the spec's, in ./rules.
 */

/** A required text field: missing or blank is `missing`; then the field's own checks. */
function text(missing: string, { trim = false } = {}) {
  const value = z.string({ error: missing });
  return (trim ? value.trim() : value).refine((s) => s.trim() !== "", { error: missing, abort: true });
}

/** A check that stops the field's other checks when it fails. */
const first = <T>(ok: (value: T) => boolean, error: string) => [ok, { error, abort: true }] as const;

const title = (missing: string) =>
  text(missing, { trim: true })
    .refine(...first((t: string) => t.length <= TITLE_MAX_LENGTH, POST_MESSAGES.titleTooLong))
    .refine(...first((t: string) => !hasHiddenControls(t), POST_MESSAGES.titleControls));

/** An article body as the author typed it (newlines as \n): its length and its markup. */
const content = (missing: string) =>
  z
    .string({ error: missing })
    .transform(typedText)
    .pipe(
      text(missing)
        .refine(...first((c: string) => c.length <= CONTENT_MAX_LENGTH, POST_MESSAGES.contentTooLong))
        .superRefine((c, ctx) => {
          const problem = contentMarkupProblem(c);
          if (problem) ctx.addIssue({ code: "custom", message: problem, abort: true });
        }),
    );

const tags = z
  .array(z.string(), { error: MESSAGES.createFieldsMissing })
  .refine((list) => list.length > 0, { error: MESSAGES.createFieldsMissing, abort: true })
  .superRefine((list, ctx) => {
    const problem = tagsProblem(list, isTag);
    if (problem) ctx.addIssue({ code: "custom", message: problem, abort: true });
  });

/**
 * The create form. `image` is present when the form has an image: the
 * server says which (a new file, or an earlier upload of this user's); the
 * image's own rules (type, size) are judged by its bytes, on the server.
 */
export const newPostSchema = z.object({
  title: title(MESSAGES.createFieldsMissing),
  content: content(MESSAGES.createFieldsMissing),
  tags,
  image: z.enum(["new", "pending"], { error: MESSAGES.createFieldsMissing }),
});
export const NEW_POST_FIELDS = ["title", "content", "image", "tags"] as const;

/** Saving an edited article (intent=save). */
export const editPostSchema = z.object({
  title: title(POST_MESSAGES.emptyEdit),
  content: content(POST_MESSAGES.emptyEdit),
});
export const EDIT_POST_FIELDS = ["title", "content"] as const;

const email = (missing: string) => text(missing, { trim: true });

/** The password rules: long enough, and no longer than bcrypt reads. */
const newPassword = z
  .string()
    .refine(...first((p: string) => p.length >= PASSWORD_MIN_LENGTH, ACCOUNT_MESSAGES.passwordTooShort))
    .refine(...first((p: string) => new TextEncoder().encode(p).length <= PASSWORD_MAX_BYTES, ACCOUNT_MESSAGES.passwordTooLong));

export const registerSchema = z
  .object({
    displayName: text(ACCOUNT_MESSAGES.fillAll, { trim: true })
      .refine(...first((n: string) => n.length <= DISPLAY_NAME_MAX_LENGTH, ACCOUNT_MESSAGES.displayName))
      .refine(...first((n: string) => !hasHiddenControls(n), ACCOUNT_MESSAGES.displayNameControls)),
    email: email(ACCOUNT_MESSAGES.fillAll).refine(...first(isEmail, MESSAGES.badCredentials)),
    password: text(ACCOUNT_MESSAGES.fillAll),
    confirmPassword: text(ACCOUNT_MESSAGES.fillAll),
  })
  .superRefine(passwordRules);
export const REGISTER_FIELDS = ["displayName", "email", "password", "confirmPassword"] as const;

export const forgotPasswordSchema = z.object({ email: email(MESSAGES.emailRequired) });

export const resetPasswordSchema = z
  .object({ password: z.string().default(""), confirmPassword: z.string().default("") })
  .superRefine(passwordRules);
export const NEW_PASSWORD_FIELDS = ["password", "confirmPassword"] as const;

/** Different passwords mark both; a too short or too long one marks the password. */
function passwordRules({ password, confirmPassword }: { password: string; confirmPassword: string }, ctx: z.RefinementCtx) {
  if (password !== confirmPassword) {
    for (const path of ["password", "confirmPassword"]) ctx.addIssue({ code: "custom", message: MESSAGES.passwordsDiffer, path: [path] });
    return;
  }
  const problem = newPassword.safeParse(password).error?.issues[0]?.message;
  if (problem) ctx.addIssue({ code: "custom", message: problem, path: ["password"] });
}

/** Field errors as Conform reports them: each field's messages. */
export type FieldErrors = Record<string, string[] | null | undefined>;

/**
 * What a refused form shows: one message at the top and the fields to mark.
 * Fields left empty come first (the form's "fill in everything" message,
 * every empty field marked); otherwise the first field, in the form's
 * order, with a broken rule.
 */
export function formProblem<F extends string>(
  errors: FieldErrors,
  order: readonly F[],
  missing: string,
): { message: string; invalid: F[] } | null {
  const empty = order.filter((field) => errors[field]?.[0] === missing);
  if (empty.length > 0) return { message: missing, invalid: empty };
  for (const field of order) {
    const message = errors[field]?.[0];
    if (message) return { message, invalid: order.filter((f) => errors[f]?.[0] === message) };
  }
  return null;
}
