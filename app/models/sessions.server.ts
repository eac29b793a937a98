import { and, desc, eq, isNull, lt, ne, notInArray, sql } from "drizzle-orm";
import { db } from "~/db/connection.server";
import { sessions, users } from "~/db/schema.server";

export function insertSession(session: typeof sessions.$inferInsert): void {
  db.insert(sessions).values(session).run();
}

const sessionUser = db
  .select({
    session: { idHash: sessions.idHash, remember: sessions.remember, createdAt: sessions.createdAt, expiresAt: sessions.expiresAt, lastSeenAt: sessions.lastSeenAt },
    user: { id: users.id, displayName: users.displayName, email: users.email, isAdmin: users.isAdmin, emailConfirmedAt: users.emailConfirmedAt },
  })
  .from(sessions)
  .innerJoin(users, eq(users.id, sessions.userId))
  // A disabled account's sessions stop working at its next request.
  .where(and(eq(sessions.idHash, sql.placeholder("idHash")), isNull(users.disabledAt)))
  .prepare();

export type SessionUser = NonNullable<ReturnType<typeof sessionUser.get>>;

/** The session and its user, if the session exists and its account is enabled (expiry is checked by the caller). */
export function getSessionUser(idHash: string): SessionUser | undefined {
  return sessionUser.get({ idHash });
}

/** A session in use: its new expiry and when it was last seen. */
export function touchSession(idHash: string, change: { expiresAt: number; lastSeenAt: number }): void {
  db.update(sessions).set(change).where(eq(sessions.idHash, idHash)).run();
}

export function deleteSession(idHash: string): void {
  db.delete(sessions).where(eq(sessions.idHash, idHash)).run();
}

/** End one session, only if it belongs to `userId`; whether there was one. */
export function deleteSessionOf(userId: string, idHash: string): boolean {
  return db.delete(sessions).where(and(eq(sessions.idHash, idHash), eq(sessions.userId, userId))).run().changes > 0;
}

/** End every session of an account, but `keepIdHash` when given. */
export function deleteUserSessions(userId: string, keepIdHash?: string): void {
  db.delete(sessions)
    .where(and(eq(sessions.userId, userId), keepIdHash ? ne(sessions.idHash, keepIdHash) : undefined))
    .run();
}

const lastUsed = sql`coalesce(${sessions.lastSeenAt}, ${sessions.createdAt})`;

/** Keep only an account's `keep` most recently used sessions. */
export function trimUserSessions(userId: string, keep: number): void {
  const newest = db.select({ idHash: sessions.idHash }).from(sessions).where(eq(sessions.userId, userId)).orderBy(desc(lastUsed)).limit(keep);
  db.delete(sessions)
    .where(and(eq(sessions.userId, userId), notInArray(sessions.idHash, newest)))
    .run();
}

export type SessionRow = { idHash: string; userAgent: string; createdAt: number; lastSeenAt: number | null; remember: boolean };

/** An account's sessions still valid at `now`, most recently used first. */
export function listUserSessions(userId: string, now: number): SessionRow[] {
  return db
    .select({ idHash: sessions.idHash, userAgent: sessions.userAgent, createdAt: sessions.createdAt, lastSeenAt: sessions.lastSeenAt, remember: sessions.remember })
    .from(sessions)
    .where(and(eq(sessions.userId, userId), sql`${sessions.expiresAt} > ${now}`))
    .orderBy(desc(lastUsed))
    .all();
}

export function purgeExpiredSessions(now: number): number {
  return db.delete(sessions).where(lt(sessions.expiresAt, now)).run().changes;
}
