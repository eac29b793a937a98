CREATE TABLE `appeals` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`decision_id` integer NOT NULL,
	`user_id` text NOT NULL,
	`text` text NOT NULL,
	`created_at` integer NOT NULL,
	`state` text DEFAULT 'open' NOT NULL,
	`decided_at` integer,
	`decider_id` text,
	`reason` text DEFAULT '' NOT NULL,
	FOREIGN KEY (`decision_id`) REFERENCES `moderation_decisions`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `appeals_decision_id_unique` ON `appeals` (`decision_id`);--> statement-breakpoint
CREATE INDEX `appeals_state_idx` ON `appeals` (`state`,`created_at`);--> statement-breakpoint
CREATE TABLE `moderation_decisions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`created_at` integer NOT NULL,
	`action` text NOT NULL,
	`post_id` text,
	`post_title` text,
	`user_id` text,
	`ground` text NOT NULL,
	`ground_detail` text DEFAULT '' NOT NULL,
	`reason` text NOT NULL,
	`decider_id` text
);
--> statement-breakpoint
CREATE INDEX `moderation_decisions_user_idx` ON `moderation_decisions` (`user_id`,"created_at" DESC);--> statement-breakpoint
CREATE INDEX `moderation_decisions_created_idx` ON `moderation_decisions` (`created_at`);--> statement-breakpoint
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_reports` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`post_id` text,
	`post_title` text DEFAULT '' NOT NULL,
	`reporter_id` text NOT NULL,
	`reason` text NOT NULL,
	`note` text DEFAULT '' NOT NULL,
	`paragraph` integer,
	`passage` text DEFAULT '' NOT NULL,
	`created_at` integer NOT NULL,
	`state` text DEFAULT 'open' NOT NULL,
	`decision_id` integer,
	FOREIGN KEY (`post_id`) REFERENCES `posts`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`reporter_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`decision_id`) REFERENCES `moderation_decisions`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
-- A report dismissed before decisions had reasons stays dismissed, without one; every report keeps its article's title.
INSERT INTO `__new_reports`("id", "post_id", "post_title", "reporter_id", "reason", "note", "created_at", "state") SELECT r."id", r."post_id", coalesce(p."title", ''), r."reporter_id", r."reason", r."note", r."created_at", CASE WHEN r."dismissed_at" IS NULL THEN 'open' ELSE 'dismissed' END FROM `reports` r LEFT JOIN `posts` p ON p."id" = r."post_id";--> statement-breakpoint
DROP TABLE `reports`;--> statement-breakpoint
ALTER TABLE `__new_reports` RENAME TO `reports`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE UNIQUE INDEX `reports_open_idx` ON `reports` (`post_id`,`reporter_id`,coalesce("paragraph", 0)) WHERE "reports"."state" = 'open';--> statement-breakpoint
CREATE INDEX `reports_state_idx` ON `reports` (`state`,`created_at`);--> statement-breakpoint
CREATE INDEX `reports_reporter_idx` ON `reports` (`reporter_id`,"created_at" DESC);--> statement-breakpoint
CREATE INDEX `reports_post_idx` ON `reports` (`post_id`);--> statement-breakpoint
ALTER TABLE `posts` ADD `hidden_at` integer;--> statement-breakpoint
-- The public moderation log (/moderation) is a page the page cache keeps: a decision, or an appeal's, is a change it shows.
CREATE TRIGGER `moderation_decisions_insert_page_data` AFTER INSERT ON `moderation_decisions` BEGIN UPDATE `page_data` SET `stamp` = random(), `changed_at` = max(`changed_at`, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `appeals_update_page_data` AFTER UPDATE OF `state` ON `appeals` BEGIN UPDATE `page_data` SET `stamp` = random(), `changed_at` = max(`changed_at`, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) WHERE `id` = 1; END;
