import { env } from "~/config/env.server";
import { APPEAL_STATES, decisionLabel, groundLabel, reasonLabel, type AppealState } from "~/lib/moderation/moderation";
import { showHiddenControls } from "~/lib/rules";
import { queueMail, type MailKind } from "~/services/platform/mail-outbox.server";

/**
 * The mails of moderation: each is queued inside the transaction that
 * decides it (the outbox delivers them). They name articles, decisions and
 * reasons, never another person's name or address; what a person typed is
 * written with its control characters shown, never raw. A decision's mails
 * are never dropped (kind `decision`: with no room, the decision waits); an
 * acknowledgement gives way (kind `receipt`). Neither goes to an address
 * its owner has not confirmed: they read it all on their account's pages.
 */

const DAY = 24 * 60 * 60 * 1000;
const escape = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
const shown = (s: string) => showHiddenControls(s);

/** A mail of paragraphs (blank lines between them) and a link to the page where it all is. */
function send(kind: MailKind, to: string, subject: string, paragraphs: string[], link: { text: string; path: string }): void {
  const url = new URL(link.path, env.publicUrl).toString();
  const lines = ["Dobrý deň,", ...paragraphs, `${link.text}: ${url}`, "Redakcia Dejín"];
  const html = [...lines.slice(0, -2).map((p) => `<p>${escape(p).replace(/\n/g, "<br>")}</p>`), `<p><a href="${escape(url)}">${escape(link.text)}</a></p>`, "<p>Redakcia Dejín</p>"].join("\n");
  queueMail({ to, subject: shown(subject), text: lines.join("\n\n"), html }, { kind, sendBefore: Date.now() + DAY });
}

const MY_REPORTS = { text: "Vaše hlásenia", path: "/account/reports" };
const MY_STATEMENTS = { text: "Rozhodnutia o vašom obsahu", path: "/account/decisions" };
const SIGN_IN = { text: "Prihlásenie", path: "/signinsignup" };

export function mailReportReceived(to: string, report: { postTitle: string; reason: string }): void {
  send(
    "receipt",
    to,
    "Vaše hlásenie sme prijali – Dejiny",
    [`prijali sme vaše hlásenie článku „${shown(report.postTitle)}“ (${reasonLabel(report.reason)}).`, "Redakcia ho posúdi a o rozhodnutí vám dáme vedieť e-mailom aj na stránke vašich hlásení."],
    MY_REPORTS,
  );
}

export function mailReportDecided(to: string, decision: { postTitle: string; action: string; reason: string }): void {
  send(
    "decision",
    to,
    "Rozhodnutie o vašom hlásení – Dejiny",
    [`redakcia rozhodla o vašom hlásení článku „${shown(decision.postTitle)}“.`, `Rozhodnutie: ${decisionLabel(decision.action)}.`, `Odôvodnenie: ${shown(decision.reason)}`],
    MY_REPORTS,
  );
}

export function mailReportDecisionReversed(to: string, decision: { postTitle: string | null; reason: string }): void {
  send(
    "decision",
    to,
    "Rozhodnutie o vašom hlásení bolo zmenené – Dejiny",
    [
      `autor${decision.postTitle ? ` článku „${shown(decision.postTitle)}“` : ""} sa proti rozhodnutiu o vašom hlásení ohradil a iný administrátor mu vyhovel: rozhodnutie už neplatí.`,
      `Odôvodnenie: ${shown(decision.reason)}`,
    ],
    MY_REPORTS,
  );
}

/** A hidden article shown again: the readers whose reports its hiding upheld learn that it no longer stands. */
export function mailArticleShownAgain(to: string, decision: { postTitle: string; reason: string }): void {
  send(
    "decision",
    to,
    "Skrytý článok je znova zverejnený – Dejiny",
    [`redakcia znova zverejnila článok „${shown(decision.postTitle)}“, ktorý na základe vášho hlásenia skryla: rozhodnutie o hlásení už neplatí.`, `Odôvodnenie: ${shown(decision.reason)}`],
    MY_REPORTS,
  );
}

/** An upheld report that asks the author to fix the article (it stays published): what to fix, why, on what ground, and where to edit it. */
export function mailFixRequested(to: string, decision: { postId: string; postTitle: string; reason: string; ground: string; groundDetail: string }): void {
  send(
    "decision",
    to,
    "Výzva na opravu vášho článku – Dejiny",
    [
      `redakcia posúdila hlásenia k vášmu článku „${shown(decision.postTitle)}“ a vyzýva vás na jeho opravu. Článok zostáva zverejnený.`,
      `Čo opraviť: ${shown(decision.reason)}`,
      `Podnet: ${groundLabel(decision)}.`,
    ],
    { text: "Upraviť článok", path: `/posts/${encodeURIComponent(decision.postId)}?edit` },
  );
}

/** The statement of reasons for the author whose article or account a decision restricts (how to contest it included). */
export function mailStatementOfReasons(to: string, decision: { postTitle: string | null; action: string; reason: string; ground: string; groundDetail: string }): void {
  send(
    "decision",
    to,
    "Rozhodnutie redakcie o vašom obsahu – Dejiny",
    [
      decision.postTitle
        ? `redakcia rozhodla o vašom článku „${shown(decision.postTitle)}“.`
        : decision.action === "removeArticles"
          ? "redakcia rozhodla o všetkých vašich článkoch."
          : "redakcia rozhodla o vašom účte.",
      `Rozhodnutie: ${decisionLabel(decision.action, decision.postTitle !== null)}.`,
      `Dôvod: ${shown(decision.reason)}`,
      `Podnet: ${groundLabel(decision)}.`,
      decision.action === "disable"
        ? "S rozhodnutím môžete do 6 mesiacov nesúhlasiť: prihláste sa svojím e-mailom a heslom, stránka prihlásenia vám ukáže rozhodnutie aj formulár námietky."
        : "S rozhodnutím môžete do 6 mesiacov nesúhlasiť: námietku podáte na stránke rozhodnutí vo vašom účte. Posúdi ju iný administrátor.",
    ],
    // A disabled account cannot open its account pages: the sign-in page shows it the statement.
    decision.action === "disable" ? SIGN_IN : MY_STATEMENTS,
  );
}

export function mailAppealReceived(to: string, postTitle: string | null): void {
  send(
    "receipt",
    to,
    "Vašu námietku sme prijali – Dejiny",
    [`prijali sme vašu námietku proti rozhodnutiu${postTitle ? ` o článku „${shown(postTitle)}“` : ""}. Posúdi ju iný administrátor, než ktorý rozhodol.`],
    MY_STATEMENTS,
  );
}

export function mailAppealDecided(to: string, appeal: { postTitle: string | null; state: AppealState; reason: string }): void {
  send(
    "decision",
    to,
    "Rozhodnutie o vašej námietke – Dejiny",
    [
      `redakcia rozhodla o vašej námietke${appeal.postTitle ? ` k článku „${shown(appeal.postTitle)}“` : ""}: ${APPEAL_STATES[appeal.state].toLowerCase()}.`,
      `Odôvodnenie: ${shown(appeal.reason)}`,
    ],
    MY_STATEMENTS,
  );
}
