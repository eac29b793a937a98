CREATE TABLE `subscribers` (
	`id` text PRIMARY KEY NOT NULL,
	`email` text NOT NULL,
	`status` text NOT NULL,
	`frequency` text NOT NULL,
	`created_at` integer NOT NULL,
	`confirmed_at` integer,
	`consent_source` text NOT NULL,
	`consent_at` integer NOT NULL,
	`confirm_token_hash` text,
	`confirm_expires_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `subscribers_email_unique` ON `subscribers` (`email`);--> statement-breakpoint
CREATE UNIQUE INDEX `subscribers_confirm_token_idx` ON `subscribers` (`confirm_token_hash`);--> statement-breakpoint
CREATE INDEX `subscribers_status_idx` ON `subscribers` (`status`,`frequency`);--> statement-breakpoint
CREATE TABLE `subscription_centuries` (
	`subscriber_id` text NOT NULL,
	`century` integer NOT NULL,
	PRIMARY KEY(`subscriber_id`, `century`),
	FOREIGN KEY (`subscriber_id`) REFERENCES `subscribers`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `subscription_suppressions` (
	`email_hash` text PRIMARY KEY NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `subscription_tags` (
	`subscriber_id` text NOT NULL,
	`tag` text NOT NULL,
	PRIMARY KEY(`subscriber_id`, `tag`),
	FOREIGN KEY (`subscriber_id`) REFERENCES `subscribers`(`id`) ON UPDATE no action ON DELETE cascade
);
