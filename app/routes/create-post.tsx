import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { useActionData } from "@remix-run/react";
import { ArticleForm } from "~/components/editing/ArticleForm";
import { ArticlePreview } from "~/components/articles/ArticlePreview";
import { pageTitle } from "~/lib/site";
import { retryAfter } from "~/services/platform/concurrency.server";
import { answerArticleForm, type FormNotice } from "~/services/articles/drafts.server";
import { withUploadedForm } from "~/services/articles/post-upload.server";
import { getCurrentUser, requireUser } from "~/services/platform/session.server";
import { redirectWithNotice } from "~/services/platform/notice.server";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  return null;
}

/** "Uverejniť" publishes, "Uložiť koncept" keeps a draft (both 303), "Náhľad" answers the form with the preview above it. */
export async function action({ request }: ActionFunctionArgs) {
  // A visitor's upload is not read: the server throws the rest of it away (server/request-body.ts).
  const user = await getCurrentUser(request);
  if (!user) throw redirect("/signinsignup?redirectTo=/create-post", 303);
  const answer = await withUploadedForm(user.id, request, (read) => answerArticleForm(user, read));
  if (!answer.ok) return data({ ...answer, preview: null }, { status: answer.status, headers: retryAfter(answer.status) });
  if ("redirect" in answer) return redirectWithNotice<FormNotice>(answer.redirect, answer.notice);
  return { ...answer, error: null, invalid: [] };
}

/** The action's headers on the document too (a busy answer's Retry-After): Remix sends a route's headers only through this export. */
export const headers: HeadersFunction = ({ actionHeaders }) => actionHeaders;

export default function CreatePost() {
  const result = useActionData<typeof action>();
  return (
    <main id="obsah" className="page create-page">
      <h1>Pridať článok</h1>
      {result?.preview && <ArticlePreview preview={result.preview} />}
      <ArticleForm values={result?.values} refused={result} />
    </main>
  );
}

export const meta: MetaFunction = () => [{ title: pageTitle("Pridať článok") }, { name: "robots", content: "noindex" }];
