import { and, eq, gt, isNull } from "drizzle-orm";
import { db } from "~/db/connection.server";
import { emailConfirmationTokens } from "~/db/schema.server";

/** Links that confirm an account's e-mail address (app/services/accounts/email-confirmation.server.ts): only their hashes, as reset links. */

export function insertConfirmationToken(token: typeof emailConfirmationTokens.$inferInsert): void {
  db.insert(emailConfirmationTokens).values(token).run();
}

const usable = (tokenHash: string, now: number) =>
  and(eq(emailConfirmationTokens.tokenHash, tokenHash), isNull(emailConfirmationTokens.usedAt), gt(emailConfirmationTokens.expiresAt, now));

/** Whether a token can still be used (exists, unused, not expired). */
export function findUsableConfirmationToken(tokenHash: string, now: number) {
  return db.select().from(emailConfirmationTokens).where(usable(tokenHash, now)).get();
}

/**
 * Use a token once: in one transaction, check it, mark it and every other
 * token of the same account as used, and run `onConsumed`. The account's id, or null.
 */
export function consumeConfirmationToken(tokenHash: string, now: number, onConsumed: (userId: string) => void): string | null {
  return db.transaction((tx) => {
    const token = tx.select().from(emailConfirmationTokens).where(usable(tokenHash, now)).get();
    if (!token) return null;
    useConfirmationTokensOf(token.userId, now);
    onConsumed(token.userId);
    return token.userId;
  }, { behavior: "immediate" });
}

/** Mark every unused confirmation link of an account as used (its address is confirmed). */
export function useConfirmationTokensOf(userId: string, now: number): void {
  db.update(emailConfirmationTokens)
    .set({ usedAt: now })
    .where(and(eq(emailConfirmationTokens.userId, userId), isNull(emailConfirmationTokens.usedAt)))
    .run();
}
