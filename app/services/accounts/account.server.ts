import { CHANGE_PASSWORD_FIELDS, changePasswordSchema, checkForm, deleteAccountSchema, displayNameSchema, formProblem } from "~/lib/forms";
import { articleCount, MODERATION_MESSAGES } from "~/lib/moderation/moderation";
import { ACCOUNT_MESSAGES, BUSY_MESSAGE } from "~/lib/rules";
import { inTransaction } from "~/db/connection.server";
import { deleteDraftsOf } from "~/models/drafts.server";
import { takePendingImagesOf } from "~/models/pending-images.server";
import { deleteResetTokensOf } from "~/models/reset-tokens.server";
import { endSubscription, getSubscriberByEmail, type Subscriber } from "~/models/subscriptions.server";
import { countActiveAdmins, createUser, deleteUser, isNameTaken, normaliseEmail, setDisplayName, setPasswordHash, type User } from "~/models/users.server";
import { hashPassword, isPasswordOf, passwordWorkIsFull } from "./auth.server";
import { BusyError } from "~/services/platform/concurrency.server";
import { queueConfirmationLink } from "./email-confirmation.server";
import { logModeration } from "~/services/platform/moderation-log.server";
import { removePostsOf } from "~/services/articles/posts.server";
import type { CurrentUser } from "~/lib/types";
import { endAllSessionsOf } from "~/services/platform/session.server";
import { release, renameAttempts, reserve, signInAttempts, type Requester } from "~/services/platform/throttle.server";
import { forgetDevicesOf } from "./trusted-devices.server";

/**
 * What a user does with their own account: making it (its address to be
 * confirmed: email-confirmation.server.ts), a new name, a new password,
 * deleting it. The password is asked again for the last two, with the
 * sign-in's limits: a stolen session cannot guess its way to the account.
 */

export type AccountResult = { ok: true } | { ok: false; status: number; error: string; invalid: string[] };

const refuse = (status: number, error: string, invalid: string[] = []): AccountResult => ({ ok: false, status, error, invalid });

/** A new account with its confirmation link queued in the same transaction; null when the e-mail is already registered. */
export function createAccount(input: { displayName: string; email: string; passwordHash: string }): User | null {
  return inTransaction(() => {
    const user = createUser(input);
    if (user) queueConfirmationLink(user);
    return user;
  });
}

export function renameAccount(user: CurrentUser, form: FormData): AccountResult {
  const checked = checkForm(displayNameSchema, form);
  if (!checked.ok) return refuse(400, formProblem(checked.errors, ["displayName"], ACCOUNT_MESSAGES.fillAll)!.message, ["displayName"]);
  if (checked.value.displayName === user.displayName) return { ok: true };
  if (!reserve(renameAttempts(user.id))) return refuse(429, ACCOUNT_MESSAGES.tooManyAttempts);
  // After the quota: a name tried counts, so nobody probes names without bound. The account's own name is no obstacle ("admin" → "Admin").
  if (isNameTaken(checked.value.displayName, user.id)) return refuse(400, ACCOUNT_MESSAGES.displayNameTaken, ["displayName"]);
  setDisplayName(user.id, checked.value.displayName);
  return { ok: true };
}

/** The account's password checked like a sign-in (throttled, one bcrypt at a time): null when it is right, else the refusal. */
async function confirmOwner(user: CurrentUser, password: string, client: Requester, field: string): Promise<AccountResult | null> {
  if (passwordWorkIsFull()) return refuse(503, BUSY_MESSAGE);
  const attempts = signInAttempts(user.email, client);
  if (!reserve(attempts)) return refuse(429, ACCOUNT_MESSAGES.tooManyAttempts);
  let matches: boolean;
  try {
    matches = await isPasswordOf(user.id, password);
  } catch (error) {
    release(attempts);
    if (error instanceof BusyError) return refuse(503, BUSY_MESSAGE);
    throw error;
  }
  // Only a wrong password counts.
  if (!matches) return refuse(400, MODERATION_MESSAGES.wrongPassword, [field]);
  release(attempts);
  return null;
}

/** A new password: ends every other session of the account, its unused reset links and its other trusted devices; this session and browser stay. */
export async function changePassword(session: { user: CurrentUser; idHash: string }, form: FormData, client: Requester): Promise<AccountResult> {
  const checked = checkForm(changePasswordSchema, form);
  if (!checked.ok) {
    const problem = formProblem(checked.errors, CHANGE_PASSWORD_FIELDS, ACCOUNT_MESSAGES.fillAll)!;
    return refuse(400, problem.message, problem.invalid);
  }
  const { user, idHash } = session;
  const refused = await confirmOwner(user, checked.value.currentPassword, client, "currentPassword");
  if (refused) return refused;
  let passwordHash: string;
  try {
    passwordHash = await hashPassword(checked.value.password);
  } catch (error) {
    if (error instanceof BusyError) return refuse(503, BUSY_MESSAGE);
    throw error;
  }
  inTransaction(() => {
    setPasswordHash(user.id, passwordHash);
    endAllSessionsOf(user.id, idHash);
    deleteResetTokensOf(user.id);
    forgetDevicesOf(user.id, client.device);
  });
  return { ok: true };
}

/**
 * The e-mail subscription (~/services/subscriptions) of the account's
 * address, which deleting the account ends. Only when the address is
 * confirmed: an unconfirmed one may be anyone's, and so may its
 * subscription (registering a stranger's address and deleting the account
 * must not unsubscribe the stranger).
 */
export function subscriptionOfAccount(user: { email: string; emailConfirmedAt: number | null }): Subscriber | undefined {
  return user.emailConfirmedAt === null ? undefined : getSubscriberByEmail(normaliseEmail(user.email));
}

/**
 * Delete the account: its articles and their images, its drafts and pending uploads (their images too),
 * sessions, reset links and reports, and the subscription of its address
 * (ended as by unsubscribing: the address is kept only as a suppression
 * digest). The moderation log keeps its entries, with the names as they
 * were, and gains one saying the account was deleted.
 */
export async function deleteAccount(user: CurrentUser, form: FormData, client: Requester): Promise<AccountResult> {
  const checked = checkForm(deleteAccountSchema, form);
  if (!checked.ok) return refuse(400, MODERATION_MESSAGES.currentPassword, ["password"]);
  const refused = await confirmOwner(user, checked.value.password, client, "password");
  if (refused) return refused;
  const lastAdmin = () => user.isAdmin && countActiveAdmins() <= 1;
  if (lastAdmin()) return refuse(400, MODERATION_MESSAGES.lastAdminDelete);
  try {
    await removePostsOf(user.id, (count) => {
      // Again in the transaction, so that two admins leaving at once cannot both go.
      if (lastAdmin()) throw new LastAdminError();
      logModeration(user, "deleteAccount", { user, detail: articleCount(count) });
      const images = [...takePendingImagesOf(user.id), ...deleteDraftsOf(user.id)];
      const subscription = subscriptionOfAccount(user);
      if (subscription) endSubscription(subscription, Date.now());
      deleteUser(user.id);
      return images;
    });
    return { ok: true };
  } catch (error) {
    if (error instanceof LastAdminError) return refuse(400, MODERATION_MESSAGES.lastAdminDelete);
    throw error;
  }
}

class LastAdminError extends Error {}
