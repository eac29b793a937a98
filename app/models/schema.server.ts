import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

export const users = sqliteTable("users", {
  id: text("id").primaryKey(),
  displayName: text("display_name").notNull(),
  /** Stored lower-cased, so the unique constraint compares case-insensitively. */
  email: text("email").notNull().unique(),
  /** NULL for accounts that cannot sign in (the demo author). */
  passwordHash: text("password_hash"),
  isAdmin: integer("is_admin", { mode: "boolean" }).notNull().default(false),
  /** Set when an admin disables the account; its sessions stop working. */
  disabledAt: integer("disabled_at"),
  createdAt: integer("created_at").notNull(),
});

export const posts = sqliteTable(
  "posts",
  {
    id: text("id").primaryKey(),
    title: text("title").notNull(),
    /** Sanitised HTML (b, i, em, strong, a, p, br; no attributes); newlines are <br/>. */
    content: text("content").notNull(),
    /** Plain text cut from the sanitised content on write, for the cards. */
    excerpt: text("excerpt").notNull(),
    /** Storage key of the image; its variants are files named after it. */
    image: text("image").notNull(),
    imageWidth: integer("image_width").notNull(),
    imageHeight: integer("image_height").notNull(),
    authorId: text("author_id")
      .notNull()
      .references(() => users.id),
    /** Milliseconds since the epoch; the list's ordering key. */
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [index("posts_created_at_idx").on(sql`${t.createdAt} DESC`, t.id)],
);

export const postTags = sqliteTable(
  "post_tags",
  {
    postId: text("post_id")
      .notNull()
      .references(() => posts.id, { onDelete: "cascade" }),
    tag: text("tag").notNull(),
    /** Copy of posts.created_at, so "newest posts with tag X" is one index range. */
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.postId, t.tag] }),
    index("post_tags_tag_created_at_idx").on(t.tag, sql`${t.createdAt} DESC`, t.postId),
  ],
);

/** Facts about this installation, e.g. when it was first started. */
export const appMeta = sqliteTable("app_meta", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
});
