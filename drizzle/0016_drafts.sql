CREATE TABLE `drafts` (
	`id` text PRIMARY KEY NOT NULL,
	`author_id` text NOT NULL,
	`post_id` text,
	`base_revision` integer,
	`title` text NOT NULL,
	`content` text DEFAULT '' NOT NULL,
	`sources` text DEFAULT '' NOT NULL,
	`tags` text DEFAULT '[]' NOT NULL,
	`summary` text DEFAULT '' NOT NULL,
	`image_key` text,
	`image_width` integer,
	`image_height` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`author_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`post_id`) REFERENCES `posts`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `drafts_author_updated_idx` ON `drafts` (`author_id`,"updated_at" DESC);--> statement-breakpoint
CREATE INDEX `drafts_image_idx` ON `drafts` (`image_key`);--> statement-breakpoint
CREATE INDEX `drafts_post_idx` ON `drafts` (`post_id`);