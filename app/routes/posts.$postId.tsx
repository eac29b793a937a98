import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { isRouteErrorResponse, Link, useLoaderData, useLocation, useNavigate, useRouteError } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { BackIcon } from "~/components/Icons";
import { ResponsiveImage } from "~/components/ResponsiveImage";
import { imageUrl } from "~/lib/images";
import { listHref, readListState } from "~/lib/links";
import { PAGE_SIZE } from "~/lib/rules";
import { pageTitle } from "~/lib/site";
import { getPost } from "~/models/posts.server";
import { env } from "~/services/env.server";

export async function loader({ params, request }: LoaderFunctionArgs) {
  const post = getPost(params.postId ?? "");
  if (!post) throw data(null, { status: 404 });
  const { tag, limit } = readListState(new URL(request.url).searchParams);
  return { post, list: { tag, limit }, publicUrl: env.publicUrl };
}

const dateFormat = new Intl.DateTimeFormat("sk-SK", { dateStyle: "long", timeZone: "Europe/Bratislava" });

export default function PostOverlay() {
  const { post, list } = useLoaderData<typeof loader>();
  return (
    <Overlay backHref={listHref(list)} labelledBy="post-title">
      <ResponsiveImage
        className="overlay-image"
        imageKey={post.image}
        width={post.imageWidth}
        height={post.imageHeight}
        alt={post.title}
        sizes="(min-width: 920px) 880px, 100vw"
        priority
      />
      <div className="overlay-body">
        <h1 id="post-title">{post.title}</h1>
        <p className="post-meta">
          {post.authorName} · <time dateTime={new Date(post.createdAt).toISOString()}>{dateFormat.format(post.createdAt)}</time>
        </p>
        {/* Stored content was sanitised when it was written (b, i, em, strong, a, p, br; no attributes). */}
        <div className="post-content" dangerouslySetInnerHTML={{ __html: post.content }} />
        {post.tags.length > 0 && (
          <ul className="post-tags" aria-label="Tagy">
            {post.tags.map((tag) => (
              <li key={tag}>
                <Link to={listHref({ tag, limit: PAGE_SIZE })}>{tag}</Link>
              </li>
            ))}
          </ul>
        )}
      </div>
    </Overlay>
  );
}

/**
 * The article layer over the list, with its bottom bar. With JavaScript it
 * takes focus and closes on Escape; without, it is a page of its own whose
 * back link returns to the list with the same tag and limit.
 */
function Overlay({ backHref, labelledBy, children }: { backHref: string; labelledBy: string; children: React.ReactNode }) {
  const navigate = useNavigate();
  const dialog = useRef<HTMLDivElement>(null);
  useEffect(() => {
    dialog.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") navigate(backHref, { preventScrollReset: true });
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [backHref, navigate]);

  return (
    <div className="overlay">
      <div className="overlay-card" role="dialog" aria-modal="true" aria-labelledby={labelledBy} tabIndex={-1} ref={dialog}>
        <article>{children}</article>
        <div className="overlay-bar">
          <Link to={backHref} preventScrollReset className="back-button" aria-label="Go back">
            <BackIcon />
          </Link>
          {/* The author's and admins' Edit / Save / Delete / Cancel controls go here. */}
        </div>
      </div>
    </div>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const { search } = useLocation();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  if (!notFound) console.error(error);
  const { tag, limit } = readListState(new URLSearchParams(search));
  return (
    <Overlay backHref={listHref({ tag, limit })} labelledBy="post-missing">
      <div className="overlay-body">
        <h1 id="post-missing">{notFound ? "Článok sa nenašiel" : "Unexpected Application Error!"}</h1>
        <p>
          {notFound
            ? "Tento článok neexistuje alebo bol odstránený."
            : "Článok sa nepodarilo načítať. Skúste to, prosím, o chvíľu znova."}
        </p>
      </div>
    </Overlay>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => {
  if (!data) return [{ title: pageTitle("Článok sa nenašiel") }];
  const { post, publicUrl } = data;
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
  ];
};
