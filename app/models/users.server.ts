import { eq } from "drizzle-orm";
import { randomBytes } from "node:crypto";
import { db } from "~/services/db.server";
import { users } from "./schema.server";

export type User = typeof users.$inferSelect;

export function newUserId(): string {
  return randomBytes(12).toString("base64url");
}

export function getUserByEmail(email: string): User | undefined {
  return db.select().from(users).where(eq(users.email, email.trim().toLowerCase())).get();
}

/** An account with no password: it can author posts but never sign in. */
export function ensureAuthorWithoutLogin(displayName: string, email: string): User {
  const existing = getUserByEmail(email);
  if (existing) return existing;
  return db
    .insert(users)
    .values({ id: newUserId(), displayName, email: email.toLowerCase(), passwordHash: null, createdAt: Date.now() })
    .returning()
    .get();
}
