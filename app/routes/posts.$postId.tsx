import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import {
  Form,
  isRouteErrorResponse,
  Link,
  useActionData,
  useLoaderData,
  useLocation,
  useNavigate,
  useRouteError,
  useRouteLoaderData,
  useSubmit,
} from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { ArticleBody } from "~/components/articles/ArticleBody";
import { ArticlePreview } from "~/components/articles/ArticlePreview";
import { PeriodNeighbours } from "~/components/articles/PeriodNeighbours";
import { PostPeriod } from "~/components/articles/PostPeriod";
import { ResponsiveImage } from "~/components/articles/ResponsiveImage";
import { ArticleForm } from "~/components/editing/ArticleForm";
import { ContentHint } from "~/components/editing/ContentHint";
import { PassageFlags } from "~/components/editing/PassageFlags";
import { PeriodField } from "~/components/editing/PeriodField";
import { SourcesField } from "~/components/editing/SourcesField";
import { ImagePicker, NEW_IMAGE_LABEL } from "~/components/editing/ImagePicker";
import { TagPicker } from "~/components/editing/TagPicker";
import { SummaryField } from "~/components/forms/Field";
import { FormError } from "~/components/forms/Messages";
import { EditConflict } from "~/components/history/EditConflict";
import { BackIcon } from "~/components/layout/Icons";
import { ListLink } from "~/components/list/ListLink";
import { ArticleVisibility, HiddenNotice } from "~/components/moderation/ArticleVisibility";
import { ReasonField } from "~/components/moderation/ReportQueue";
import { errorSummary } from "~/lib/errors";
import { imageSrcSet, imageUrl } from "~/lib/images";
import { listHref, readListState } from "~/lib/links";
import { editCount } from "~/lib/revisions";
import { canModify, CONTENT_MAX_LENGTH, MESSAGES, TITLE_MAX_LENGTH } from "~/lib/rules";
import { pageTitle } from "~/lib/site";
import { sourcesToTyped } from "~/lib/sources";
import { passageReportHref } from "~/lib/text/passages";
import { formatDate, isoTime } from "~/lib/time/dates";
import { isoPeriod, storedPeriod } from "~/lib/time/periods";
import type { loader as rootLoader } from "~/root";
import { articlePage, changeArticle } from "./posts.$postId.server";

export async function loader({ params, request }: LoaderFunctionArgs) {
  return articlePage(request, params.postId ?? "");
}

/** The loader's headers (a hidden article's) on the document too: Remix sends a route's headers only through this export. */
export const headers: HeadersFunction = ({ loaderHeaders, actionHeaders }) => {
  const headers = new Headers(actionHeaders);
  for (const [name, value] of loaderHeaders) headers.set(name, value);
  return headers;
};

/** Save, delete, keep as a draft, preview, hide or show the article (changeArticle, in posts.$postId.server.ts). */
export async function action({ request, params }: ActionFunctionArgs) {
  return changeArticle(request, params.postId ?? "");
}

export default function PostOverlay() {
  const { post } = useLoaderData<typeof loader>();
  const location = useLocation();
  const editing = new URLSearchParams(location.search).has("edit");
  // A fresh draft each time edit mode opens and after each save.
  return <PostView key={`${post.id}-${post.updatedAt}-${editing}`} editing={editing} />;
}

/** The widest the article layer gets (app.css .overlay-card): a narrower image is shown at its own size. */
const OVERLAY_WIDTH = 880;
/** How wide the article's image is drawn: the layer's width, the whole screen below 920 px. */
const OVERLAY_IMAGE_SIZES = "(min-width: 920px) 880px, 100vw";

/** The article's own address in view and in edit mode, keeping the list's search, tag and limit. */
function modeHrefs(pathname: string, search: string) {
  const params = new URLSearchParams(search);
  params.delete("edit");
  const rest = params.toString();
  return { view: `${pathname}${rest ? `?${rest}` : ""}`, edit: `${pathname}?${rest ? `${rest}&` : ""}edit` };
}

function PostView({ editing: editRequested }: { editing: boolean }) {
  const { post, list, edits, hidden, flags, neighbours, editable } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const user = useRouteLoaderData<typeof rootLoader>("root")?.user;
  const { pathname, search } = useLocation();
  const submit = useSubmit();
  const allowed = canModify(user, post);
  const moderating = allowed && user?.id !== post.authorId;
  const editing = allowed && editRequested;
  const hrefs = modeHrefs(pathname, search);
  // A refused save (without JavaScript, a new page) shows what was typed.
  const typed = result?.values;
  const invalid = new Set(result?.invalid ?? []);
  const [title, setTitle] = useState(typed?.title ?? post.title);
  const [content, setContent] = useState(() => typed?.content ?? editable ?? "");

  const editButtons = (
    <>
      {/* Disabled while the title or the content is empty; the server refuses them anyway. */}
      <button type="submit" form="edit-post" name="intent" value="save" className="button button-light" disabled={!title.trim() || !content.trim()}>
        Save
      </button>
      <button
        type="submit"
        form="edit-post"
        name="intent"
        value="delete"
        className="button button-danger"
        onClick={(event) => {
          // With JavaScript, the browser's confirmation; without, the server asks.
          event.preventDefault();
          // An admin deleting someone else's article gives a reason: the server's confirmation step asks for it.
          if (moderating) submit({ intent: "delete" }, { method: "post", preventScrollReset: true });
          else if (window.confirm(MESSAGES.confirmDelete)) submit({ intent: "delete", confirm: "yes" }, { method: "post", preventScrollReset: true });
        }}
      >
        Delete
      </button>
      <Link to={hrefs.view} className="button button-light" preventScrollReset>
        Cancel
      </Link>
      {/* A draft needs only a title; the article stays as readers see it. */}
      <button type="submit" form="edit-post" name="intent" value="draft" className="button button-light" disabled={!title.trim()}>
        Uložiť koncept
      </button>
      <button type="submit" form="edit-post" name="intent" value="preview" className="button button-light" disabled={!title.trim()}>
        Náhľad
      </button>
    </>
  );

  return (
    <Overlay
      backHref={listHref(list)}
      backTo={post.id}
      labelledBy="post-title"
      actions={
        allowed ? (
          editing ? (
            // While the confirmation asks (without JavaScript), its Delete and Cancel are the only ones.
            !result?.confirmDelete && editButtons
          ) : (
            <Link to={hrefs.edit} className="button button-light" preventScrollReset>
              Edit
            </Link>
          )
        ) : (
          // Other signed-in readers may tell the admins what is wrong with it.
          user && (
            <Link to={`/posts/${post.id}/report`} className="button button-light">
              Nahlásiť
            </Link>
          )
        )
      }
    >
      <ResponsiveImage
        className={post.imageWidth < OVERLAY_WIDTH ? "overlay-image overlay-image-small" : "overlay-image"}
        imageKey={post.image}
        width={post.imageWidth}
        height={post.imageHeight}
        // The title follows at once: named here too, it would be read out twice.
        alt=""
        sizes={OVERLAY_IMAGE_SIZES}
        priority
      />
      <div className="overlay-body">
        {hidden && <HiddenNotice own={hidden.own} />}
        {result?.error && (
          <p className="form-error" id="edit-error" role="alert">
            {result.error}
          </p>
        )}
        {result?.conflict && editing && <EditConflict conflict={result.conflict} />}
        {result?.confirmDelete && <DeleteConfirmation viewHref={hrefs.view} moderating={moderating} refused={result.deleteRefused ?? null} />}
        {editing && result?.preview && <ArticlePreview preview={result.preview} />}
        {editing ? (
          // Multipart: it may bring a new image (without JavaScript, the file itself).
          <Form method="post" id="edit-post" className="edit-form" encType="multipart/form-data" preventScrollReset>
            <h1 id="post-title" className="visually-hidden">
              Upraviť článok
            </h1>
            {/* The revision this form edits: a save based on an older one is refused (edit-conflict.server.ts). */}
            <input type="hidden" name="baseRevision" value={typed?.baseRevision ?? edits + 1} />
            <label htmlFor="edit-title">Nadpis</label>
            <input
              id="edit-title"
              name="title"
              placeholder="Edit title"
              maxLength={TITLE_MAX_LENGTH}
              value={title}
              onChange={(e) => setTitle(e.currentTarget.value)}
              required
              aria-invalid={invalid.has("title") || undefined}
            />
            <PeriodField defaultValue={typed?.period ?? post.period} invalid={invalid.has("period")} errorId="edit-error" />
            {/* The tags come with the form (editsTags): none ticked is refused, as when creating. */}
            <input type="hidden" name="withTags" value="1" />
            <TagPicker initial={typed?.tags ?? post.tags} invalid={invalid.has("tags")} errorId="edit-error" />
            <PassageFlags postId={post.id} flags={flags} />
            <label htmlFor="edit-content">Text článku</label>
            <textarea
              id="edit-content"
              name="content"
              placeholder="Edit content"
              maxLength={CONTENT_MAX_LENGTH}
              value={content}
              onChange={(e) => setContent(e.currentTarget.value)}
              required
              aria-invalid={invalid.has("content") || undefined}
              aria-describedby="edit-content-hint"
            />
            <ContentHint id="edit-content-hint" />
            <SourcesField defaultValue={typed?.sources ?? sourcesToTyped(post.sources)} invalid={invalid.has("sources")} errorId="edit-error" />
            <SummaryField defaultValue={typed?.summary ?? ""} invalid={invalid.has("summary")} errorId="edit-error" />
            {/* Last, so that an oversized image cannot cut off the fields before it. The article keeps its image unless a new one
                is picked; the old one stays in its history. */}
            <ImagePicker pendingImage={typed?.pendingImage ?? ""} invalid={invalid.has("image")} errorId="edit-error" label={NEW_IMAGE_LABEL} />
          </Form>
        ) : (
          <>
            <h1 id="post-title">{post.title}</h1>
            <PostPeriod period={post.period} className="post-period" />
            <p className="post-meta">
              {post.authorName} ·{" "}
              <time dateTime={isoTime(post.createdAt)}>{formatDate(post.createdAt)}</time>
            </p>
            {edits > 0 && (
              <p className="post-meta">
                <Link to={`/posts/${post.id}/history`}>
                  Upravené <time dateTime={isoTime(post.updatedAt)}>{formatDate(post.updatedAt)}</time> · {editCount(edits)}
                </Link>
              </p>
            )}
            {/* A signed-in reader who may not edit it may ask for a source of a passage, as they may report it. */}
            <ArticleBody content={post.content} sources={post.sources} tags={post.tags} flagHref={user && !allowed ? (n) => passageReportHref(post.id, n) : undefined} />
            {neighbours && <PeriodNeighbours {...neighbours} list={list} />}
            <p className="article-subscribe">
              <a href="/odber?od=clanok">Nové články e-mailom</a>
            </p>
            {/* Keyed by the state, so that the other form starts empty once it has changed. */}
            {user?.isAdmin && <ArticleVisibility key={String(hidden !== null)} hidden={hidden !== null} refused={result?.visibility ?? null} />}
          </>
        )}
      </div>
    </Overlay>
  );
}

/** The delete's confirmation step; an admin deleting someone else's article writes the reason its author and the public log read. */
function DeleteConfirmation({ viewHref, moderating, refused }: { viewHref: string; moderating: boolean; refused: { error: string; reason: string } | null }) {
  return (
    <Form method="post" className="confirm-delete stack-form" aria-labelledby="confirm-delete-text" noValidate preventScrollReset>
      <p id="confirm-delete-text">{MESSAGES.confirmDelete}</p>
      <input type="hidden" name="intent" value="delete" />
      <input type="hidden" name="confirm" value="yes" />
      {moderating && (
        <>
          <FormError id="delete-reason-error" text={refused?.error} />
          <ReasonField
            id="delete-reason"
            label="Odôvodnenie (prečíta si ho autor a zobrazí sa vo verejnom zázname moderovania)"
            value={refused?.reason ?? ""}
            invalid={refused !== null}
            required
            errorId="delete-reason-error"
          />
        </>
      )}
      <button type="submit" className="button button-danger">
        Delete
      </button>{" "}
      <Link to={viewHref} className="button button-secondary">
        Cancel
      </Link>
    </Form>
  );
}

/**
 * The article layer over the list, with its bottom bar. With JavaScript it
 * takes focus and closes on Escape; without, it is a page of its own whose
 * back link returns to the list with the same tag and limit, at the card of
 * the article (`backTo`). It is the page's content ("obsah", the skip link's
 * target) while it is open.
 */
function Overlay({
  backHref,
  backTo = null,
  labelledBy,
  actions,
  children,
}: {
  backHref: string;
  backTo?: string | null;
  labelledBy: string;
  actions?: React.ReactNode;
  children: React.ReactNode;
}) {
  const navigate = useNavigate();
  const dialog = useRef<HTMLDivElement>(null);
  useEffect(() => {
    // Without scrolling: the card already starts in view, below its top margin.
    dialog.current?.focus({ preventScroll: true });
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") navigate(backHref, { preventScrollReset: true });
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [backHref, navigate]);

  return (
    <div className="overlay">
      <div id="obsah" className="overlay-card" role="dialog" aria-modal="true" aria-labelledby={labelledBy} tabIndex={-1} ref={dialog}>
        <article>{children}</article>
        <div className="overlay-bar">
          {/* The label is the spec's; text browsers print the hidden words. */}
          <ListLink to={backHref} at={backTo} className="back-button" aria-label="Go back">
            <BackIcon label="Späť na zoznam" />
          </ListLink>
          {actions && <div className="overlay-actions">{actions}</div>}
        </div>
      </div>
    </div>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const { search } = useLocation();
  // An edit sent after the article was deleted, whose text could not be kept as a draft (keptFromGoneArticle).
  const kept = useActionData<typeof action>();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  const { title, text } = notFound
    ? { title: "Článok sa nenašiel", text: "Tento článok neexistuje alebo bol odstránený." }
    : errorSummary(error);
  const { tag, limit } = readListState(new URLSearchParams(search));
  return (
    <Overlay backHref={listHref({ tag, limit })} labelledBy="post-missing">
      <div className="overlay-body">
        <h1 id="post-missing">{title}</h1>
        <p>{text}</p>
        {notFound && kept?.gone && kept.values && (
          // The text as typed, to keep as a new article (the create form's buttons, sent to /create-post).
          <ArticleForm action="/create-post" values={{ ...kept.values, tags: kept.values.tags ?? [], pendingImage: "" }} refused={{ error: kept.error, invalid: [] }} />
        )}
      </div>
    </Overlay>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => {
  if (!data) return [{ title: pageTitle("Článok sa nenašiel") }];
  const { post, publicUrl } = data;
  // Nothing of a hidden article for search engines or link previews.
  if (data.hidden) return [{ title: pageTitle(post.title) }, { name: "robots", content: "noindex" }];
  const url = `${publicUrl}/posts/${post.id}`;
  return [
    { title: pageTitle(post.title) },
    { name: "description", content: post.excerpt },
    { property: "og:type", content: "article" },
    { property: "og:title", content: post.title },
    { property: "og:description", content: post.excerpt },
    { property: "og:url", content: url },
    { property: "og:image", content: `${publicUrl}${imageUrl(post.image, 1200, "jpg")}` },
    { property: "og:image:width", content: String(post.imageWidth) },
    { property: "og:image:height", content: String(post.imageHeight) },
    { property: "og:locale", content: "sk_SK" },
    { property: "article:published_time", content: new Date(post.createdAt).toISOString() },
    { name: "twitter:card", content: "summary_large_image" },
    { tagName: "link", rel: "canonical", href: url },
    // The article's image is the page's largest paint: asked for with the first bytes of the page, not after the stylesheet.
    {
      tagName: "link",
      rel: "preload",
      as: "image",
      type: "image/webp",
      imageSrcSet: imageSrcSet(post.image, "webp"),
      imageSizes: OVERLAY_IMAGE_SIZES,
      fetchPriority: "high",
    },
    { "script:ld+json": articleJsonLd(data) },
  ];
};

/** The article for search engines (schema.org Article), its sources as `citation`, its period as `temporalCoverage` (ISO 8601). */
function articleJsonLd({ post, publicUrl }: { post: ReturnType<typeof useLoaderData<typeof loader>>["post"]; publicUrl: string }) {
  return {
    "@context": "https://schema.org",
    "@type": "Article",
    headline: post.title,
    description: post.excerpt,
    image: `${publicUrl}${imageUrl(post.image, 1200, "jpg")}`,
    datePublished: isoTime(post.createdAt),
    dateModified: isoTime(post.updatedAt),
    author: { "@type": "Person", name: post.authorName },
    inLanguage: "sk",
    mainEntityOfPage: `${publicUrl}/posts/${post.id}`,
    ...(post.period && { temporalCoverage: temporalCoverage(post.period) }),
    ...(post.sources.length > 0 && {
      citation: post.sources.map((source) => (source.url ? { "@type": "CreativeWork", name: source.text, url: source.url } : source.text)),
    }),
  };
}

function temporalCoverage(period: string): string | undefined {
  const read = storedPeriod(period);
  return read ? isoPeriod(read) : undefined;
}
