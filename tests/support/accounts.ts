import Database from "better-sqlite3";
import { registerUser } from "../../scripts/lib/client";

/**
 * Confirm an account's address as its owner's click on the mailed link
 * would (its first confirmation kept), straight in the database: for tests
 * about what a confirmed account is sent, not about confirming. (Opened
 * here, not through ./http, which the browser tests cannot import.)
 */
export function confirmAddress(databasePath: string, email: string): void {
  const db = new Database(databasePath, { fileMustExist: true });
  try {
    db.prepare("UPDATE users SET email_confirmed_at = coalesce(email_confirmed_at, ?) WHERE email = ?").run(Date.now(), email.toLowerCase());
  } finally {
    db.close();
  }
}

/** A new account (registerUser) whose address is confirmed. */
export async function registerConfirmedUser(base: string, databasePath: string, overrides: Record<string, string> = {}) {
  const account = await registerUser(base, overrides);
  confirmAddress(databasePath, account.email);
  return account;
}

/**
 * Make an account an admin straight in the database, for tests about what an
 * admin may do, not about `npm run admin` (whose own tests run the command):
 * no process to start, so a busy machine cannot make it time out.
 */
export function grantAdmin(databasePath: string, email: string): void {
  const db = new Database(databasePath, { fileMustExist: true });
  try {
    db.prepare("UPDATE users SET is_admin = 1 WHERE email = ?").run(email.toLowerCase());
  } finally {
    db.close();
  }
}
