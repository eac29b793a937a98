import { showHiddenControls } from "~/lib/rules";
import { getUserByEmail, listUsers, updateUserByEmail } from "~/models/users.server";
import { endAllSessionsOf } from "./session.server";

const USAGE = `Usage: npm run admin -- <command>
  grant <email>     make the account an admin
  revoke <email>    take admin rights away
  disable <email>   stop the account from signing in (its sessions end at once)
  enable <email>    allow a disabled account to sign in again
  list              list the accounts`;

/** The `npm run admin` command, on the configured database. Its output goes to a terminal: no control characters get there raw. */
export function runAdminCommand(args: string[]): { code: number; output: string } {
  const [command, email] = args;
  if (command === "list") {
    const rows = listUsers().map(
      (u) => `${showHiddenControls(u.email)}\t${showHiddenControls(u.displayName)}\t${u.isAdmin ? "admin" : "user"}${u.disabledAt ? "\tdisabled" : ""}${u.passwordHash ? "" : "\tno sign-in"}`,
    );
    return { code: 0, output: rows.length ? rows.join("\n") : "No accounts yet." };
  }
  const changes = {
    grant: { isAdmin: true },
    revoke: { isAdmin: false },
    disable: { disabledAt: Date.now() },
    enable: { disabledAt: null },
  } as const;
  if (!(command in changes) || !email) return { code: 2, output: USAGE };
  const change = changes[command as keyof typeof changes];
  if (!updateUserByEmail(email, change)) return { code: 1, output: `No account with the e-mail ${showHiddenControls(email)}.` };
  if (command === "disable") endAllSessionsOf(getUserByEmail(email)!.id);
  return { code: 0, output: `${command}: done for ${showHiddenControls(email.trim().toLowerCase())}.` };
}
