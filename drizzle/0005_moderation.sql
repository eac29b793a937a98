CREATE TABLE `moderation_log` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`created_at` integer NOT NULL,
	`actor_id` text,
	`actor_name` text NOT NULL,
	`action` text NOT NULL,
	`target_user_id` text,
	`target_user_name` text,
	`target_post_id` text,
	`target_post_title` text,
	`detail` text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE TABLE `reports` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`post_id` text NOT NULL,
	`reporter_id` text NOT NULL,
	`reason` text NOT NULL,
	`note` text DEFAULT '' NOT NULL,
	`created_at` integer NOT NULL,
	`dismissed_at` integer,
	FOREIGN KEY (`post_id`) REFERENCES `posts`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`reporter_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `reports_open_idx` ON `reports` (`post_id`,`reporter_id`) WHERE "reports"."dismissed_at" IS NULL;--> statement-breakpoint
CREATE INDEX `reports_reporter_idx` ON `reports` (`reporter_id`);--> statement-breakpoint
ALTER TABLE `sessions` ADD `user_agent` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `sessions` ADD `last_seen_at` integer;--> statement-breakpoint
ALTER TABLE `users` ADD `search_text` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `users` ADD `last_seen_at` integer;--> statement-breakpoint
CREATE INDEX `posts_author_created_at_idx` ON `posts` (`author_id`,"created_at" DESC);--> statement-breakpoint
-- fold() is the app's own function (app/db/connection.server.ts), there when the app migrates.
UPDATE `users` SET `search_text` = fold(`display_name` || ' ' || `email`);
--> statement-breakpoint
-- The moderation log is append-only: nothing, the site included, may change or delete an entry.
CREATE TRIGGER `moderation_log_no_update` BEFORE UPDATE ON `moderation_log` BEGIN SELECT RAISE(ABORT, 'the moderation log cannot be changed'); END;
--> statement-breakpoint
CREATE TRIGGER `moderation_log_no_delete` BEFORE DELETE ON `moderation_log` BEGIN SELECT RAISE(ABORT, 'the moderation log cannot be changed'); END;
