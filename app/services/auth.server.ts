import { hash, hashSync, verify } from "@node-rs/bcrypt";
import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import { isEmail } from "~/lib/rules";
import { getUserByEmail, type User } from "~/models/users.server";

const BCRYPT_COST = 11;

/** Compared against when no account matches, so a wrong e-mail costs as long as a wrong password. */
const DUMMY_HASH = hashSync("no account has this password", BCRYPT_COST);

export function hashPassword(password: string): Promise<string> {
  return hash(password, BCRYPT_COST);
}

/** Sign-in failed; `disabled` only after the right password for a disabled account. */
export class SignInFailure extends Error {
  constructor(readonly reason: "credentials" | "disabled") {
    super(reason);
  }
}

export function formText(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
}

export const authenticator = new Authenticator<User>();

authenticator.use(
  new FormStrategy(async ({ form }) => {
    const email = formText(form, "email").trim();
    const password = formText(form, "password");
    const user = isEmail(email) ? getUserByEmail(email) : undefined;
    // Always one bcrypt comparison, whether or not the account exists.
    const matches = await verify(password, user?.passwordHash ?? DUMMY_HASH);
    if (!user?.passwordHash || !matches) throw new SignInFailure("credentials");
    if (user.disabledAt) throw new SignInFailure("disabled");
    return user;
  }),
  "form",
);
