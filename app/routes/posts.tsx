import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { useLoaderData, useNavigation, useOutlet } from "@remix-run/react";
import { useFocusCardOnArrival } from "~/components/list/ListLink";
import { ListResults } from "~/components/list/ListResults";
import { PeriodFilter } from "~/components/list/PeriodFilter";
import { SearchForm } from "~/components/list/SearchForm";
import { TagFilter } from "~/components/list/TagFilter";
import { feedHref, listHref, listSearch, readListState } from "~/lib/links";
import { periodFilterKeys, periodFilterLabel, type PeriodFilter as Filter } from "~/lib/time/periods";
import { excerptAround, searchQueries, searchTerms } from "~/lib/search";
import { pageTitle, SITE_DESCRIPTION, SITE_NAME } from "~/lib/site";
import type { PostCard as PostCardData } from "~/lib/types";
import { listPosts } from "~/models/posts.server";
import { searchPosts } from "~/models/search.server";
import { centuriesWithArticles, listPeriod } from "~/services/articles/timeline.server";

/** The query parameters of the filter by time. */
const PERIOD_PARAMS = ["century", "from", "to"];

export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const { tag, limit, q, period, unknownTag } = readListState(url.searchParams);
  // An empty search (the form sent with nothing typed) is the plain list, at its one address.
  if (url.searchParams.has("q") && !q) throw redirect(listHref({ tag, limit, period }));
  // The period form sends its empty fields too (and a range may be unreadable): the list it means, at its one address.
  const periodAsked = PERIOD_PARAMS.some((name) => url.searchParams.has(name));
  // Compared as the page cache compares them (however the values are %-escaped).
  if (periodAsked && `?${url.searchParams}` !== (listSearch({ tag, limit, q, period }) || "?") && !unknownTag) throw redirect(listHref({ tag, limit, q, period }));
  const terms = searchTerms(q);
  let result: { posts: PostCardData[]; next: string | null };
  try {
    result = q ? findPosts(terms, tag, limit, period) : period ? listPeriod(period, tag, limit) : listPosts({ tag, limit });
  } catch (error) {
    // A reader sees an empty list; the cause goes to the server log.
    console.error("Could not load the article list", error);
    result = { posts: [], next: null };
  }
  return { ...result, tag, limit, q, period, terms, unknownTag, centuries: centuriesWithArticles() };
}

/**
 * Search results as cards: the excerpt is the part of the text around the
 * first match. One hit more than shown is the first of the next page, as in
 * listPosts.
 */
function findPosts(terms: string[], tag: string | null, limit: number, period: Filter | null) {
  // Input with no letters or digits finds nothing (and asks the index nothing).
  if (terms.length === 0) return { posts: [], next: null };
  const posts = searchPosts({ ...searchQueries(terms, tag, period && periodFilterKeys(period)), limit: limit + 1 });
  const cards = posts.slice(0, limit).map(({ body, ...card }) => ({ ...card, excerpt: excerptAround(body, terms) }));
  return { posts: cards, next: posts[limit]?.id ?? null };
}

export default function PostsRoute() {
  const { posts, next, tag, limit, q, period, terms, unknownTag, centuries } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const overlay = useOutlet();
  const focusCardOnArrival = useFocusCardOnArrival(posts);
  const list = { tag, limit, q, period };
  // "Loading..." while the next cards (in place of the button) or another list (at the top) are on their way.
  const pending =
    navigation.state === "loading" && navigation.location.pathname === "/posts"
      ? readListState(new URLSearchParams(navigation.location.search))
      : null;
  const loadingMore = pending !== null && pending.tag === tag && pending.q === q && listSearch({ ...pending, limit }) === listSearch(list) && pending.limit > limit;
  const loadingOther = pending !== null && !loadingMore && pending.tag !== tag;

  return (
    <>
      {/* An open article comes first in the page, before the list it covers: a text
          browser or a page without its CSS shows it first, and the skip link
          leads to it (the article layer is "obsah" then). */}
      <main id={overlay ? undefined : "obsah"} className="posts-page">
        {overlay}
        {/* While an article is open over the list, the list is inert: focus and
            screen readers stay in the article. */}
        <div {...(overlay ? { inert: "", "aria-hidden": true } : {})}>
          <div className="posts-head">
            <h1>
              {q ? "Hľadanie" : (tag ?? "Všetky články")}
              {period && <span className="list-period">: {periodFilterLabel(period)}</span>}
            </h1>
            {tag && (
              // The tag's own feed (a plain link: the feed is not a page of the app).
              <a className="list-feed" href={feedHref(tag)} type="application/atom+xml">
                Tento tag v čítačke (Atom)
              </a>
            )}
            <a className="list-subscribe" href={tag ? `/odber?od=stitok&stitok=${encodeURIComponent(tag)}` : "/odber?od=zoznam"}>
              {tag ? "Tento tag e-mailom" : "Nové články e-mailom"}
            </a>
          </div>
          <SearchForm q={q} tag={tag} period={period} />
          <PeriodFilter key={listSearch(list)} period={period} centuries={centuries} tag={tag} q={q}>
            <TagFilter key={tag ?? ""} tag={tag} limit={limit} q={q} period={period} />
          </PeriodFilter>
          {unknownTag && (
            <p className="note" role="status">
              Tag „{unknownTag}“ nepoznáme, preto zobrazujeme všetky články.
            </p>
          )}
          <ListResults
            posts={posts}
            next={next}
            list={list}
            terms={terms}
            covered={Boolean(overlay)}
            loadingOther={loadingOther}
            loadingMore={loadingMore}
            onLoadMore={focusCardOnArrival}
          />
        </div>
      </main>
    </>
  );
}

/**
 * The list's background (app.css .posts-page, the same files and widths) is
 * its largest paint: asked for with the page, not once the stylesheet is in.
 * Here, not in `links`: an open article (its own meta) hides it.
 */
const BACKGROUND_PRELOADS = [
  { media: "(max-width: 599px)", href: "/img/posts-bg-800.webp" },
  { media: "(min-width: 600px)", href: "/img/posts-bg.webp" },
].map((image) => ({ tagName: "link", rel: "preload", as: "image", type: "image/webp", fetchPriority: "high", ...image }));

export const meta: MetaFunction<typeof loader> = ({ data }) => {
  const period = data?.period ? ` (${periodFilterLabel(data.period)})` : "";
  const title = (data?.q ? `Hľadanie: ${data.q}` : data?.tag ? `Články: ${data.tag}` : "Články") + period;
  const tags: ReturnType<MetaFunction>[number][] = [{ title: pageTitle(title) }, { name: "description", content: SITE_DESCRIPTION }, ...BACKGROUND_PRELOADS];
  // A tag's own feed, beside the site's.
  if (data?.tag) tags.push({ tagName: "link", rel: "alternate", type: "application/atom+xml", title: `${SITE_NAME}: ${data.tag}`, href: feedHref(data.tag) });
  // Results pages are endless in number and say nothing the articles do not: crawlers leave them alone.
  return data?.q ? [...tags, { name: "robots", content: "noindex, follow" }] : tags;
};
