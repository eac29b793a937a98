import { Form, useNavigation } from "@remix-run/react";
import { useEffect, useRef, type FormEvent, type ReactNode } from "react";
import { DRAFT_MESSAGES, formIntent } from "~/lib/drafts";
import { DRAFT_FIELDS, draftSchema, NEW_POST_FIELDS, newPostSchema } from "~/lib/forms";
import { CONTENT_MAX_LENGTH, MESSAGES, TITLE_MAX_LENGTH } from "~/lib/rules";
import { ContentHint } from "./ContentHint";
import { Field, SummaryField } from "~/components/forms/Field";
import { ImagePicker, NEW_IMAGE_LABEL } from "./ImagePicker";
import { PeriodField } from "./PeriodField";
import { FormError } from "~/components/forms/Messages";
import { SourcesField } from "./SourcesField";
import { TagPicker } from "./TagPicker";
import { useFormCheck } from "~/components/forms/useFormCheck";

export type ArticleFormValues = {
  title: string;
  content: string;
  sources: string;
  period: string;
  tags: string[];
  pendingImage: string;
  summary: string;
};

type Props = {
  /** A pending edit of a published article (with its summary, and an optional new image), or a new article. */
  edit?: boolean;
  values: Partial<ArticleFormValues> | undefined;
  /** The server's refusal: its message and the fields it marks. */
  refused: { error: string | null; invalid: string[] } | undefined;
  /** An admin reading someone else's draft: shown, not sent. */
  readOnly?: boolean;
  /** Shown right under the refusal's message (a stale pending edit's difference, which the message points to). */
  afterError?: ReactNode;
  /** Where the form goes: its own page unless said (an edit of a deleted article is given back as a new one for /create-post). */
  action?: string;
};

/** What newPostSchema's `image` says in the browser: a file picked, or an image sent ahead (its key). */
function describeImage(form: FormData): void {
  const file = form.get("image");
  if (file instanceof File && file.size > 0) form.set("image", "new");
  else if (form.get("pendingImage")) form.set("image", "pending");
  else form.delete("image");
}

/**
 * The article form of /create-post and of a draft's page, with its three
 * buttons: "Uložiť koncept" (needs only a title), "Náhľad" and "Uverejniť"
 * (the full rules). With JavaScript, the rules of the button pressed are
 * checked before sending; the server checks them all again.
 */
export function ArticleForm({ edit = false, values, refused, readOnly = false, afterError, action }: Props) {
  const navigation = useNavigation();
  const publishCheck = useFormCheck(newPostSchema, NEW_POST_FIELDS, MESSAGES.createFieldsMissing, describeImage);
  const draftCheck = useFormCheck(draftSchema, DRAFT_FIELDS, DRAFT_MESSAGES.titleMissing);
  function onSubmit(event: FormEvent<HTMLFormElement>) {
    const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
    // A pending edit's publish is checked by the server (its rules are the edit form's).
    const check = formIntent(submitter?.value) === "publish" && !edit ? publishCheck : draftCheck;
    (check === publishCheck ? draftCheck : publishCheck).clear();
    check.onSubmit(event);
  }
  const problem = publishCheck.problem ?? draftCheck.problem;
  const shown = problem ? { error: problem.message, invalid: problem.invalid as string[] } : refused;
  const invalid = (field: string) => shown?.invalid.includes(field) ?? false;
  // A refusal from the server is at the top of a long form: take the reader there (the client's own check marks its field).
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (refused?.error) form.current?.querySelector<HTMLElement>("#create-error")?.focus();
  }, [refused]);
  const busy = navigation.state === "submitting" ? formIntent(navigation.formData?.get("intent")) : null;

  return (
    // Keyed by each answer, so the fields show what the server kept.
    <Form
      method="post"
      action={action}
      encType="multipart/form-data"
      noValidate
      key={JSON.stringify(values ?? null)}
      className="create-form"
      ref={form}
      onSubmit={onSubmit}
    >
      <FormError id="create-error" text={shown?.error} />
      {afterError}
      <fieldset className="plain-fieldset" disabled={readOnly}>
        <Field
          name="title"
          label="Nadpis"
          maxLength={TITLE_MAX_LENGTH}
          required
          defaultValue={values?.title}
          invalid={invalid("title")}
          errorId="create-error"
        />
        <PeriodField defaultValue={values?.period} invalid={invalid("period")} errorId="create-error" />
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
        {/* A pending edit brings its tags (editsTags): none ticked is refused when it is published, as when creating. */}
        {edit && <input type="hidden" name="withTags" value="1" />}
        <TagPicker initial={values?.tags ?? []} invalid={invalid("tags")} errorId="create-error" />
        <SourcesField defaultValue={values?.sources} invalid={invalid("sources")} errorId="create-error" />
        {edit && <SummaryField defaultValue={values?.summary ?? ""} invalid={invalid("summary")} errorId="create-error" />}
        {/* Last, so that an oversized image cannot cut off the fields before it. */}
        <ImagePicker pendingImage={values?.pendingImage ?? ""} invalid={invalid("image")} errorId="create-error" label={edit ? NEW_IMAGE_LABEL : undefined} />
        {!readOnly && <DraftButtons busy={busy} />}
      </fieldset>
    </Form>
  );
}

/** Each button's label, and while its submit is on the way. */
const BUTTONS = [
  { intent: "draft", label: "Uložiť koncept", busyLabel: "Ukladám…", className: "button button-secondary" },
  { intent: "preview", label: "Náhľad", busyLabel: "Pripravujem náhľad…", className: "button button-secondary" },
  { intent: "publish", label: "Uverejniť", busyLabel: "Uverejňujem…", className: "button button-large" },
] as const;

/** "Uložiť koncept", "Náhľad" and "Uverejniť", each sending its `intent` (the form's last field). */
function DraftButtons({ busy }: { busy: string | null }) {
  return (
    <div className="button-row draft-buttons">
      {BUTTONS.map((button) => (
        <button key={button.intent} type="submit" name="intent" value={button.intent} className={button.className} disabled={busy !== null}>
          {busy === button.intent ? button.busyLabel : button.label}
        </button>
      ))}
    </div>
  );
}
