import type { LinksFunction, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { pageTitle, SITE_DESCRIPTION, TAGLINE } from "~/lib/site";
import { onThisDay } from "~/services/articles/timeline.server";

/** "Na dnešný deň": articles whose precise date falls on today (Europe/Bratislava); the page cache keys this page by the day. */
export async function loader() {
  return { today: onThisDay().map(({ id, title, period }) => ({ id, title, period })) };
}

// The banner is a CSS background: preload the size this screen will use, so it is not found late.
export const links: LinksFunction = () => [
  {
    rel: "preload",
    as: "image",
    href: "/img/banner.jpg",
    imageSrcSet: "/img/banner-800.jpg 800w, /img/banner.jpg 1600w",
    imageSizes: "100vw",
    fetchPriority: "high",
  },
];

export const meta: MetaFunction = () => [
  { title: pageTitle() },
  { name: "description", content: SITE_DESCRIPTION },
  { property: "og:title", content: pageTitle() },
  { property: "og:description", content: SITE_DESCRIPTION },
];

export default function Landing() {
  const { today } = useLoaderData<typeof loader>();
  return (
    <main id="obsah" className="landing">
      <section className="banner">
        <div className="banner-text">
          <p className="banner-kicker">Dejiny</p>
          <h1>{TAGLINE}</h1>
          <p className="banner-lead">
            {"Príbehy z\u00a0dejín Slovenska, Európy aj celého sveta – overené, zrozumiteľné a\u00a0bez mýtov."}
          </p>
          <Link to="/posts" className="button button-large">
            Prejsť na články
          </Link>
        </div>
        {/* Shown only above 850 px, as a CSS background, so phones never download it. */}
        <div className="banner-side" role="img" aria-label="Stará mapa a stĺp antického chrámu" />
      </section>
      {today.length > 0 && (
        <section className="on-this-day" aria-labelledby="on-this-day">
          <h2 id="on-this-day">Na dnešný deň</h2>
          <ul>
            {today.map((post) => (
              <li key={post.id}>
                <span className="timeline-period">{post.period}:</span> <Link to={`/posts/${post.id}`}>{post.title}</Link>
              </li>
            ))}
          </ul>
          <p>
            <Link to="/timeline">Celá časová os →</Link>
          </p>
        </section>
      )}
    </main>
  );
}
