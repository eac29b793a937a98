import { describe, expect, it } from "vitest";
import { authorQueries, imageQueries, readerQueries } from "~/models/posts.server";
import { revisionQueries } from "~/models/revisions.server";
import { draftQueries } from "~/models/drafts.server";
import { timelineQueries } from "~/models/timeline.server";
import { sqlite } from "~/db/connection.server";

/** SQLite's plan for a query, one line per step. */
function plan(query: { toSQL(): { sql: string; params: unknown[] } }, values: Record<string, unknown>): string[] {
  const { sql } = query.toSQL();
  // Drizzle writes placeholders as `?` in order; bind plausible values.
  const params = Object.values(values);
  return (sqlite.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((row) => row.detail);
}

function expectIndexedWithoutSort(steps: string[]) {
  for (const step of steps) {
    // A full table scan ("SCAN posts" without an index) or a sort would grow with the table.
    expect(step, steps.join(" | ")).not.toMatch(/^SCAN \w+$|^SCAN \w+ \(~|USE TEMP B-TREE/);
  }
}

describe("the reader's queries use indexes that match them", () => {
  it("newest posts: walks posts_created_at_idx, no sort", () => {
    const steps = plan(readerQueries.newestPosts, { limit: 10 });
    expect(steps.join(" ")).toContain("posts_created_at_idx");
    expectIndexedWithoutSort(steps);
  });

  it("newest posts with a tag: walks post_tags_tag_created_at_idx, looks posts up by key, no sort", () => {
    const steps = plan(readerQueries.newestPostsWithTag, { tag: "Morava", limit: 10 });
    expect(steps.join(" ")).toContain("post_tags_tag_created_at_idx");
    expect(steps.join(" ")).toMatch(/SEARCH posts USING INDEX sqlite_autoindex_posts_1 \(id=\?\)/);
    expectIndexedWithoutSort(steps);
  });

  it("one post and its tags: primary keys only (the tags' sort is of five rows at most)", () => {
    expectIndexedWithoutSort(plan(readerQueries.postById, { id: "x" }));
    const steps = plan(readerQueries.tagsOfPost, { id: "x" });
    expect(steps.join(" ")).toMatch(/SEARCH post_tags USING (COVERING )?INDEX sqlite_autoindex_post_tags_1 \(post_id=\?\)/);
  });
});

describe("the account pages' queries use indexes that match them", () => {
  it("an author's articles, newest first: walks posts_author_created_at_idx, no sort", () => {
    const steps = plan(authorQueries.postsOfAuthor, { authorId: "x", limit: 20, offset: 0 });
    expect(steps.join(" ")).toContain("posts_author_created_at_idx");
    expectIndexedWithoutSort(steps);
  });
});

describe("the image server's question uses indexes", () => {
  it("is a key an article's (posts_image_idx) or a pending upload's (its primary key)", () => {
    expect(plan(imageQueries.postWithImage, { key: "x", limit: 1 }).join(" ")).toMatch(/SEARCH posts USING (COVERING )?INDEX posts_image_idx \(image=\?\)/);
    expect(plan(imageQueries.pendingImage, { key: "x" }).join(" ")).toMatch(/SEARCH pending_images USING (COVERING )?INDEX sqlite_autoindex_pending_images_1 \(key=\?\)/);
  });

  it("or a draft's (drafts_image_idx)", () => {
    expect(plan(imageQueries.draftWithImage, { key: "x", limit: 1 }).join(" ")).toMatch(/SEARCH drafts USING (COVERING )?INDEX drafts_image_idx \(image_key=\?\)/);
  });
});

describe("an author's drafts use the index that matches them", () => {
  it("last saved first: walks drafts_author_updated_idx, no sort", () => {
    const steps = plan(draftQueries.draftsOfAuthor, { authorId: "x", limit: 50 });
    expect(steps.join(" ")).toContain("drafts_author_updated_idx");
    expectIndexedWithoutSort(steps);
  });
});

describe("an article's history uses indexes that match it", () => {
  const explain = (sql: string, values: Record<string, unknown>) =>
    (sqlite.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(values) as { detail: string }[]).map((row) => row.detail);

  it("a page of revisions, newest first: walks revisions_post_number_idx, no sort", () => {
    const steps = explain(revisionQueries.page, { postId: "x", limit: 50, offset: 0 });
    expect(steps.join(" ")).toContain("revisions_post_number_idx");
    expectIndexedWithoutSort(steps);
  });

  it("one revision of one article: its primary key, the editor's by key", () => {
    const steps = explain(revisionQueries.one, { id: "r", postId: "x" });
    expect(steps.join(" ")).toMatch(/SEARCH r USING INDEX sqlite_autoindex_revisions_1 \(id=\?\)/);
    expectIndexedWithoutSort(steps);
  });

  it("recording a revision: the article, its tags, its editor and its last number by key (the tags' sort is of five rows at most)", () => {
    const steps = explain(revisionQueries.insert, { id: "r", postId: "x", editorId: "u", summary: "" });
    expect(steps.join(" ")).toContain("revisions_post_number_idx");
    expectIndexedWithoutSort(steps.filter((step) => step !== "USE TEMP B-TREE FOR json_group_array(ORDER BY)"));
  });
});

describe("the timeline's queries walk posts_period_idx or posts_period_day_idx in order", () => {
  const explain = (sql: string, values: Record<string, unknown>) =>
    (sqlite.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(values) as { detail: string }[]).map((row) => row.detail);

  it.each([
    ["a page of the timeline", timelineQueries.entries, { start: 0, id: "", limit: 100 }, "posts_period_idx"],
    ["the first article of a century", timelineQueries.firstFrom, { start: 0 }, "posts_period_idx"],
    ["a century's cards", timelineQueries.cardsBetween, { first: 0, last: 1_001_231, limit: 10 }, "posts_period_idx"],
    ["a century's cards with a tag", timelineQueries.cardsBetweenWithTag, { first: 0, last: 1_001_231, tag: "Morava", limit: 10 }, "posts_period_idx"],
    ["the article before", timelineQueries.before, { start: 0, id: "x" }, "posts_period_idx"],
    ["the article after", timelineQueries.after, { start: 0, id: "x" }, "posts_period_idx"],
    ["on this day", timelineQueries.onDay, { day: 829, limit: 10 }, "posts_period_day_idx"],
  ])("%s", (_, sql, values, index) => {
    const steps = explain(sql, values);
    expect(steps.join(" | ")).toContain(index);
    expectIndexedWithoutSort(steps);
  });

  it("a century's cards with a tag look the tag up by the tags' primary key", () => {
    const steps = explain(timelineQueries.cardsBetweenWithTag, { first: 0, last: 1_001_231, tag: "Morava", limit: 10 });
    expect(steps.join(" | ")).toMatch(/SEARCH t (EXISTS )?USING (COVERING )?INDEX sqlite_autoindex_post_tags_1 \(post_id=\? AND tag=\?\)/);
  });
});
