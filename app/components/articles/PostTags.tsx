import { Link } from "@remix-run/react";
import { listHref } from "~/lib/links";
import { PAGE_SIZE } from "~/lib/rules";

/** An article's tags, each a link to the list of articles with it. */
export function PostTags({ tags }: { tags: string[] }) {
  if (tags.length === 0) return null;
  return (
    <ul className="post-tags" aria-label="Tagy">
      {tags.map((tag) => (
        <li key={tag}>
          <Link to={listHref({ tag, limit: PAGE_SIZE })}>{tag}</Link>
        </li>
      ))}
    </ul>
  );
}
