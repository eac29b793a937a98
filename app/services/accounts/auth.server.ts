import { hash, hashSync, verify } from "@node-rs/bcrypt";
import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import { env } from "~/config/env.server";
import { isEmail } from "~/lib/rules";
import { getUserByEmail, getUserById, type User } from "~/models/users.server";
import { createLimiter } from "~/services/platform/concurrency.server";

/**
 * One hash at a time (about 130 ms of a core each at the default cost), at most 40 waiting (about
 * 5 s): a burst of sign-ins cannot take both cores, nor the thread pool that
 * file reads share; past that the burst is answered "busy" at once.
 */
const hashing = createLimiter("password hashing", { running: 1, waiting: 40 });

/** Compared against when no account matches, so a wrong e-mail costs as long as a wrong password. */
const DUMMY_HASH = hashSync("no account has this password", env.passwordHashCost);

/** Whether a password check or hash would be refused as busy now. */
export function passwordWorkIsFull(): boolean {
  return hashing.full;
}

export function hashPassword(password: string): Promise<string> {
  return hashing.run(() => hash(password, env.passwordHashCost));
}

function checkPassword(password: string, passwordHash: string): Promise<boolean> {
  return hashing.run(() => verify(password, passwordHash));
}

/** Whether `password` is the account's (false for an account that cannot sign in). */
export async function isPasswordOf(userId: string, password: string): Promise<boolean> {
  const user = getUserById(userId);
  const matches = await checkPassword(password, user?.passwordHash ?? DUMMY_HASH);
  return Boolean(user?.passwordHash) && matches;
}

/** Sign-in failed; `disabled` only after the right password for a disabled account (whose id it then carries, for the statement of reasons). */
export class SignInFailure extends Error {
  constructor(
    readonly reason: "credentials" | "disabled",
    readonly userId?: string,
  ) {
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
    const matches = await checkPassword(password, user?.passwordHash ?? DUMMY_HASH);
    if (!user?.passwordHash || !matches) throw new SignInFailure("credentials");
    if (user.disabledAt) throw new SignInFailure("disabled", user.id);
    return user;
  }),
  "form",
);
