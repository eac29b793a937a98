CREATE TABLE `trusted_devices` (
	`id_hash` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`created_at` integer NOT NULL,
	`last_used_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `trusted_devices_user_idx` ON `trusted_devices` (`user_id`,`last_used_at`);--> statement-breakpoint
CREATE INDEX `trusted_devices_last_used_idx` ON `trusted_devices` (`last_used_at`);