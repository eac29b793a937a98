import { and, eq, gt, isNull } from "drizzle-orm";
import { db } from "~/db/connection.server";
import { passwordResetTokens } from "~/db/schema.server";

export function insertResetToken(token: typeof passwordResetTokens.$inferInsert): void {
  db.insert(passwordResetTokens).values(token).run();
}

/** Whether a token can still be used (exists, unused, not expired). */
export function findUsableResetToken(tokenHash: string, now: number) {
  return db
    .select()
    .from(passwordResetTokens)
    .where(and(eq(passwordResetTokens.tokenHash, tokenHash), isNull(passwordResetTokens.usedAt), gt(passwordResetTokens.expiresAt, now)))
    .get();
}

/**
 * Use a token once: in one transaction, check it and mark it and every other
 * token of the same user as used. Returns the user id, or null.
 */
export function consumeResetToken(tokenHash: string, now: number, onConsumed: (userId: string) => void): string | null {
  return db.transaction((tx) => {
    const token = tx
      .select()
      .from(passwordResetTokens)
      .where(and(eq(passwordResetTokens.tokenHash, tokenHash), isNull(passwordResetTokens.usedAt), gt(passwordResetTokens.expiresAt, now)))
      .get();
    if (!token) return null;
    tx.update(passwordResetTokens)
      .set({ usedAt: now })
      .where(and(eq(passwordResetTokens.userId, token.userId), isNull(passwordResetTokens.usedAt)))
      .run();
    onConsumed(token.userId);
    return token.userId;
  }, { behavior: "immediate" });
}

/** Forget every reset link of an account (its password was just changed). */
export function deleteResetTokensOf(userId: string): void {
  db.delete(passwordResetTokens).where(eq(passwordResetTokens.userId, userId)).run();
}
