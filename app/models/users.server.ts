import { and, asc, desc, eq, isNotNull, isNull, ne, or, sql } from "drizzle-orm";
import { randomBytes } from "node:crypto";
import { nameSkeletons } from "~/lib/name-skeleton.server";
import { containsPattern, foldForSearch } from "~/lib/search";
import { countRows, db } from "~/db/connection.server";
import { users } from "~/db/schema.server";

export type User = typeof users.$inferSelect;

/** An e-mail as stored and compared: NFC, trimmed, lower case. */
export function normaliseEmail(email: string): string {
  return email.normalize("NFC").trim().toLowerCase();
}

/** The columns that say what a display name looks like. */
function skeletonColumns(displayName: string) {
  const { folded, cased } = nameSkeletons(displayName);
  return { nameSkeleton: folded, nameSkeletonCased: cased };
}

/** What the admin's search looks in (migration 0005 fills it for older accounts the same way). */
function searchTextOf(displayName: string, email: string): string {
  return foldForSearch(`${displayName} ${email}`);
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
      .values({
        id: newUserId(),
        displayName: input.displayName,
        ...skeletonColumns(input.displayName),
        email: normaliseEmail(input.email),
        searchText: searchTextOf(input.displayName, normaliseEmail(input.email)),
        passwordHash: input.passwordHash,
        createdAt: Date.now(),
      })
      .onConflictDoNothing({ target: users.email })
      .returning()
      .get() ?? null
  );
}

/** An account with no password: it can author posts but never sign in. */
export function ensureAuthorWithoutLogin(displayName: string, email: string): User {
  return getUserByEmail(email) ?? createUser({ displayName, email, passwordHash: null })!;
}

/** The owner has shown the address is theirs (the link mailed to it, or an admin's command): kept as first confirmed. */
export function setEmailConfirmed(userId: string, now: number): void {
  db.update(users).set({ emailConfirmedAt: now }).where(and(eq(users.id, userId), isNull(users.emailConfirmedAt))).run();
}

export function setPasswordHash(userId: string, passwordHash: string): void {
  db.update(users).set({ passwordHash }).where(eq(users.id, userId)).run();
}

export function setDisplayName(userId: string, displayName: string): void {
  db.update(users)
    .set({ displayName, ...skeletonColumns(displayName), searchText: sql`fold(${displayName} || ' ' || ${users.email})` })
    .where(eq(users.id, userId))
    .run();
}

/**
 * Whether another account's name looks like `displayName` (the same
 * skeleton): any account, disabled ones and the demo author included, but
 * `exceptUserId`'s own. One index lookup.
 */
export function isNameTaken(displayName: string, exceptUserId?: string): boolean {
  const { folded, cased } = nameSkeletons(displayName);
  const sameLook = or(eq(users.nameSkeleton, folded), eq(users.nameSkeletonCased, cased));
  const other = exceptUserId ? and(sameLook, ne(users.id, exceptUserId)) : sameLook;
  return db.select({ id: users.id }).from(users).where(other).limit(1).get() !== undefined;
}

/** Admin status and disabling. */
export function updateUser(userId: string, change: { isAdmin?: boolean; disabledAt?: number | null }): void {
  db.update(users).set(change).where(eq(users.id, userId)).run();
}

export function noteUserSeen(userId: string, now: number): void {
  db.update(users).set({ lastSeenAt: now }).where(eq(users.id, userId)).run();
}

/** Admins who can still sign in. */
/**
 * An active admin can sign in and reach /admin: enabled, with a password
 * (the demo author has none, so granting it rights adds no admin who could act).
 */
export function isActiveAdmin(user: User): boolean {
  return user.isAdmin && user.disabledAt === null && user.passwordHash !== null;
}

/** The admins isActiveAdmin counts: the site must keep one. */
export function countActiveAdmins(): number {
  return countRows(users, and(eq(users.isAdmin, true), isNull(users.disabledAt), isNotNull(users.passwordHash)));
}

/** Whether an active admin other than these accounts exists (who else could decide). */
export function hasActiveAdminBesides(userIds: (string | null)[]): boolean {
  const ids = userIds.filter((id): id is string => id !== null);
  return countRows(users, and(eq(users.isAdmin, true), isNull(users.disabledAt), isNotNull(users.passwordHash), ...ids.map((id) => ne(users.id, id)))) > 0;
}

/** Delete an account; its sessions, reset tokens, pending images and reports go with it (its articles must be gone first). */
export function deleteUser(userId: string): void {
  db.delete(users).where(eq(users.id, userId)).run();
}

export function listUsers(): User[] {
  return db.select().from(users).orderBy(asc(users.createdAt)).all();
}

/** An account as the admin's table shows it. */
export type AccountRow = Pick<User, "id" | "displayName" | "email" | "isAdmin" | "disabledAt" | "createdAt" | "lastSeenAt" | "emailConfirmedAt"> & {
  canSignIn: boolean;
  articles: number;
  /** How many other accounts' names look like this one's (older accounts, made before names were compared). */
  lookalikes: number;
};

const accountColumns = {
  id: users.id,
  displayName: users.displayName,
  email: users.email,
  isAdmin: users.isAdmin,
  disabledAt: users.disabledAt,
  createdAt: users.createdAt,
  lastSeenAt: users.lastSeenAt,
  emailConfirmedAt: users.emailConfirmedAt,
  canSignIn: sql<number>`${users.passwordHash} IS NOT NULL`.mapWith(Boolean),
  // One index range per account (posts_author_created_at_idx).
  // Spelled out: inside a subquery Drizzle would leave the columns unqualified.
  articles: sql<number>`(SELECT count(*) FROM posts WHERE posts.author_id = users.id)`,
  // One range of each skeleton's index per account.
  lookalikes: sql<number>`(SELECT count(*) FROM users AS other WHERE (other.name_skeleton = users.name_skeleton OR other.name_skeleton_cased = users.name_skeleton_cased) AND other.id <> users.id)`,
};

/** Accounts whose name or e-mail contains `query` (diacritics and case ignored). */
function matching(query: string) {
  return query ? sql`${users.searchText} LIKE ${containsPattern(query)} ESCAPE '\\'` : undefined;
}

export function countAccounts(query: string): number {
  return countRows(users, matching(query));
}

/** A page of the accounts matching `query`, newest first. */
export function findAccounts(query: string, page: { offset: number; limit: number }): AccountRow[] {
  return db.select(accountColumns).from(users).where(matching(query)).orderBy(desc(users.createdAt), users.id).limit(page.limit).offset(page.offset).all();
}

export function getAccount(userId: string): AccountRow | undefined {
  return db.select(accountColumns).from(users).where(eq(users.id, userId)).get();
}
