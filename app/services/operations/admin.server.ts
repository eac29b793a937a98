import { isAccountAction, isReportDecision, REPORT_DECISIONS } from "~/lib/moderation/moderation";
import { showHiddenControls } from "~/lib/rules";
import { getPost } from "~/models/posts.server";
import { getUserByEmail, listUsers } from "~/models/users.server";
import { removeDemoContent } from "./demo.server";
import { confirmEmailAs } from "~/services/accounts/email-confirmation.server";
import { decideReports, hidePost, restoreHidden, type DecisionResult } from "~/services/moderation/moderation-decisions.server";
import { moderateAccount } from "~/services/moderation/moderation.server";
import { storageFault } from "~/services/platform/storage-fault.server";

const USAGE = `Usage: npm run admin -- <command>
  grant <email>             make the account an admin
  revoke <email>            take admin rights away (not from the last active admin)
  disable <email> <reason…> stop the account from signing in (its sessions end at once;
                            its owner is told the reason and may contest it)
  enable <email>            allow a disabled account to sign in again
  confirm <email>           confirm the account's e-mail address (as its mailed link would):
                            from then on the site sends it receipts and moderation's mails
  remove-articles <email> <reason…>
                            delete every article of the account, with its images
                            (its owner is told the reason and may contest it)
  remove-demo               delete the demo articles, with their images (they do not come back)
  list                      list the accounts (an address not yet confirmed is marked)
  hide <post-id> <reason…>  hide the article from everyone but its author and admins (the author is told why)
  restore <post-id> <reason…>
                            show a hidden article again
  resolve <post-id> <decision> <reason…>
                            decide the article's open reports; <decision> is one of
                            ${REPORT_DECISIONS.join(", ")}
A post id is the last part of the article's address (/posts/<post-id>). The
reason is what the author, the reporters and the public log read (at most 500
characters). Every change is written to the moderation log (/admin/log); its
mails are queued and the running site sends them.`;

const COMMANDS = { grant: "grant", revoke: "revoke", disable: "disable", enable: "enable", "remove-articles": "removeArticles" } as const;

/**
 * The `npm run admin` command, on the configured database, with the rules
 * of the admin pages (moderation.server.ts). Its output goes to a terminal:
 * no control characters get there raw.
 */
export async function runAdminCommand(args: string[]): Promise<{ code: number; output: string }> {
  try {
    return await runCommand(args);
  } catch (error) {
    // The storage failing, or a decision whose mails have no room in the outbox: nothing changed, and the command says why.
    const fault = storageFault(error);
    if (!fault) throw error;
    return { code: 1, output: `${args[0]}: refused: ${fault.error}` };
  }
}

async function runCommand(args: string[]): Promise<{ code: number; output: string }> {
  const [command, email] = args;
  if (command === "list") {
    const rows = listUsers().map(
      (u) =>
        `${showHiddenControls(u.email)}\t${showHiddenControls(u.displayName)}\t${u.isAdmin ? "admin" : "user"}${u.disabledAt ? "\tdisabled" : ""}${u.passwordHash ? "" : "\tno sign-in"}${u.passwordHash && u.emailConfirmedAt === null ? "\tunconfirmed" : ""}`,
    );
    return { code: 0, output: rows.length ? rows.join("\n") : "No accounts yet." };
  }
  if (command === "remove-demo") {
    const removed = await removeDemoContent();
    return { code: 0, output: removed ? `remove-demo: removed ${removed} demo articles with their images.` : "remove-demo: there are no demo articles." };
  }
  if (command === "hide" || command === "restore" || command === "resolve") return await decideArticle(command, args.slice(1));
  if (command === "confirm") return confirmAddress(email);
  const action = Object.hasOwn(COMMANDS, command ?? "") ? COMMANDS[command as keyof typeof COMMANDS] : undefined;
  if (!isAccountAction(action) || !email) return { code: 2, output: USAGE };
  const user = getUserByEmail(email);
  if (!user) return { code: 1, output: `No account with the e-mail ${showHiddenControls(email)}.` };
  const result = await moderateAccount("command line", user.id, action, { reason: args.slice(2).join(" ") });
  if (!result.ok) return { code: 1, output: `${command}: refused for ${showHiddenControls(user.email)}: ${result.error}` };
  return { code: 0, output: `${command}: done for ${showHiddenControls(user.email)}. ${result.message}` };
}

/** confirm: the account's address, as if its owner had followed the mailed link (a site without a mail service has no other way). */
function confirmAddress(email: string | undefined): { code: number; output: string } {
  if (!email) return { code: 2, output: USAGE };
  const user = getUserByEmail(email);
  if (!user) return { code: 1, output: `No account with the e-mail ${showHiddenControls(email)}.` };
  const shown = showHiddenControls(user.email);
  if (!confirmEmailAs("command line", user)) return { code: 0, output: `confirm: ${shown} was confirmed already.` };
  return { code: 0, output: `confirm: done for ${shown}. The site now sends it receipts and moderation's mails.` };
}

/** hide, restore and resolve: the decisions of the admin pages (moderation-decisions.server.ts), by "the command line". */
async function decideArticle(command: "hide" | "restore" | "resolve", args: string[]): Promise<{ code: number; output: string }> {
  const [postId = "", ...rest] = args;
  const decision = command === "resolve" ? rest.shift() : undefined;
  const reason = rest.join(" ");
  if (!postId || (command === "resolve" && !isReportDecision(decision))) return { code: 2, output: USAGE };
  const post = getPost(postId);
  if (!post) return { code: 1, output: `No article with the id ${showHiddenControls(postId)}.` };
  let result: DecisionResult;
  if (command === "hide") result = await hidePost("command line", post.id, { reason });
  else if (command === "restore") result = restoreHidden("command line", post.id, { reason });
  else {
    const form = new FormData();
    form.set("post", post.id);
    form.set("decision", decision!);
    form.set("reason", reason);
    result = await decideReports("command line", form);
  }
  const what = `„${showHiddenControls(post.title)}“ (${post.id})`;
  if (!result.ok) return { code: 1, output: `${command}: refused for ${what}: ${result.error}` };
  return { code: 0, output: `${command}: done for ${what}. ${result.message}` };
}
