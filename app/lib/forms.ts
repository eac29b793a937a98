import * as z from "zod/mini";
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
  SUMMARY_MAX_LENGTH,
  tagsProblem,
  TITLE_MAX_LENGTH,
  typedText,
  utf8Length,
} from "./rules";
import { DRAFT_MESSAGES } from "./drafts";
import {
  APPEAL_MAX_LENGTH,
  DECISION_REASON_MAX_LENGTH,
  DECISIONS_PER_FORM,
  MODERATION_MESSAGES,
  PASSAGE_REASONS,
  type PassageReason,
  REPORT_DECISIONS,
  REPORT_NOTE_MAX_LENGTH,
  REPORT_REASONS,
  type ReportReason,
} from "~/lib/moderation/moderation";
import { periodProblem } from "~/lib/time/periods";
import { sourcesProblem } from "./sources";
import { isTag, TAGS } from "./tags";
import { FREQUENCIES, type Frequency, isSubscriptionCentury, SUBSCRIPTION_CENTURIES, SUBSCRIPTION_MESSAGES } from "./subscriptions";
import { hasSeenCharacter, hasStackedMarks, hasUnclosedBidi, hasUnseenCharacters } from "~/lib/text/text-controls";

/**
 * One zod schema per form, read with `checkForm` by the server and by the
 * browser alike. Each field stops at its first broken rule, so each has one
 * message; `formProblem` turns them into what the form shows. The rules and
 * messages themselves are the spec's, in ./rules.
 *
 * zod's "mini" build, so that a form page carries about 5 kB of it (gzipped).
 * Conform's zod adapter would add zod's full build (about 20 kB more) to the
 * pages of readers on slow connections, for what checkForm does in a few lines.
 */

/** A check that stops the field's other checks when it fails. */
const rule = <T>(ok: (value: T) => boolean, error: string) => z.refine<T>(ok, { error, abort: true });

/** A check whose message depends on the value (null when the value is fine); the field's last check. */
const problemOf = <T>(problem: (value: T) => string | null) =>
  z.superRefine<T>((value, ctx) => {
    const message = problem(value);
    if (message) ctx.addIssue({ code: "custom", message, input: value });
  });

/** A required text field: missing or blank is `missing`. */
const text = (missing: string, { trim = false } = {}) =>
  z.string({ error: missing }).check(...(trim ? [z.trim()] : []), rule((s: string) => s.trim() !== "", missing));

/** A name or an e-mail: NFC, so that one spelling is stored and compared, whatever the keyboard sent; then trimmed and required. */
const identity = (missing: string) => z.pipe(z.pipe(z.string({ error: missing }), z.transform((s: string) => s.normalize("NFC"))), text(missing, { trim: true }));

const title = (missing: string) =>
  text(missing, { trim: true }).check(
    rule((t: string) => t.length <= TITLE_MAX_LENGTH, POST_MESSAGES.titleTooLong),
    rule((t: string) => !hasHiddenControls(t), POST_MESSAGES.titleControls),
  );

/** The rules of an article body as the author typed it (newlines as \n): its length and its markup. */
const contentRules = () => [
  rule((c: string) => c.length <= CONTENT_MAX_LENGTH, POST_MESSAGES.contentTooLong),
  rule((c: string) => !hasUnclosedBidi(c), POST_MESSAGES.contentBidi),
  problemOf(contentMarkupProblem),
];

const content = (missing: string) => z.pipe(z.pipe(z.string({ error: missing }), z.transform(typedText)), text(missing).check(...contentRules()));

/** The sources as typed, one per line (~/lib/sources); optional. */
const sources = z.pipe(z.pipe(z._default(z.string(), ""), z.transform(typedText)), z.string().check(problemOf(sourcesProblem)));

/** The period the article treats (~/lib/time/periods); optional. */
const period = z.pipe(z._default(z.string(), ""), z.string().check(problemOf(periodProblem)));

const tagRules = problemOf((list: string[]) => tagsProblem(list, isTag));

const tags = z.array(z.string(), { error: MESSAGES.createFieldsMissing }).check(
  rule((list: string[]) => list.length > 0, MESSAGES.createFieldsMissing),
  tagRules,
);

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
  sources,
  period,
});
export const NEW_POST_FIELDS = ["title", "period", "content", "image", "tags", "sources"] as const;

/** What the editor says they changed: optional, one line, trimmed. */
const summary = z.pipe(
  z.pipe(z._default(z.string(), ""), z.transform((s: string) => s.trim())),
  z.string().check(
    rule((s: string) => s.length <= SUMMARY_MAX_LENGTH, POST_MESSAGES.summaryTooLong),
    rule((s: string) => !hasHiddenControls(s), POST_MESSAGES.summaryControls),
  ),
);

/** Saving an edited article (intent=save): a new revision, with its summary. */
export const editPostSchema = z.object({
  title: title(POST_MESSAGES.emptyEdit),
  content: content(POST_MESSAGES.emptyEdit),
  sources,
  period,
  summary,
});
export const EDIT_POST_FIELDS = ["title", "period", "content", "tags", "sources", "summary"] as const;

/**
 * The edit form with its tags (it says so with `withTags`: unticking every
 * checkbox sends no `tags` at all): 1 to 5, as when the article was created.
 * Without `withTags` an edit keeps the article's tags.
 */
export const editPostWithTagsSchema = z.extend(editPostSchema, { tags });

/** Whether an edit form brings the article's tags (editPostWithTagsSchema). */
export function editsTags(form: FormData): boolean {
  return form.get("withTags") === "1";
}

/**
 * A draft (~/lib/drafts): only its title is required; every other field may
 * be empty, but is bounded as the create and edit forms bound it. The full
 * rules apply when it is published.
 */
export const draftSchema = z.object({
  title: title(DRAFT_MESSAGES.titleMissing),
  content: z.pipe(z.pipe(z._default(z.string(), ""), z.transform(typedText)), z.string().check(...contentRules())),
  tags: z.array(z.string()).check(tagRules),
  sources,
  period,
  summary,
});
export const DRAFT_FIELDS = ["title", "period", "content", "tags", "sources", "summary"] as const;

const email = identity;

/** The password rules: long enough, and no longer than bcrypt reads. */
function passwordProblem(password: string): string | null {
  if (password.length < PASSWORD_MIN_LENGTH) return ACCOUNT_MESSAGES.passwordTooShort;
  if (utf8Length(password) > PASSWORD_MAX_BYTES) return ACCOUNT_MESSAGES.passwordTooLong;
  return null;
}

/** Different passwords mark both; a too short or too long one marks the password. */
const newPasswordRules = z.superRefine<{ password: string; confirmPassword: string }>(({ password, confirmPassword }, ctx) => {
  if (password !== confirmPassword) {
    for (const path of ["password", "confirmPassword"]) ctx.addIssue({ code: "custom", message: MESSAGES.passwordsDiffer, path: [path], input: password });
    return;
  }
  const problem = passwordProblem(password);
  if (problem) ctx.addIssue({ code: "custom", message: problem, path: ["password"], input: password });
});

/** A display name: short, seen, and nothing unseen in it. Whether it looks like another account's is the server's question (~/models/users.server). */
const displayName = identity(ACCOUNT_MESSAGES.fillAll).check(
  rule((n: string) => n.length <= DISPLAY_NAME_MAX_LENGTH, ACCOUNT_MESSAGES.displayName),
  rule(hasSeenCharacter, ACCOUNT_MESSAGES.displayNameInvisible),
  rule((n: string) => !hasUnseenCharacters(n), ACCOUNT_MESSAGES.displayNameControls),
  rule((n: string) => !hasStackedMarks(n), ACCOUNT_MESSAGES.displayNameMarks),
);

export const registerSchema = z
  .object({
    displayName,
    email: email(ACCOUNT_MESSAGES.fillAll).check(rule(isEmail, MESSAGES.badCredentials)),
    password: text(ACCOUNT_MESSAGES.fillAll),
    confirmPassword: text(ACCOUNT_MESSAGES.fillAll),
  })
  .check(newPasswordRules);
export const REGISTER_FIELDS = ["displayName", "email", "password", "confirmPassword"] as const;

export const forgotPasswordSchema = z.object({ email: email(MESSAGES.emailRequired) });

export const resetPasswordSchema = z
  .object({ password: z._default(z.string(), ""), confirmPassword: z._default(z.string(), "") })
  .check(newPasswordRules);
export const NEW_PASSWORD_FIELDS = ["password", "confirmPassword"] as const;

/** A new display name on the account page: the registration's rules. */
export const displayNameSchema = z.object({ displayName });

/** A new password on the account page: the current one, then the registration's rules. */
export const changePasswordSchema = z
  .object({
    currentPassword: text(ACCOUNT_MESSAGES.fillAll),
    password: text(ACCOUNT_MESSAGES.fillAll),
    confirmPassword: text(ACCOUNT_MESSAGES.fillAll),
  })
  .check(newPasswordRules);
export const CHANGE_PASSWORD_FIELDS = ["currentPassword", "password", "confirmPassword"] as const;

/** Deleting one's account: the password, to be sure it is its owner. */
export const deleteAccountSchema = z.object({ password: text(MODERATION_MESSAGES.currentPassword) });

/** A report's optional note for the admins (new lines allowed). */
const reportNote = z.optional(
  z.pipe(
    z.pipe(z.string(), z.transform((note: string) => typedText(note).trim())),
    z.string().check(
      rule((n: string) => n.length <= REPORT_NOTE_MAX_LENGTH, MODERATION_MESSAGES.reportNote),
      rule((n: string) => !hasHiddenControls(n.replace(/\n/g, " ")), MODERATION_MESSAGES.reportNoteControls),
    ),
  ),
);

/** Reporting an article: a reason from the list, an optional note. */
export const reportSchema = z.object({
  reason: z.enum(Object.keys(REPORT_REASONS) as [ReportReason, ...ReportReason[]], { error: MODERATION_MESSAGES.reportReason }),
  note: reportNote,
});
export const REPORT_FIELDS = ["reason", "note"] as const;

/** Flagging one passage ("Zdroj?"): a reason of the passage list, an optional note; the passage is named by the address. */
export const passageReportSchema = z.object({
  reason: z.enum(Object.keys(PASSAGE_REASONS) as [PassageReason, ...PassageReason[]], { error: MODERATION_MESSAGES.passageReason }),
  note: reportNote,
});

/** A text people other than its writer read (a decision's reason, an appeal): required, bounded, no control or unseen characters (new lines allowed). */
const moderationText = (messages: { missing: string; length: string; controls: string }, maxLength: number) =>
  z.pipe(
    z.pipe(z.string({ error: messages.missing }), z.transform((t: string) => typedText(t).trim())),
    z.string().check(
      rule((t: string) => t !== "", messages.missing),
      rule((t: string) => t.length <= maxLength, messages.length),
      rule((t: string) => !hasHiddenControls(t.replace(/\n/g, " ")), messages.controls),
    ),
  );

const decisionReason = moderationText(
  { missing: MODERATION_MESSAGES.decisionReason, length: MODERATION_MESSAGES.decisionReasonLength, controls: MODERATION_MESSAGES.decisionReasonControls },
  DECISION_REASON_MAX_LENGTH,
);

/** An admin's decision on the open reports of the articles chosen (the queue's checkboxes). */
export const decisionSchema = z.object({
  post: z.array(z.string()).check(
    rule((ids: string[]) => ids.length > 0, MODERATION_MESSAGES.decisionNothingChosen),
    rule((ids: string[]) => ids.length <= DECISIONS_PER_FORM, MODERATION_MESSAGES.decisionTooMany),
  ),
  decision: z.enum(REPORT_DECISIONS, { error: MODERATION_MESSAGES.decisionChoice }),
  reason: decisionReason,
});
export const DECISION_FIELDS = ["post", "decision", "reason"] as const;

/** A reason alone: hiding or restoring an article on the moderators' own initiative, deciding an appeal. */
export const reasonSchema = z.object({ reason: decisionReason });

/** An author's appeal of a decision. */
export const appealSchema = z.object({
  text: moderationText({ missing: MODERATION_MESSAGES.appealText, length: MODERATION_MESSAGES.appealLength, controls: MODERATION_MESSAGES.appealControls }, APPEAL_MAX_LENGTH),
});

/**
 * What a subscription follows (/odber, its settings page): every new article
 * when nothing is ticked (no JavaScript needed to switch a list off), or
 * those with a chosen tag or within a chosen century (each from its fixed list, so at most 30
 * tags and SUBSCRIPTION_CENTURIES), and how often.
 */
const subscriptionChoices = {
  tags: z.array(z.string()).check(rule((list: string[]) => list.length <= TAGS.length && list.every(isTag), SUBSCRIPTION_MESSAGES.badChoice)),
  centuries: z.array(z.string()).check(
    rule((list: string[]) => list.length <= SUBSCRIPTION_CENTURIES.length && list.every((c) => /^-?\d{1,2}$/.test(c) && isSubscriptionCentury(Number(c))), SUBSCRIPTION_MESSAGES.badChoice),
  ),
  // The footer's short form sends none: each new article.
  frequency: z._default(z.enum(Object.keys(FREQUENCIES) as [Frequency, ...Frequency[]], { error: SUBSCRIPTION_MESSAGES.frequency }), "instant"),
};

export const subscriptionChoicesSchema = z.object(subscriptionChoices);
export const SUBSCRIPTION_FIELDS = ["email", "tags", "centuries", "frequency"] as const;

/** Subscribing with an address (a visitor): the address, then the choices. */
export const subscribeSchema = z
  .object({ email: email(SUBSCRIPTION_MESSAGES.emailMissing).check(rule(isEmail, SUBSCRIPTION_MESSAGES.emailInvalid)), ...subscriptionChoices });

/** Each field's messages. */
export type FieldErrors = Record<string, string[] | undefined>;

/**
 * A form's fields as its schema reads them: a field left empty is missing,
 * a field the schema takes as a list gets every value sent, any other field
 * its first. Fields the schema does not name are ignored.
 */
export function checkForm<S extends z.ZodMiniObject>(
  schema: S,
  form: FormData,
): { ok: true; value: z.output<S> } | { ok: false; errors: FieldErrors } {
  const input: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(schema.def.shape)) {
    const value = form.get(name);
    input[name] = (field as z.ZodMiniType)._zod.def.type === "array" ? form.getAll(name) : value === null || value === "" ? undefined : value;
  }
  const result = z.safeParse(schema, input);
  if (result.success) return { ok: true, value: result.data };
  const errors: FieldErrors = {};
  for (const issue of result.error.issues) (errors[String(issue.path[0] ?? "")] ??= []).push(issue.message);
  return { ok: false, errors };
}

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
