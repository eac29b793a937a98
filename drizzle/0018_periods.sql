ALTER TABLE `drafts` ADD `period` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `posts` ADD `period` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `posts` ADD `period_start` integer;--> statement-breakpoint
ALTER TABLE `posts` ADD `period_day` integer;--> statement-breakpoint
CREATE INDEX `posts_period_idx` ON `posts` (`period_start`,`id`) WHERE "posts"."period_start" IS NOT NULL;--> statement-breakpoint
CREATE INDEX `posts_period_day_idx` ON `posts` (`period_day`,`period_start`,`id`) WHERE "posts"."period_day" IS NOT NULL;--> statement-breakpoint
ALTER TABLE `revisions` ADD `period` text DEFAULT '' NOT NULL;