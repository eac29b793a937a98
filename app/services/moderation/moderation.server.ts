import { ACCOUNT_ACTIONS, articleCount, MODERATION_MESSAGES, type AccountAction } from "~/lib/moderation/moderation";
import { inTransaction } from "~/db/connection.server";
import { countPostsOf } from "~/models/posts.server";
import { countActiveAdmins, getUserById, isActiveAdmin, updateUser, type User } from "~/models/users.server";
import { readReason, recordAccountDisabled, recordArticlesRemoved } from "./moderation-decisions.server";
import { logModeration, type Actor } from "~/services/platform/moderation-log.server";
import { removePostsOf } from "~/services/articles/posts.server";
import { endAllSessionsOf } from "~/services/platform/session.server";

/**
 * The rules of moderation, the same for the admin pages and `npm run admin`:
 * nobody disables or demotes themselves, the last active admin stays, and
 * every action is in the moderation log (written in the same transaction).
 */

/** `removed`: how many articles "remove all articles" removed. */
export type ModerationResult = { ok: true; message: string; removed?: number } | { ok: false; status: number; error: string };

const refuse = (status: number, error: string): ModerationResult => ({ ok: false, status, error });

/** What an action changes on the account row. */
const FLAG_CHANGES = {
  disable: () => ({ disabledAt: Date.now() }),
  enable: () => ({ disabledAt: null }),
  grant: () => ({ isAdmin: true }),
  revoke: () => ({ isAdmin: false }),
} as const;

/** Whether the account is already as the action would leave it. */
function alreadyDone(user: User, action: keyof typeof FLAG_CHANGES): boolean {
  return { disable: user.disabledAt !== null, enable: user.disabledAt === null, grant: user.isAdmin, revoke: !user.isAdmin }[action];
}

/**
 * Disable, enable, grant or revoke admin, or remove all articles of an
 * account. Disabling and removing the articles need a reason: the account's
 * owner gets it as a statement of reasons they may contest
 * (moderation-decisions.server.ts).
 */
export async function moderateAccount(actor: Actor, userId: string, action: AccountAction, reasonGiven?: { reason: string }): Promise<ModerationResult> {
  const user = getUserById(userId);
  if (!user) return refuse(404, MODERATION_MESSAGES.noSuchAccount);
  // Disabling and removing the articles are decisions: their reason is the owner's statement of reasons.
  const reasonOf = () => readReason(reasonGiven ?? { reason: "" });
  if (action === "removeArticles") {
    if (countPostsOf(user.id) === 0) return { ok: true, message: MODERATION_MESSAGES.noArticles, removed: 0 };
    const reason = reasonOf();
    if (typeof reason !== "string") return refuse(reason.status, reason.error);
    const removed = await removePostsOf(
      user.id,
      (count) => logModeration(actor, "removeArticles", { user, detail: `${articleCount(count)}. ${reason}` }),
      () => recordArticlesRemoved(actor, user, reason),
    );
    return { ok: true, message: `${ACCOUNT_ACTIONS.removeArticles.done} (${removed})`, removed };
  }
  const takesAdminAway = action === "disable" || action === "revoke";
  if (takesAdminAway && actor !== "command line" && actor.id === user.id) return refuse(400, MODERATION_MESSAGES.notYourself);
  if (alreadyDone(user, action)) return { ok: true, message: ACCOUNT_ACTIONS[action].done };
  const reason = action === "disable" ? reasonOf() : "";
  if (typeof reason !== "string") return refuse(reason.status, reason.error);
  return inTransaction(() => {
    // Checked in the transaction, so two admins demoting each other at once cannot both succeed.
    if (takesAdminAway && isActiveAdmin(user) && countActiveAdmins() <= 1) return refuse(400, MODERATION_MESSAGES.lastAdmin);
    updateUser(user.id, FLAG_CHANGES[action]());
    // A disabled account is signed out everywhere at once (its sessions also stop working while it is disabled).
    if (action === "disable") {
      endAllSessionsOf(user.id);
      recordAccountDisabled(actor, user, reason);
    }
    logModeration(actor, action, { user, detail: reason });
    return { ok: true, message: ACCOUNT_ACTIONS[action].done } as const;
  });
}
