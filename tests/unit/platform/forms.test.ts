import { describe, expect, it } from "vitest";
import {
  checkForm,
  editPostSchema,
  formProblem,
  forgotPasswordSchema,
  NEW_PASSWORD_FIELDS,
  NEW_POST_FIELDS,
  newPostSchema,
  REGISTER_FIELDS,
  registerSchema,
  resetPasswordSchema,
} from "~/lib/forms";
import { ACCOUNT_MESSAGES, MESSAGES, POST_MESSAGES } from "~/lib/rules";
import { SOURCE_MESSAGES } from "~/lib/sources";

const form = (fields: Record<string, string | string[]>) => {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) for (const v of [value].flat()) data.append(name, v);
  return data;
};

/** What a form shows for these fields: its message and the fields it marks (null when it is accepted). */
function shown<F extends string>(schema: Parameters<typeof checkForm>[0], fields: Record<string, string | string[]>, order: readonly F[], missing: string) {
  const checked = checkForm(schema, form(fields));
  return checked.ok ? null : formProblem(checked.errors, order, missing);
}

const newPost = (fields: Record<string, string | string[]>) => shown(newPostSchema, fields, NEW_POST_FIELDS, MESSAGES.createFieldsMissing);
const good = { title: "Veľká Morava", content: "Text", tags: ["Stredovek"], image: "new" };

describe("the create form's schema", () => {
  it("accepts a whole form, trimming the title and writing new lines as \\n", () => {
    expect(checkForm(newPostSchema, form({ ...good, title: "  Veľká Morava ", content: "a\r\nb" }))).toEqual({
      ok: true,
      value: { title: "Veľká Morava", content: "a\nb", tags: ["Stredovek"], image: "new", sources: "", period: "" },
    });
  });

  it("marks every empty field with the one message, blank ones included", () => {
    expect(newPost({ title: "  ", content: "" })).toEqual({ message: MESSAGES.createFieldsMissing, invalid: ["title", "content", "image", "tags"] });
  });

  it("says the first broken rule, in the form's order, and marks only its field", () => {
    expect(newPost({ ...good, title: "x".repeat(91), content: "<b>".repeat(30), tags: ["Stredovek", "Stredovek"] })).toEqual({
      message: POST_MESSAGES.titleTooLong,
      invalid: ["title"],
    });
    expect(newPost({ ...good, title: "a\u202eb" })).toEqual({ message: POST_MESSAGES.titleControls, invalid: ["title"] });
    expect(newPost({ ...good, content: "<b>".repeat(30) })).toEqual({ message: POST_MESSAGES.contentTooDeep, invalid: ["content"] });
    expect(newPost({ ...good, tags: ["Stredovek", "Stredovek"] })).toEqual({ message: MESSAGES.tagDuplicate, invalid: ["tags"] });
    expect(newPost({ ...good, tags: ["Mimozemšťania"] })).toEqual({ message: POST_MESSAGES.unknownTag, invalid: ["tags"] });
    expect(newPost({ ...good, tags: [""] })).toEqual({ message: POST_MESSAGES.unknownTag, invalid: ["tags"] });
    expect(newPost({ ...good, sources: "Kniha\nOdkaz https://" })).toEqual({ message: SOURCE_MESSAGES.badLink(2), invalid: ["sources"] });
  });

  it("counts a new line as one character of the 30,000", () => {
    expect(newPost({ ...good, content: "a\r\n".repeat(15_000) })).toBeNull();
    expect(newPost({ ...good, content: `${"a\r\n".repeat(15_000)}b` })).toEqual({ message: POST_MESSAGES.contentTooLong, invalid: ["content"] });
  });
});

describe("the edit form's schema", () => {
  it("refuses an empty title or body with one message", () => {
    expect(shown(editPostSchema, { title: "", content: "x" }, ["title", "content"], POST_MESSAGES.emptyEdit)).toEqual({ message: POST_MESSAGES.emptyEdit, invalid: ["title"] });
    expect(shown(editPostSchema, {}, ["title", "content"], POST_MESSAGES.emptyEdit)).toEqual({ message: POST_MESSAGES.emptyEdit, invalid: ["title", "content"] });
  });
});

describe("the account forms' schemas", () => {
  const register = (fields: Record<string, string>) => shown(registerSchema, fields, REGISTER_FIELDS, ACCOUNT_MESSAGES.fillAll);
  const person = { displayName: "Ľudovít", email: "ludo@example.com", password: "dobre-heslo", confirmPassword: "dobre-heslo" };

  it("register: empty fields first, then the name, the e-mail, then the passwords", () => {
    expect(register({ ...person, email: "", password: " " })).toEqual({ message: ACCOUNT_MESSAGES.fillAll, invalid: ["email", "password"] });
    expect(register({ ...person, displayName: "x".repeat(51), confirmPassword: "ine" })).toEqual({ message: ACCOUNT_MESSAGES.displayName, invalid: ["displayName"] });
    expect(register({ ...person, email: "nie-je-email" })).toEqual({ message: MESSAGES.badCredentials, invalid: ["email"] });
    expect(register({ ...person, confirmPassword: "ine-heslo" })).toEqual({ message: MESSAGES.passwordsDiffer, invalid: ["password", "confirmPassword"] });
    expect(register({ ...person, password: "kratke", confirmPassword: "kratke" })).toEqual({ message: ACCOUNT_MESSAGES.passwordTooShort, invalid: ["password"] });
    expect(register({ ...person, password: "é".repeat(37), confirmPassword: "é".repeat(37) })).toEqual({ message: ACCOUNT_MESSAGES.passwordTooLong, invalid: ["password"] });
    expect(register(person)).toBeNull();
  });

  it("forgot password: an e-mail is required", () => {
    expect(shown(forgotPasswordSchema, { email: " " }, ["email"], MESSAGES.emailRequired)).toEqual({ message: MESSAGES.emailRequired, invalid: ["email"] });
  });

  it("reset password: the same password rules", () => {
    const reset = (fields: Record<string, string>) => shown(resetPasswordSchema, fields, NEW_PASSWORD_FIELDS, ACCOUNT_MESSAGES.passwordTooShort);
    expect(reset({})).toEqual({ message: ACCOUNT_MESSAGES.passwordTooShort, invalid: ["password"] });
    expect(reset({ password: "dobre-heslo", confirmPassword: "ine-heslo" })).toEqual({ message: MESSAGES.passwordsDiffer, invalid: ["password", "confirmPassword"] });
    expect(reset({ password: "dobre-heslo", confirmPassword: "dobre-heslo" })).toBeNull();
  });
});
