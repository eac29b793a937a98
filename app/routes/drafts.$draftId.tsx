import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useSubmit } from "@remix-run/react";
import { ArticleForm } from "~/components/editing/ArticleForm";
import { ArticlePreview } from "~/components/articles/ArticlePreview";
import { ConfirmAction } from "~/components/forms/ConfirmAction";
import { EditConflict } from "~/components/history/EditConflict";
import { Notice } from "~/components/forms/Messages";
import { useBroughtNotice } from "~/components/layout/BroughtNotice";
import { formatDateTime, isoTime } from "~/lib/time/dates";
import { DRAFT_ID, DRAFT_MESSAGES, DRAFT_NOTICES, draftKind } from "~/lib/drafts";
import type { AccountNotice } from "~/lib/notices";
import type { EditConflict as Conflict } from "~/lib/revisions";
import { pageTitle } from "~/lib/site";
import { getPost } from "~/models/posts.server";
import { retryAfter } from "~/services/platform/concurrency.server";
import { answerArticleForm, answerEditDraftForm, isOrphanedEdit, mayOpenDraft, removeDraft, type FormAnswer, type FormNotice } from "~/services/articles/drafts.server";
import { readForm } from "~/services/platform/forms.server";
import { isMultipartUpload, withUploadedForm } from "~/services/articles/post-upload.server";
import { getCurrentUser } from "~/services/platform/session.server";
import { redirectWithNotice } from "~/services/platform/notice.server";

/** A draft: its author's and admins' only. Anyone else, signed in or not, gets the same 404 as an id that does not exist. */
async function openDraft(request: Request, id: string | undefined) {
  const access = DRAFT_ID.test(id ?? "") ? mayOpenDraft(await getCurrentUser(request), id!) : undefined;
  if (!access) throw data(null, { status: 404 });
  return access;
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { draft, own } = await openDraft(request, params.draftId);
  const post = draft.postId ? getPost(draft.postId) : undefined;
  const { title, content, sources, period, summary } = draft;
  // A pending edit saved before it had tags of its own opens with the article's.
  const tags = post && draft.tags.length === 0 ? post.tags : draft.tags;
  return {
    draft: { id: draft.id, postId: draft.postId, postTitle: post?.title ?? null, updatedAt: draft.updatedAt, own },
    values: { title, content, sources, period, tags, summary, pendingImage: draft.imageKey ?? "" },
  };
}

/**
 * The draft form's buttons (save, preview, publish: drafts.server.ts
 * decides), and "Zmazať koncept": without `confirm=yes` it answers with the
 * confirmation step (the no-JavaScript path).
 */
export async function action({ request, params }: ActionFunctionArgs) {
  const access = await openDraft(request, params.draftId);
  let answer: FormAnswer;
  if (isMultipartUpload(request)) {
    answer = await withUploadedForm(access.user.id, request, (read) => answerArticleForm(access.user, read, access));
  } else {
    const form = await readForm(request);
    if (form.get("intent") === "delete") {
      if (form.get("confirm") !== "yes") return { ...NOTHING, confirmDelete: true };
      const removed = await removeDraft(access);
      if (!removed.ok) return data({ ...NOTHING, error: removed.error }, { status: removed.status });
      return redirectWithNotice<AccountNotice>("/account#koncepty", "draftDeleted");
    }
    // The page of a pending edit sends this form; one whose article was deleted since is kept as the new article's draft it now is.
    if (!access.draft.postId && !isOrphanedEdit(access.draft)) throw data(null, { status: 400 });
    answer = await answerEditDraftForm(access, form);
  }
  if (!answer.ok) return data({ ...NOTHING, ...answer }, { status: answer.status, headers: retryAfter(answer.status) });
  if ("redirect" in answer) return redirectWithNotice<FormNotice>(answer.redirect, answer.notice);
  return { ...NOTHING, ...answer };
}

const NOTHING = { error: null as string | null, invalid: [] as string[], values: undefined, preview: null, confirmDelete: false, conflict: null as Conflict | null };

/** Never kept by a browser or a proxy (nor by the page cache, which keeps only readers' pages). */
export const headers: HeadersFunction = ({ actionHeaders }) => {
  const headers = new Headers(actionHeaders);
  headers.set("Cache-Control", "private, no-store");
  return headers;
};

export default function DraftPage() {
  const { draft, values } = useLoaderData<typeof loader>();
  const notice = useBroughtNotice(DRAFT_NOTICES);
  const result = useActionData<typeof action>();
  const submit = useSubmit();
  const edit = draft.postId !== null;
  return (
    <main id="obsah" className="page create-page draft-page">
      <h1>{edit ? "Koncept úpravy článku" : "Koncept článku"}</h1>
      <p className="muted">
        {draft.postId && draft.postTitle !== null ? (
          <>
            Úprava článku <Link to={`/posts/${draft.postId}`}>{draft.postTitle}</Link>; čitatelia vidia článok bez nej.
          </>
        ) : (
          <>Nový článok; čitatelia ho neuvidia, kým ho neuverejníte.</>
        )}{" "}
        Naposledy uložený <time dateTime={isoTime(draft.updatedAt)}>{formatDateTime(draft.updatedAt)}</time>.
      </p>
      {!draft.own && <p className="notice">Koncept iného autora: môžete si ho prečítať, meniť ho môže iba autor.</p>}
      <Notice text={notice} />
      {result?.confirmDelete && (
        <ConfirmAction question={DRAFT_MESSAGES.confirmDelete} fields={{ intent: "delete" }} confirmLabel="Zmazať koncept" cancelHref={`/drafts/${draft.id}`} />
      )}
      {result?.preview && <ArticlePreview preview={result.preview} />}
      <ArticleForm
        edit={edit}
        values={result?.values ?? values}
        refused={result}
        readOnly={!draft.own}
        afterError={result?.conflict && <EditConflict conflict={result.conflict} />}
      />
      {draft.own && !result?.confirmDelete && (
        <Form method="post" className="draft-delete">
          <input type="hidden" name="intent" value="delete" />
          <button
            type="submit"
            className="button button-danger"
            onClick={(event) => {
              // With JavaScript, the browser's confirmation; without, the server asks.
              event.preventDefault();
              if (window.confirm(DRAFT_MESSAGES.confirmDelete)) submit({ intent: "delete", confirm: "yes" }, { method: "post" });
            }}
          >
            Zmazať koncept
          </button>
        </Form>
      )}
    </main>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: pageTitle(data ? `Koncept: ${data.values.title} (${draftKind(data.draft.postId ? data.draft.postTitle ?? "" : null)})` : "Koncept") },
  { name: "robots", content: "noindex" },
];
