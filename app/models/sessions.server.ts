import { and, eq, isNull, lt, sql } from "drizzle-orm";
import { db } from "~/db/connection.server";
import { sessions, users } from "~/db/schema.server";

export function insertSession(session: typeof sessions.$inferInsert): void {
  db.insert(sessions).values(session).run();
}

const sessionUser = db
  .select({
    session: { idHash: sessions.idHash, remember: sessions.remember, createdAt: sessions.createdAt, expiresAt: sessions.expiresAt },
    user: { id: users.id, displayName: users.displayName, email: users.email, isAdmin: users.isAdmin },
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

export function extendSession(idHash: string, expiresAt: number): void {
  db.update(sessions).set({ expiresAt }).where(eq(sessions.idHash, idHash)).run();
}

export function deleteSession(idHash: string): void {
  db.delete(sessions).where(eq(sessions.idHash, idHash)).run();
}

export function deleteUserSessions(userId: string): void {
  db.delete(sessions).where(eq(sessions.userId, userId)).run();
}

export function purgeExpiredSessions(now: number): number {
  return db.delete(sessions).where(lt(sessions.expiresAt, now)).run().changes;
}
