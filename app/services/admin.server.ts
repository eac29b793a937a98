import { isAccountAction } from "~/lib/moderation";
import { showHiddenControls } from "~/lib/rules";
import { getUserByEmail, listUsers } from "~/models/users.server";
import { removeDemoContent } from "./demo.server";
import { moderateAccount } from "./moderation.server";

const USAGE = `Usage: npm run admin -- <command>
  grant <email>             make the account an admin
  revoke <email>            take admin rights away (not from the last active admin)
  disable <email>           stop the account from signing in (its sessions end at once)
  enable <email>            allow a disabled account to sign in again
  remove-articles <email>   delete every article of the account, with its images
  remove-demo               delete the demo articles, with their images (they do not come back)
  list                      list the accounts
Every change is written to the moderation log (/admin/log).`;

const COMMANDS = { grant: "grant", revoke: "revoke", disable: "disable", enable: "enable", "remove-articles": "removeArticles" } as const;

/**
 * The `npm run admin` command, on the configured database, with the rules
 * of the admin pages (moderation.server.ts). Its output goes to a terminal:
 * no control characters get there raw.
 */
export async function runAdminCommand(args: string[]): Promise<{ code: number; output: string }> {
  const [command, email] = args;
  if (command === "list") {
    const rows = listUsers().map(
      (u) => `${showHiddenControls(u.email)}\t${showHiddenControls(u.displayName)}\t${u.isAdmin ? "admin" : "user"}${u.disabledAt ? "\tdisabled" : ""}${u.passwordHash ? "" : "\tno sign-in"}`,
    );
    return { code: 0, output: rows.length ? rows.join("\n") : "No accounts yet." };
  }
  if (command === "remove-demo") {
    const removed = await removeDemoContent();
    return { code: 0, output: removed ? `remove-demo: removed ${removed} demo articles with their images.` : "remove-demo: there are no demo articles." };
  }
  const action = Object.hasOwn(COMMANDS, command ?? "") ? COMMANDS[command as keyof typeof COMMANDS] : undefined;
  if (!isAccountAction(action) || !email) return { code: 2, output: USAGE };
  const user = getUserByEmail(email);
  if (!user) return { code: 1, output: `No account with the e-mail ${showHiddenControls(email)}.` };
  const result = await moderateAccount("command line", user.id, action);
  if (!result.ok) return { code: 1, output: `${command}: refused for ${showHiddenControls(user.email)}: ${result.error}` };
  return { code: 0, output: `${command}: done for ${showHiddenControls(user.email)}. ${result.message}` };
}
