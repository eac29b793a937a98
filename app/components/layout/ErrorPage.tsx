import { useRouteError } from "@remix-run/react";
import { errorSummary } from "~/lib/errors";
import { pageTitle } from "~/lib/site";

/** A page that failed, as a visitor sees it: what happened in words, never a stack trace outside development. */
export function ErrorPage() {
  const error = useRouteError();
  const { title, text } = errorSummary(error);
  const detail = import.meta.env.DEV && error instanceof Error ? error.stack : undefined;
  return (
    <main id="obsah" className="page error-page">
      <title>{pageTitle(title)}</title>
      <h1>{title}</h1>
      <p>{text}</p>
      {detail && <pre>{detail}</pre>}
      <p>
        <a className="button" href="/posts">
          Prejsť na články
        </a>
      </p>
    </main>
  );
}
