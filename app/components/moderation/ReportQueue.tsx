import { Form, Link } from "@remix-run/react";
import { FormError } from "~/components/forms/Messages";
import { formatDateAtTime, formatDateTime, isoTime } from "~/lib/time/dates";
import { DECISION_ACTIONS, DECISION_REASON_MAX_LENGTH, decisionLabel, groundLabel, reasonLabel, REPORT_DECISIONS } from "~/lib/moderation/moderation";
import { showHiddenControls } from "~/lib/rules";

type QueuedReport = { id: number; reason: string; note: string; paragraph: number | null; passage: string; createdAt: number; reporterName: string };
/** `own`: the viewer wrote it (its reporters are not named); `leftToOthers`: another admin decides it. */
export type QueuedArticle = { postId: string; postTitle: string; hidden: boolean; own: boolean; leftToOthers: boolean; reports: QueuedReport[] };
export type DecisionValues = { post: string[]; decision: string; reason: string };

/**
 * The admins' queue of open reports, one entry per article (its reports are
 * decided together), and one plain form: tick articles, choose a decision,
 * give the reason the reporters, the author and the public log read.
 */
export function ReportQueue({ articles, total, values, invalid }: { articles: QueuedArticle[]; total: number; values: DecisionValues; invalid: string[] }) {
  if (articles.length === 0) return <p>Žiadne otvorené hlásenia.</p>;
  return (
    <Form method="post" className="stack-form decision-form" noValidate>
      <input type="hidden" name="intent" value="decide" />
      {total > articles.reduce((n, a) => n + a.reports.length, 0) && <p>Zobrazené sú najstaršie hlásenia; ďalšie sa ukážu po rozhodnutí o týchto.</p>}
      <ul className="plain-list report-list">
        {articles.map((article) => (
          <li key={article.postId}>
            {article.leftToOthers ? (
              <p className="muted">Váš článok: o jeho hláseniach rozhodne iný administrátor.</p>
            ) : (
              <label className="checkbox">
                <input type="checkbox" name="post" value={article.postId} defaultChecked={values.post.includes(article.postId)} aria-invalid={invalid.includes("post") || undefined} />{" "}
                <span>
                  Vybrať <span className="visually-hidden">článok „{article.postTitle}“</span>
                </span>
              </label>
            )}
            <p>
              <Link to={`/posts/${article.postId}`}>{article.postTitle}</Link> {article.hidden && <span className="status">skrytý</span>}{" "}
              {/* The reported text usually lives in earlier revisions too: the history is where they are hidden. */}
              <Link to={`/posts/${article.postId}/history`} className="queue-history">
                História (skryť staršie verzie<span className="visually-hidden"> článku „{article.postTitle}“</span>)
              </Link>
              {article.own && <span className="status">váš článok</span>}
            </p>
            <ul className="plain-list">
              {article.reports.map((report) => (
                <li key={report.id}>
                  <p className="muted">
                    {reasonLabel(report.reason)}
                    {report.paragraph !== null && ` · odsek ${report.paragraph}`} · {report.reporterName ? <>nahlásil(a) {showHiddenControls(report.reporterName)}</> : "nahlásil(a) čitateľ"} ·{" "}
                    <time dateTime={isoTime(report.createdAt)}>{formatDateAtTime(report.createdAt)}</time>
                  </p>
                  {report.passage && <blockquote className="report-note">{report.passage}</blockquote>}
                  {report.note && <p className="report-note">{report.note}</p>}
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ul>
      <fieldset className="choice-group" aria-invalid={invalid.includes("decision") || undefined}>
        <legend className="field-label">Rozhodnutie o vybraných článkoch</legend>
        {REPORT_DECISIONS.map((decision) => (
          <label className="checkbox" key={decision}>
            <input type="radio" name="decision" value={decision} defaultChecked={values.decision === decision} /> {DECISION_ACTIONS[decision].choice}
          </label>
        ))}
      </fieldset>
      <ReasonField id="decision-reason" label="Odôvodnenie (prečítajú si ho nahlasovatelia, autor aj verejný záznam moderovania)" value={values.reason} invalid={invalid.includes("reason")} />
      <div className="button-row">
        <button type="submit" className="button">
          Rozhodnúť o vybraných
        </button>
      </div>
    </Form>
  );
}

/** A decision's reason (or an appeal's text); `errorId`: the element saying why it was refused. */
export function ReasonField({
  id,
  label,
  value,
  invalid,
  maxLength = DECISION_REASON_MAX_LENGTH,
  name = "reason",
  required,
  errorId,
}: {
  id: string;
  label: React.ReactNode;
  value: string;
  invalid: boolean;
  maxLength?: number;
  name?: string;
  required?: boolean;
  errorId?: string;
}) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <textarea
        id={id}
        name={name}
        rows={3}
        className="short-text"
        maxLength={maxLength}
        required={required}
        defaultValue={value}
        aria-invalid={invalid || undefined}
        aria-describedby={invalid && errorId ? errorId : undefined}
      />
    </div>
  );
}

export type QueuedAppeal = {
  appeal: { id: number; text: string; createdAt: number };
  decision: { action: string; postTitle: string | null; reason: string; ground: string; groundDetail: string; createdAt: number };
  authorName: string;
};

/** Open appeals, each with the decision it contests and a form to grant or reject it with a reason. */
export function AppealQueue({ appeals, values: refused }: { appeals: QueuedAppeal[]; values: { appeal: number; reason: string; error: string } | null }) {
  if (appeals.length === 0) return <p>Žiadne otvorené námietky.</p>;
  return (
    <ul className="plain-list report-list">
      {appeals.map(({ appeal, decision, authorName }) => (
        <li key={appeal.id}>
          <p>
            {decisionLabel(decision.action, decision.postTitle !== null)}
            {decision.postTitle && <> · „{decision.postTitle}“</>} · <time dateTime={isoTime(decision.createdAt)}>{formatDateTime(decision.createdAt)}</time>
          </p>
          <p className="muted">
            Dôvod: {decision.reason} · Podnet: {groundLabel(decision)}
          </p>
          <p className="muted">
            Námietka autora {showHiddenControls(authorName)} z <time dateTime={isoTime(appeal.createdAt)}>{formatDateTime(appeal.createdAt)}</time>:
          </p>
          <blockquote className="report-note">{appeal.text}</blockquote>
          <Form method="post" className="stack-form">
            <input type="hidden" name="intent" value="decideAppeal" />
            <input type="hidden" name="appeal" value={appeal.id} />
            <FormError id={`appeal-error-${appeal.id}`} text={refused?.appeal === appeal.id ? refused.error : null} />
            <ReasonField
              id={`appeal-reason-${appeal.id}`}
              label="Odôvodnenie (prečíta si ho autor aj verejný záznam moderovania)"
              value={refused?.appeal === appeal.id ? refused.reason : ""}
              invalid={refused?.appeal === appeal.id}
            />
            <div className="button-row">
              <button type="submit" name="outcome" value="granted" className="button button-small">
                Vyhovieť námietke
              </button>
              <button type="submit" name="outcome" value="rejected" className="button button-small button-secondary">
                Zamietnuť námietku
              </button>
            </div>
          </Form>
        </li>
      ))}
    </ul>
  );
}
