CREATE TABLE `email_confirmation_tokens` (
	`token_hash` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`used_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `email_confirmation_tokens_user_idx` ON `email_confirmation_tokens` (`user_id`,`created_at`);--> statement-breakpoint
ALTER TABLE `mail_outbox` ADD `kind` text DEFAULT 'receipt' NOT NULL;--> statement-breakpoint
ALTER TABLE `revisions` ADD `text_hidden_at` integer;--> statement-breakpoint
ALTER TABLE `revisions` ADD `summary_hidden_at` integer;--> statement-breakpoint
ALTER TABLE `revisions` ADD `editor_hidden_at` integer;--> statement-breakpoint
ALTER TABLE `revisions` ADD `erased_at` integer;--> statement-breakpoint
ALTER TABLE `users` ADD `email_confirmed_at` integer;--> statement-breakpoint
-- The history shows what a revision's hiding changes: a change gives page_data its new stamp, as a change of posts does (0004, 0010).
CREATE TRIGGER `revisions_update_page_data` AFTER UPDATE ON `revisions` BEGIN UPDATE `page_data` SET `stamp` = random(), `changed_at` = max(`changed_at`, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) WHERE `id` = 1; END;
