import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import type { Source } from "~/lib/sources";

export const users = sqliteTable(
  "users",
  {
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
    /** Name and e-mail as the admin's search compares them (~/lib/search: lower case, no diacritics), kept by the users model. */
    searchText: text("search_text").notNull().default(""),
    /** When the account last used a session (updated every few minutes at most, see session.server.ts). */
    lastSeenAt: integer("last_seen_at"),
    /** What the name looks like, case folded first and confusables second (~/lib/name-skeleton.server), kept by the users model: no two accounts may look alike. */
    nameSkeleton: text("name_skeleton").notNull().default(""),
    /** The same, confusables first (capitals alike across scripts meet). */
    nameSkeletonCased: text("name_skeleton_cased").notNull().default(""),
    /** When the owner followed the link mailed to the address; until then the site mails it only that link and reset links. */
    emailConfirmedAt: integer("email_confirmed_at"),
  },
  // Whether a name is taken is a lookup in each index.
  (t) => [index("users_name_skeleton_idx").on(t.nameSkeleton), index("users_name_skeleton_cased_idx").on(t.nameSkeletonCased)],
);

export const posts = sqliteTable(
  "posts",
  {
    id: text("id").primaryKey(),
    title: text("title").notNull(),
    /** Sanitised HTML (b, i, em, strong, a, p, br; no attributes but a link's http(s) href and rel); newlines are <br/>. */
    content: text("content").notNull(),
    /** The text as its author wrote it (Markdown, ~/services/articles/content.server), which `content` is made from; NULL for an article last saved before Markdown (its editable text is made from `content`). */
    contentSource: text("content_source"),
    /** Where the article's claims come from, in the order the text cites them ([1], [2], …); see ~/lib/sources. */
    sources: text("sources", { mode: "json" }).$type<Source[]>().notNull().default(sql`'[]'`),
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
    /** Set while moderators hide the article: only its author and admins see it (hidden-posts in ~/services/moderation/moderation-decisions.server). */
    hiddenAt: integer("hidden_at"),
    /** The period the article treats, as the author typed it (tidied, ~/lib/time/periods); empty when none. */
    period: text("period").notNull().default(""),
    /** Its first moment as one sortable number (astronomical year × 10,000 + month × 100 + day; ~/lib/time/periods momentKey); NULL when none. */
    periodStart: integer("period_start"),
    /** Month × 100 + day of a period that starts on a precise day ("Na dnešný deň"); NULL otherwise. */
    periodDay: integer("period_day"),
  },
  (t) => [
    index("posts_created_at_idx").on(sql`${t.createdAt} DESC`, t.id),
    // An author's own articles, newest first, and their count (the account and admin pages).
    index("posts_author_created_at_idx").on(t.authorId, sql`${t.createdAt} DESC`),
    // Whether an image's key is an article's, asked by /images/ before it reaches the image store.
    index("posts_image_idx").on(t.image),
    // The timeline, a century's articles and an article's neighbours in time: one range of this index (~/models/timeline.server).
    index("posts_period_idx").on(t.periodStart, t.id).where(sql`${t.periodStart} IS NOT NULL`),
    // "Na dnešný deň": the articles dated on a day of the year.
    index("posts_period_day_idx").on(t.periodDay, t.periodStart, t.id).where(sql`${t.periodDay} IS NOT NULL`),
  ],
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

/**
 * How many times an article was read on each day (a day of the site's time
 * zone, Europe/Bratislava, as days since 1970-01-01: `siteDay` in
 * ~/lib/time/dates). A count and nothing else: no reader, address or
 * cookie. Written in batches (app/services/articles/reads.server.ts) and
 * kept 31 days.
 */
export const postReads = sqliteTable(
  "post_reads",
  {
    postId: text("post_id")
      .notNull()
      .references(() => posts.id, { onDelete: "cascade" }),
    day: integer("day").notNull(),
    count: integer("count").notNull(),
  },
  // By day: the daily pruning of the oldest days is one range.
  (t) => [primaryKey({ columns: [t.postId, t.day] }), index("post_reads_day_idx").on(t.day)],
);

/**
 * Every saved state of an article, 1, 2, … per article: written by the posts
 * model in the same transaction as the article's own row (recordRevision in
 * ~/models/revisions.server), so a revision's insert always comes with a
 * write to `posts`, whose triggers give the page cache its new stamp.
 * Removed with the article; the editor's name is kept as it was, so the
 * history outlives the account.
 */
export const revisions = sqliteTable(
  "revisions",
  {
    id: text("id").primaryKey(),
    postId: text("post_id")
      .notNull()
      .references(() => posts.id, { onDelete: "cascade" }),
    number: integer("number").notNull(),
    title: text("title").notNull(),
    content: text("content").notNull(),
    /** The text as written (Markdown), as posts.content_source; NULL for a revision saved before Markdown. */
    contentSource: text("content_source"),
    sources: text("sources", { mode: "json" }).$type<Source[]>().notNull().default(sql`'[]'`),
    /** The tags in the author's order, a JSON array. */
    tags: text("tags", { mode: "json" }).$type<string[]>().notNull().default(sql`'[]'`),
    /** The image's key and size: an old revision keeps its image (and its files) while any revision names it. */
    image: text("image").notNull(),
    imageWidth: integer("image_width").notNull().default(0),
    imageHeight: integer("image_height").notNull().default(0),
    editorId: text("editor_id").references(() => users.id, { onDelete: "set null" }),
    /** The editor's display name when the revision was saved. */
    editorName: text("editor_name").notNull(),
    createdAt: integer("created_at").notNull(),
    /** "Čo ste zmenili?": one line, at most 200 characters, may be empty. */
    summary: text("summary").notNull().default(""),
    /** Characters of the title and the stored content: the history's +/− is the difference of two. */
    size: integer("size").notNull(),
    /** The article's period as it was (~/lib/time/periods); empty when none. */
    period: text("period").notNull().default(""),
    /** Set while moderation hides the revision's title, text, sources and period from everyone but admins (~/services/moderation/revision-deletion.server). */
    textHiddenAt: integer("text_hidden_at"),
    /** Set while moderation hides its "Čo ste zmenili?". */
    summaryHiddenAt: integer("summary_hidden_at"),
    /** Set while moderation hides who saved it. */
    editorHiddenAt: integer("editor_hidden_at"),
    /** Set when its hidden parts were erased for good: what was hidden is no longer stored. */
    erasedAt: integer("erased_at"),
  },
  (t) => [
    // An article's history, newest first, is one range of this index.
    uniqueIndex("revisions_post_number_idx").on(t.postId, t.number),
    // Deleting an account sets its editor_id to NULL: without an index, every deletion would read the whole table.
    index("revisions_editor_idx").on(t.editorId),
    // Whether an old revision still names an image (/images/ and the removal of replaced images ask it).
    index("revisions_image_idx").on(t.image),
  ],
);

/**
 * Unfinished work, seen only by its author (and admins): a new article not
 * yet published, or a pending edit of a published one (`post_id`). A table
 * of its own, never a state of `posts`: every reader's page, list, search,
 * feed and the page cache read `posts` only, so no draft can reach them.
 * The fields are kept as typed (sanitised only for a preview or when
 * published). The image's files belong to the draft from the save that took
 * it out of `pending_images`, so the day-old clean-up never removes them.
 */
export const drafts = sqliteTable(
  "drafts",
  {
    id: text("id").primaryKey(),
    authorId: text("author_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** Set for a pending edit of this article. Deleting the article leaves the draft, as a new article's: its author's text is never removed unasked. */
    postId: text("post_id").references(() => posts.id, { onDelete: "set null" }),
    /** The article's revision number the pending edit started from. */
    baseRevision: integer("base_revision"),
    title: text("title").notNull(),
    content: text("content").notNull().default(""),
    /** One source per line, as typed (~/lib/sources). */
    sources: text("sources").notNull().default(""),
    tags: text("tags", { mode: "json" }).$type<string[]>().notNull().default(sql`'[]'`),
    /** A pending edit's "Čo ste zmenili?". */
    summary: text("summary").notNull().default(""),
    /** The period as typed (~/lib/time/periods), checked only when published. */
    period: text("period").notNull().default(""),
    imageKey: text("image_key"),
    imageWidth: integer("image_width"),
    imageHeight: integer("image_height"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [
    // An author's drafts, newest first (the account page), and their count (the per-account cap).
    index("drafts_author_updated_idx").on(t.authorId, sql`${t.updatedAt} DESC`),
    // Whether an image's key is a draft's, asked by /images/ (one lookup).
    index("drafts_image_idx").on(t.imageKey),
    // Deleting an article removes its pending edits: without an index, each deletion would read the whole table.
    index("drafts_post_idx").on(t.postId),
  ],
);

/**
 * What the reader's search looks in: one row per post, with its own integer
 * key for the full-text index (migration 0006 adds `post_search`, an FTS5
 * index over this table, and the triggers that keep it in step). A table of
 * its own, because an FTS index points at rows by an integer key, and the
 * implicit rowid of `posts` may change on VACUUM. Written with the post by
 * the posts model; removed with it by the foreign key.
 */
export const postTexts = sqliteTable("post_texts", {
  id: integer("id").primaryKey(),
  postId: text("post_id")
    .notNull()
    .unique()
    .references(() => posts.id, { onDelete: "cascade" }),
  title: text("title").notNull(),
  /** Plain text of the content (~/lib/text/content-text). */
  body: text("body").notNull(),
  /** One search token per tag (~/lib/search tagToken), so that the index can combine a search with a tag. */
  tags: text("tags").notNull(),
});

/** Facts about this installation, e.g. when it was first started. */
export const appMeta = sqliteTable("app_meta", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
});

export const sessions = sqliteTable(
  "sessions",
  {
    /** SHA-256 of the random id in the cookie: a copy of the database holds no usable session. */
    idHash: text("id_hash").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** "Zapamätať si ma": a cookie that outlives the browser, and a longer idle time. */
    remember: integer("remember", { mode: "boolean" }).notNull(),
    createdAt: integer("created_at").notNull(),
    /** Slides forward with use (see session.server.ts), never past createdAt + the absolute lifetime. */
    expiresAt: integer("expires_at").notNull(),
    /** The browser's User-Agent at sign-in (cut to 300 characters), to name the device in the account's list of sessions. */
    userAgent: text("user_agent").notNull().default(""),
    lastSeenAt: integer("last_seen_at"),
  },
  (t) => [index("sessions_user_idx").on(t.userId), index("sessions_expires_idx").on(t.expiresAt)],
);

export const passwordResetTokens = sqliteTable(
  "password_reset_tokens",
  {
    /** SHA-256 of the token sent by e-mail; the token itself is never stored. */
    tokenHash: text("token_hash").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    expiresAt: integer("expires_at").notNull(),
    usedAt: integer("used_at"),
  },
  (t) => [index("password_reset_tokens_user_idx").on(t.userId)],
);

/** Links that confirm an account's e-mail address: as reset tokens, only a hash is kept. */
export const emailConfirmationTokens = sqliteTable(
  "email_confirmation_tokens",
  {
    /** SHA-256 of the token sent by e-mail. */
    tokenHash: text("token_hash").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: integer("created_at").notNull(),
    expiresAt: integer("expires_at").notNull(),
    usedAt: integer("used_at"),
  },
  (t) => [index("email_confirmation_tokens_user_idx").on(t.userId, t.createdAt)],
);

/**
 * Browsers that have signed in to an account (or reset its password): each
 * keeps a sign-in budget of its own, so failures sent from elsewhere never
 * lock the owner out (OWASP, "device cookies"). Bounded per account and
 * forgotten a year after the browser last signed in (trusted-devices.server.ts).
 */
export const trustedDevices = sqliteTable(
  "trusted_devices",
  {
    /** SHA-256 of the random token in the device cookie: a copy of the database holds no usable cookie. */
    idHash: text("id_hash").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** A browser gets a new token at each sign-in: this is its last sign-in (or reset) to the account. */
    issuedAt: integer("issued_at").notNull(),
  },
  (t) => [index("trusted_devices_user_idx").on(t.userId, t.issuedAt), index("trusted_devices_issued_idx").on(t.issuedAt)],
);

/** Fixed-window attempt counters for throttling, kept across restarts. */
export const rateLimits = sqliteTable("rate_limits", {
  key: text("key").primaryKey(),
  windowStart: integer("window_start").notNull(),
  count: integer("count").notNull(),
});

/**
 * Images uploaded for an article not yet published (the form was refused, or
 * JavaScript sent the image ahead of the form). Removed when used, or after a day.
 */
export const pendingImages = sqliteTable(
  "pending_images",
  {
    key: text("key").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    width: integer("width").notNull(),
    height: integer("height").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("pending_images_created_idx").on(t.createdAt)],
);

/**
 * Image keys whose files may exist with nothing referring to them: written
 * here before an upload's files are, and before an image's files are
 * deleted. The start-up clean-up removes the files of those no article or
 * pending upload uses. Files of keys never named here (another site's in a
 * shared bucket, those of a database restored from elsewhere) are never
 * touched, and no start needs to list the image store.
 */
export const looseImages = sqliteTable("loose_images", {
  key: text("key").primaryKey(),
  since: integer("since").notNull(),
});

/**
 * One row whose stamp the triggers of migration 0004 set to a new random
 * value whenever anything a page shows changes (posts, their tags, the
 * authors' names), whoever writes it. The page cache compares stamps
 * instead of being told by each writer (app/db/changes.server.ts).
 */
export const pageData = sqliteTable("page_data", {
  id: integer("id").primaryKey(),
  stamp: integer("stamp").notNull(),
  /** When anything a page shows last changed (ms); the triggers only move it forward, so feeds' Last-Modified never goes back. */
  changedAt: integer("changed_at").notNull().default(0),
});

/**
 * A reader's report of an article, or of one passage of it ("Zdroj?"): open
 * until an admin decides (a row of moderation_decisions), or closed when the
 * article goes away otherwise. It outlives the article (post_id becomes NULL;
 * the title stays), so the reporter can still read what came of it.
 * Reasons' labels are in ~/lib/moderation/moderation.
 */
export const reports = sqliteTable(
  "reports",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    postId: text("post_id").references(() => posts.id, { onDelete: "set null" }),
    /** The article's title when it was reported. */
    postTitle: text("post_title").notNull().default(""),
    reporterId: text("reporter_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    reason: text("reason").notNull(),
    note: text("note").notNull().default(""),
    /** For a passage's "Zdroj?": its number (1, 2, … in the article as it was) and its text then. */
    paragraph: integer("paragraph"),
    passage: text("passage").notNull().default(""),
    createdAt: integer("created_at").notNull(),
    /** open, upheld, dismissed, or closed (the article was deleted or hidden by another decision). */
    state: text("state").notNull().default("open"),
    decisionId: integer("decision_id").references(() => moderationDecisions.id),
  },
  (t) => [
    // One open report per reader and article (and per passage).
    uniqueIndex("reports_open_idx")
      .on(t.postId, t.reporterId, sql`coalesce(${t.paragraph}, 0)`)
      .where(sql`${t.state} = 'open'`),
    // The admins' queue, oldest first, and a reader's "Moje hlásenia", newest first.
    index("reports_state_idx").on(t.state, t.createdAt),
    index("reports_reporter_idx").on(t.reporterId, sql`${t.createdAt} DESC`),
    // Resolving an article's reports together, and the foreign key's SET NULL when it is deleted.
    index("reports_post_idx").on(t.postId),
  ],
);

/**
 * A moderator's decision, what the public log (/moderation) shows, and for an
 * author the statement of reasons they may contest. Ids and names are copies
 * (no foreign keys): a decision outlives the article and the accounts.
 */
export const moderationDecisions = sqliteTable(
  "moderation_decisions",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    createdAt: integer("created_at").notNull(),
    /** dismiss, dismissAbusive, requestFix, hide, delete, disable, restore (DECISION_ACTIONS in ~/lib/moderation/moderation). */
    action: text("action").notNull(),
    postId: text("post_id"),
    postTitle: text("post_title"),
    /** Whom the decision restricts (the author), when it restricts anyone. */
    userId: text("user_id"),
    /** "reports" (with the reasons in groundDetail) or "initiative" (the moderators' own). */
    ground: text("ground").notNull(),
    groundDetail: text("ground_detail").notNull().default(""),
    /** The published reason, read by the reporters, the author and the public log. */
    reason: text("reason").notNull(),
    /** The deciding admin (NULL for the command line); never shown to readers. */
    deciderId: text("decider_id"),
    /** For a decision on old revisions (hideRevision, eraseRevision, showRevision): which, and which parts, as JSON ({ revisions: [{ id, number }], parts }). */
    revisions: text("revisions"),
  },
  (t) => [index("moderation_decisions_user_idx").on(t.userId, sql`${t.createdAt} DESC`), index("moderation_decisions_created_idx").on(t.createdAt)],
);

/** An author's appeal of a decision: one per decision (unique), decided by another admin. */
export const appeals = sqliteTable(
  "appeals",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    decisionId: integer("decision_id")
      .notNull()
      .unique()
      .references(() => moderationDecisions.id),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    text: text("text").notNull(),
    createdAt: integer("created_at").notNull(),
    /** open, granted or rejected. */
    state: text("state").notNull().default("open"),
    decidedAt: integer("decided_at"),
    deciderId: text("decider_id"),
    /** The reason the author reads. */
    reason: text("reason").notNull().default(""),
  },
  (t) => [index("appeals_state_idx").on(t.state, t.createdAt)],
);

/**
 * What admins did (on the site or with `npm run admin`), and what they changed
 * of other people's articles. Names and titles are copied as they were at the
 * time, with no foreign keys, so an entry outlives the account or the
 * article it names. Triggers of migration 0005 refuse to change or delete an entry.
 */
export const moderationLog = sqliteTable("moderation_log", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  createdAt: integer("created_at").notNull(),
  /** NULL for the command line. */
  actorId: text("actor_id"),
  actorName: text("actor_name").notNull(),
  action: text("action").notNull(),
  targetUserId: text("target_user_id"),
  targetUserName: text("target_user_name"),
  targetPostId: text("target_post_id"),
  targetPostTitle: text("target_post_title"),
  /** E.g. how many articles were removed, or the reason of a report. */
  detail: text("detail").notNull().default(""),
});

/**
 * Every mail the site sends, kept until it is delivered (mail-outbox.server.ts):
 * retried with backoff across restarts, never after `sendBefore` (a reset link
 * past its validity is not sent stale). Once delivered or given up, its
 * subject and text are emptied (a reset link is a key to an account) and
 * the row is kept a week for /admin, then removed.
 */
export const mailOutbox = sqliteTable(
  "mail_outbox",
  {
    /** Random; also the Idempotency-Key Resend is given, so a retry after a lost answer is not a second mail. */
    id: text("id").primaryKey(),
    recipient: text("recipient").notNull(),
    /** What the mail is, for the outbox's room: account (a confirmation or reset link), decision (moderation's, never dropped) or receipt (gives way first). */
    kind: text("kind").notNull().default("receipt"),
    subject: text("subject").notNull(),
    text: text("text").notNull(),
    html: text("html").notNull(),
    createdAt: integer("created_at").notNull(),
    sendBefore: integer("send_before").notNull(),
    nextAttemptAt: integer("next_attempt_at").notNull(),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    sentAt: integer("sent_at"),
    gaveUpAt: integer("gave_up_at"),
    /** A subscription's mail (kind `newsletter`): which mailing, to which subscriber; its subject and text are made when it is sent, so a hidden article or an ended subscription is not mailed. */
    mailingId: text("mailing_id"),
    subscriberId: text("subscriber_id"),
    /** The batch a subscription's mail was first handed over in: a retry sends the same batch, under the same Idempotency-Key. */
    batchId: text("batch_id"),
  },
  (t) => [
    // The mails waiting, by when they are next due: the sender's only query on its timer.
    index("mail_outbox_due_idx").on(t.nextAttemptAt).where(sql`${t.sentAt} IS NULL AND ${t.gaveUpAt} IS NULL`),
    index("mail_outbox_batch_idx").on(t.batchId).where(sql`${t.batchId} IS NOT NULL`),
    index("mail_outbox_recipient_idx").on(t.recipient, t.createdAt),
    index("mail_outbox_created_idx").on(t.createdAt),
  ],
);

/**
 * "Aktuálne konflikty" (/conflicts): entries admins keep (~/services/articles/conflicts.server),
 * each leading to its historical background — the readable articles with one
 * of its tags, or whose period starts within its period, or both, in
 * historical order. Triggers of migration 0019 give the page cache its new
 * stamp when an entry changes, as posts' do.
 */
export const conflicts = sqliteTable("conflicts", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  name: text("name").notNull(),
  /** A short Slovak summary, plain text (new lines kept). */
  summary: text("summary").notNull(),
  /** Up to five of the 30 tags, a JSON array. */
  tags: text("tags", { mode: "json" }).$type<string[]>().notNull().default(sql`'[]'`),
  /** A period as an article's is typed (~/lib/time/periods); empty for none. */
  period: text("period").notNull().default(""),
  /** The sort keys (~/lib/time/periods momentKey) the period covers, first and last; NULL without a period. */
  periodFirst: integer("period_first"),
  periodLast: integer("period_last"),
  /** The order on the page (smaller first), then the id. */
  position: integer("position").notNull().default(0),
  updatedAt: integer("updated_at").notNull(),
});

/**
 * Readers who follow the site by e-mail, no account needed
 * (~/services/subscriptions): pending until the confirmation link is
 * followed, then confirmed. No topics (subscription_tags,
 * subscription_centuries) means every new article. Consent is kept: the form
 * it came from and when, and when the owner confirmed it.
 */
export const subscribers = sqliteTable(
  "subscribers",
  {
    /** Random; the manage and unsubscribe links are signed over it, so a new subscription of the same address gets new links. */
    id: text("id").primaryKey(),
    /** Normalised as accounts' (lower case, NFC, trimmed). */
    email: text("email").notNull().unique(),
    status: text("status", { enum: ["pending", "confirmed"] }).notNull(),
    frequency: text("frequency", { enum: ["instant", "weekly"] }).notNull(),
    createdAt: integer("created_at").notNull(),
    confirmedAt: integer("confirmed_at"),
    /** Which form the consent came from (SUBSCRIPTION_SOURCES) and when it was sent. */
    consentSource: text("consent_source").notNull(),
    consentAt: integer("consent_at").notNull(),
    /** The pending confirmation link's SHA-256 and end; null once confirmed. */
    confirmTokenHash: text("confirm_token_hash"),
    confirmExpiresAt: integer("confirm_expires_at"),
  },
  (t) => [
    uniqueIndex("subscribers_confirm_token_idx").on(t.confirmTokenHash),
    // A mailing's audience in id order, a chunk at a time: one range of this index, no sort (~/models/subscription-mailings.server).
    index("subscribers_audience_idx").on(t.status, t.frequency, t.id),
  ],
);

/** A subscriber's chosen tags (at most the 30 of ~/lib/tags). */
export const subscriptionTags = sqliteTable(
  "subscription_tags",
  {
    subscriberId: text("subscriber_id")
      .notNull()
      .references(() => subscribers.id, { onDelete: "cascade" }),
    tag: text("tag").notNull(),
  },
  (t) => [primaryKey({ columns: [t.subscriberId, t.tag] })],
);

/** A subscriber's chosen centuries (SUBSCRIPTION_CENTURIES). */
export const subscriptionCenturies = sqliteTable(
  "subscription_centuries",
  {
    subscriberId: text("subscriber_id")
      .notNull()
      .references(() => subscribers.id, { onDelete: "cascade" }),
    century: integer("century").notNull(),
  },
  (t) => [primaryKey({ columns: [t.subscriberId, t.century] })],
);

/**
 * Addresses that unsubscribed, kept only as a digest
 * (docs/decisions/subscription-suppression-hashed.md): nothing but a new
 * confirmed consent mails them again.
 */
export const subscriptionSuppressions = sqliteTable("subscription_suppressions", {
  emailHash: text("email_hash").primaryKey(),
  createdAt: integer("created_at").notNull(),
});

/**
 * What the site mails its subscribers (~/services/subscriptions/mailings):
 * a new article, once (its post id is unique here), or a weekly digest of
 * the articles announced since the one before. Its mails are queued in
 * chunks from `queuedThrough`, the last subscriber id queued, so a restart
 * goes on where it stopped; the counts stay after the outbox forgets the mails.
 */
export const subscriptionMailings = sqliteTable(
  "subscription_mailings",
  {
    id: text("id").primaryKey(),
    kind: text("kind", { enum: ["article", "digest"] }).notNull(),
    /** The article announced; null for a digest. */
    postId: text("post_id"),
    /** A digest: the articles announced after this moment (and up to createdAt). */
    periodStart: integer("period_start"),
    createdAt: integer("created_at").notNull(),
    queuedThrough: text("queued_through"),
    /** When every recipient's mail was queued; null while queueing. */
    queuedAt: integer("queued_at"),
    recipients: integer("recipients").notNull().default(0),
    sent: integer("sent").notNull().default(0),
    /** Not sent: the article was hidden or deleted, or the subscription ended, before its turn. */
    skipped: integer("skipped").notNull().default(0),
    failed: integer("failed").notNull().default(0),
  },
  (t) => [
    uniqueIndex("subscription_mailings_post_idx").on(t.postId).where(sql`${t.postId} IS NOT NULL`),
    index("subscription_mailings_created_idx").on(t.kind, t.createdAt),
  ],
);
