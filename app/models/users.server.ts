import { asc, eq } from "drizzle-orm";
import { randomBytes } from "node:crypto";
import { db } from "~/db/connection.server";
import { users } from "~/db/schema.server";

export type User = typeof users.$inferSelect;

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

function newUserId(): string {
  return randomBytes(12).toString("base64url");
}

export function getUserByEmail(email: string): User | undefined {
  return db.select().from(users).where(eq(users.email, normaliseEmail(email))).get();
}

export function getUserById(id: string): User | undefined {
  return db.select().from(users).where(eq(users.id, id)).get();
}

/** A new account, or null when the e-mail is already registered. */
export function createUser(input: { displayName: string; email: string; passwordHash: string | null }): User | null {
  return (
    db
      .insert(users)
      .values({ id: newUserId(), displayName: input.displayName, email: normaliseEmail(input.email), passwordHash: input.passwordHash, createdAt: Date.now() })
      .onConflictDoNothing({ target: users.email })
      .returning()
      .get() ?? null
  );
}

/** An account with no password: it can author posts but never sign in. */
export function ensureAuthorWithoutLogin(displayName: string, email: string): User {
  return getUserByEmail(email) ?? createUser({ displayName, email, passwordHash: null })!;
}

export function setPasswordHash(userId: string, passwordHash: string): void {
  db.update(users).set({ passwordHash }).where(eq(users.id, userId)).run();
}

/** Admin status and disabling, by e-mail; false when there is no such account. */
export function updateUserByEmail(email: string, change: { isAdmin?: boolean; disabledAt?: number | null }): boolean {
  return db.update(users).set(change).where(eq(users.email, normaliseEmail(email))).run().changes > 0;
}

export function listUsers(): User[] {
  return db.select().from(users).orderBy(asc(users.createdAt)).all();
}
