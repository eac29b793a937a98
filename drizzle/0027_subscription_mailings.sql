CREATE TABLE `subscription_mailings` (
	`id` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`post_id` text,
	`period_start` integer,
	`created_at` integer NOT NULL,
	`queued_through` text,
	`queued_at` integer,
	`recipients` integer DEFAULT 0 NOT NULL,
	`sent` integer DEFAULT 0 NOT NULL,
	`skipped` integer DEFAULT 0 NOT NULL,
	`failed` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `subscription_mailings_post_idx` ON `subscription_mailings` (`post_id`) WHERE "subscription_mailings"."post_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX `subscription_mailings_created_idx` ON `subscription_mailings` (`kind`,`created_at`);--> statement-breakpoint
DROP INDEX `subscribers_status_idx`;--> statement-breakpoint
CREATE INDEX `subscribers_audience_idx` ON `subscribers` (`status`,`frequency`,`id`);--> statement-breakpoint
ALTER TABLE `mail_outbox` ADD `mailing_id` text;--> statement-breakpoint
ALTER TABLE `mail_outbox` ADD `subscriber_id` text;--> statement-breakpoint
ALTER TABLE `mail_outbox` ADD `batch_id` text;--> statement-breakpoint
CREATE INDEX `mail_outbox_batch_idx` ON `mail_outbox` (`batch_id`) WHERE "mail_outbox"."batch_id" IS NOT NULL;