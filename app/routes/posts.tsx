import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useNavigation, useOutlet } from "@remix-run/react";
import { PostCard } from "~/components/PostCard";
import { TagFilter } from "~/components/TagFilter";
import { listHref, readListState } from "~/lib/links";
import { PAGE_SIZE } from "~/lib/rules";
import { pageTitle, SITE_DESCRIPTION } from "~/lib/site";
import type { PostCard as PostCardData } from "~/lib/types";
import { listPosts } from "~/models/posts.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const { tag, limit, unknownTag } = readListState(new URL(request.url).searchParams);
  let result: { posts: PostCardData[]; hasMore: boolean };
  try {
    result = listPosts({ tag, limit });
  } catch (error) {
    // A reader sees an empty list; the cause goes to the server log.
    console.error("Could not load the article list", error);
    result = { posts: [], hasMore: false };
  }
  return { ...result, tag, limit, unknownTag };
}

export default function PostsRoute() {
  const { posts, hasMore, tag, limit, unknownTag } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const overlay = useOutlet();
  const list = { tag, limit };
  // "Loading..." while the next cards (in place of the button) or another list (at the top) are on their way.
  const pending =
    navigation.state === "loading" && navigation.location.pathname === "/posts"
      ? readListState(new URLSearchParams(navigation.location.search))
      : null;
  const loadingMore = pending !== null && pending.tag === tag && pending.limit > limit;
  const loadingOther = pending !== null && !loadingMore && pending.tag !== tag;

  return (
    <>
      {/* While an article is open over the list, the list is inert: focus and
          screen readers stay in the article. */}
      <main id="obsah" className="posts-page" {...(overlay ? { inert: "", "aria-hidden": true } : {})}>
        <div className="posts-head">
          <h1>{tag ?? "Všetky články"}</h1>
          <TagFilter key={tag ?? ""} tag={tag} limit={limit} />
        </div>
        {unknownTag && (
          <p className="note" role="status">
            Tag „{unknownTag}“ nepoznáme, preto zobrazujeme všetky články.
          </p>
        )}
        {loadingOther && (
          <p className="loading" role="status">
            Loading...
          </p>
        )}
        {posts.length > 0 ? (
          <ul className="card-grid">
            {posts.map((post, index) => (
              <PostCard key={post.id} post={post} index={index} list={list} priority={index === 0 && !overlay} />
            ))}
          </ul>
        ) : (
          <p className="empty">{tag ? "S týmto tagom zatiaľ nie je žiadny článok." : "Zatiaľ tu nie sú žiadne články."}</p>
        )}
        {hasMore &&
          (loadingMore ? (
            <p className="load-more" role="status">
              Loading...
            </p>
          ) : (
            <Link className="button load-more" to={listHref({ tag, limit: limit + PAGE_SIZE })} preventScrollReset>
              Načítaj viac
            </Link>
          ))}
      </main>
      {overlay}
    </>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => {
  const title = data?.tag ? `Články: ${data.tag}` : "Články";
  return [{ title: pageTitle(title) }, { name: "description", content: SITE_DESCRIPTION }];
};
