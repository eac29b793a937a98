import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, useActionData, useNavigation } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { ContentHint } from "~/components/ContentHint";
import { Field } from "~/components/Field";
import { FormError } from "~/components/Messages";
import { ImagePicker } from "~/components/ImagePicker";
import { SourcesField } from "~/components/SourcesField";
import { TagPicker } from "~/components/TagPicker";
import { useFormCheck } from "~/components/useFormCheck";
import { NEW_POST_FIELDS, newPostSchema } from "~/lib/forms";
import { CONTENT_MAX_LENGTH, MESSAGES, TITLE_MAX_LENGTH } from "~/lib/rules";
import { pageTitle } from "~/lib/site";
import { retryAfter } from "~/services/concurrency.server";
import { withUploadedForm } from "~/services/post-upload.server";
import { keptValues, publishPost, refusal, type PostResult } from "~/services/posts.server";
import { getCurrentUser, requireUser } from "~/services/session.server";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  return null;
}

export async function action({ request }: ActionFunctionArgs) {
  // A visitor's upload is not read: the server throws the rest of it away (server/request-body.ts).
  const user = await getCurrentUser(request);
  if (!user) throw redirect("/signinsignup?redirectTo=/create-post", 303);
  const result = await withUploadedForm(user.id, request, async ({ input, refusal: unread }): Promise<PostResult<{ id: string }>> =>
    unread ? refusal(unread.status, unread.error, unread.invalid, keptValues(user.id, input)) : publishPost(user.id, input),
  );
  if (result.ok) return redirect(`/posts/${result.id}`, 303);
  return data(result, { status: result.status, headers: retryAfter(result.status) });
}

/** The action's headers on the document too (a busy answer's Retry-After): Remix sends a route's headers only through this export. */
export const headers: HeadersFunction = ({ actionHeaders }) => actionHeaders;

/** What newPostSchema's `image` says in the browser: a file picked, or an image sent ahead (its key). */
function describeImage(form: FormData): void {
  const file = form.get("image");
  if (file instanceof File && file.size > 0) form.set("image", "new");
  else if (form.get("pendingImage")) form.set("image", "pending");
  else form.delete("image");
}

export default function CreatePost() {
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const check = useFormCheck(newPostSchema, NEW_POST_FIELDS, MESSAGES.createFieldsMissing, describeImage);
  const values = result?.values;
  // A refusal from the server is at the top of a long form: take the reader there (the client's own check marks its field).
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (result?.error) form.current?.querySelector<HTMLElement>("#create-error")?.focus();
  }, [result]);
  const shown = check.problem ? { error: check.problem.message, invalid: check.problem.invalid } : result;
  const invalid = (field: string) => shown?.invalid.includes(field as never) ?? false;
  return (
    <main id="obsah" className="page create-page">
      <h1>Pridať článok</h1>
      {/* Keyed by each answer, so the fields show what the server kept. */}
      <Form
        method="post"
        encType="multipart/form-data"
        noValidate
        key={JSON.stringify(values ?? null)}
        className="create-form"
        ref={form}
        onSubmit={check.onSubmit}
      >
        <FormError id="create-error" text={shown?.error} />
        <Field
          name="title"
          label="Nadpis"
          maxLength={TITLE_MAX_LENGTH}
          required
          defaultValue={values?.title}
          invalid={invalid("title")}
          errorId="create-error"
        />
        <div className="field">
          <label htmlFor="field-content">Text článku</label>
          <textarea
            id="field-content"
            name="content"
            rows={12}
            maxLength={CONTENT_MAX_LENGTH}
            required
            defaultValue={values?.content}
            aria-invalid={invalid("content") || undefined}
            aria-describedby={invalid("content") ? "create-error" : "content-hint"}
          />
          <ContentHint id="content-hint" />
        </div>
        <TagPicker initial={values?.tags ?? []} invalid={invalid("tags")} errorId="create-error" />
        <SourcesField defaultValue={values?.sources} invalid={invalid("sources")} errorId="create-error" />
        {/* Last, so that an oversized image cannot cut off the fields before it. */}
        <ImagePicker pendingImage={values?.pendingImage ?? ""} invalid={invalid("image")} errorId="create-error" />
        <button type="submit" className="button button-large" disabled={navigation.state === "submitting"}>
          {navigation.state === "submitting" ? "Uverejňujem…" : "Uverejniť"}
        </button>
      </Form>
    </main>
  );
}

export const meta: MetaFunction = () => [{ title: pageTitle("Pridať článok") }, { name: "robots", content: "noindex" }];
