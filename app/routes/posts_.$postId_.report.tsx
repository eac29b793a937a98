import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { FormError, Notice } from "~/components/forms/Messages";
import { useFocusFirstError } from "~/components/forms/useFocusFirstError";
import { MODERATION_MESSAGES, PASSAGE_REASONS, REPORT_NOTE_MAX_LENGTH, REPORT_REASONS } from "~/lib/moderation/moderation";
import { passageAnchor, quotedPassage } from "~/lib/text/passages";
import { pageTitle } from "~/lib/site";
import { getPost } from "~/models/posts.server";
import { retryAfter } from "~/services/platform/concurrency.server";
import { readForm } from "~/services/platform/forms.server";
import { asRefusal, ifStorageFails, onForm } from "~/services/platform/storage-fault.server";
import { reportPassage, reportPost } from "~/services/moderation/reports.server";
import { requireUser } from "~/services/platform/session.server";

/**
 * "Nahlásiť": a signed-in reader tells the admins what is wrong with an
 * article; with `?odsek=N` ("Zdroj?" beside a passage), with one passage of it.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const post = getPost(params.postId ?? "");
  // A hidden article is reported no more (reportPost refuses it too), whoever asks.
  if (!post || post.hiddenAt !== null) throw data(null, { status: 404 });
  const page = { post: { id: post.id, title: post.title }, own: post.authorId === user.id };
  const odsek = new URL(request.url).searchParams.get("odsek");
  if (odsek === null) return { ...page, passage: null, noPassage: false };
  const passage = quotedPassage(post.content, odsek);
  return data({ ...page, passage, noPassage: !passage }, { status: passage ? 200 : 400 });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const form = await readForm(request);
  const odsek = new URL(request.url).searchParams.get("odsek");
  const postId = params.postId ?? "";
  const result = await ifStorageFails(
    () => (odsek === null ? reportPost(user, postId, form) : reportPassage(user, postId, odsek, form)),
    (fault) => asRefusal(onForm(fault)),
  );
  if (!result.ok && result.status === 404) throw data(null, { status: 404 });
  if (result.ok) return { sent: result.message, error: null, invalid: [] as string[], values: { reason: "", note: "" } };
  const values = { reason: String(form.get("reason") ?? ""), note: String(form.get("note") ?? "") };
  return data({ sent: null, error: result.error, invalid: result.invalid ?? [], values }, { status: result.status, headers: retryAfter(result.status) });
}

export default function ReportPost() {
  const { post, own, passage, noPassage } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  const form = useFocusFirstError(result?.error ? result : null);
  // "Zdroj?" asks for a source: that reason comes chosen.
  const chosen = result?.values.reason ?? (passage ? "missingSource" : "");
  const reasons: Record<string, string> = passage ? PASSAGE_REASONS : REPORT_REASONS;
  return (
    <main id="obsah" className="page account-page">
      <h1>{passage ? "Označiť odsek" : "Nahlásiť článok"}</h1>
      <p>
        <Link to={`/posts/${post.id}`}>„{post.title}“</Link>
      </p>
      {passage && (
        <blockquote className="report-note passage-quote">
          <Link to={`/posts/${post.id}#${passageAnchor(passage.n)}`}>Odsek {passage.n}</Link>: „{passage.quote}“
        </blockquote>
      )}
      {noPassage ? (
        <>
          <p className="form-error" role="alert">
            {MODERATION_MESSAGES.noSuchPassage}
          </p>
          <p>
            <Link to={`/posts/${post.id}`}>Späť na článok</Link>
          </p>
        </>
      ) : result?.sent ? (
        <>
          <Notice text={result.sent} />
          <p>
            <Link to={`/posts/${post.id}`}>Späť na článok</Link>
          </p>
        </>
      ) : own ? (
        <p className={result?.error ? "form-error" : undefined}>{result?.error ?? "Toto je váš článok: nemôžete ho nahlásiť, ale môžete ho upraviť alebo odstrániť."}</p>
      ) : (
        <Form method="post" className="stack-form" noValidate ref={form}>
          <FormError id="report-error" text={result?.error} />
          <p id="reason-label" className="field-label">
            {passage ? "Čo je s odsekom v neporiadku?" : "Čo je s článkom v neporiadku?"}
          </p>
          <div
            role="radiogroup"
            className="choice-group"
            aria-labelledby="reason-label"
            aria-invalid={result?.invalid.includes("reason") || undefined}
            aria-describedby={result?.invalid.includes("reason") ? "report-error" : undefined}
          >
            {Object.entries(reasons).map(([reason, label]) => (
              <label className="checkbox" key={reason}>
                <input type="radio" name="reason" value={reason} defaultChecked={chosen === reason} required /> {label}
              </label>
            ))}
          </div>
          <div className="field">
            <label htmlFor="field-note">Poznámka pre redakciu (nepovinná)</label>
            <textarea
              id="field-note"
              name="note"
              rows={4}
              maxLength={REPORT_NOTE_MAX_LENGTH}
              defaultValue={result?.values.note ?? ""}
              aria-invalid={result?.invalid.includes("note") || undefined}
              aria-describedby={result?.invalid.includes("note") ? "report-error note-hint" : "note-hint"}
            />
            <p className="field-hint" id="note-hint">
              Poznámku si prečíta iba redakcia, autor článku ju neuvidí.
            </p>
          </div>
          <div className="button-row">
            <button type="submit" className="button" disabled={busy}>
              {passage ? "Označiť odsek" : "Nahlásiť"}
            </button>
            <Link to={`/posts/${post.id}`} className="button button-secondary">
              Zrušiť
            </Link>
          </div>
        </Form>
      )}
    </main>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: pageTitle(data?.passage ? "Označiť odsek" : "Nahlásiť článok") }, { name: "robots", content: "noindex" }];
