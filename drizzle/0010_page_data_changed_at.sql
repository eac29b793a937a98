-- When anything a page shows last changed: feeds and the sitemap take their Last-Modified
-- from it, so deleting the newest article moves it forward, never back. The triggers of
-- 0004 now set it too (max(): a clock set back never moves it backwards either).
ALTER TABLE `page_data` ADD `changed_at` integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
UPDATE `page_data` SET `changed_at` = CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER) WHERE `id` = 1;
--> statement-breakpoint
DROP TRIGGER `posts_insert_page_data`;
--> statement-breakpoint
CREATE TRIGGER `posts_insert_page_data` AFTER INSERT ON `posts` BEGIN UPDATE `page_data` SET `stamp` = random(), `changed_at` = max(`changed_at`, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) WHERE `id` = 1; END;
--> statement-breakpoint
DROP TRIGGER `posts_update_page_data`;
--> statement-breakpoint
CREATE TRIGGER `posts_update_page_data` AFTER UPDATE ON `posts` BEGIN UPDATE `page_data` SET `stamp` = random(), `changed_at` = max(`changed_at`, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) WHERE `id` = 1; END;
--> statement-breakpoint
DROP TRIGGER `posts_delete_page_data`;
--> statement-breakpoint
CREATE TRIGGER `posts_delete_page_data` AFTER DELETE ON `posts` BEGIN UPDATE `page_data` SET `stamp` = random(), `changed_at` = max(`changed_at`, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) WHERE `id` = 1; END;
--> statement-breakpoint
DROP TRIGGER `post_tags_insert_page_data`;
--> statement-breakpoint
CREATE TRIGGER `post_tags_insert_page_data` AFTER INSERT ON `post_tags` BEGIN UPDATE `page_data` SET `stamp` = random(), `changed_at` = max(`changed_at`, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) WHERE `id` = 1; END;
--> statement-breakpoint
DROP TRIGGER `post_tags_update_page_data`;
--> statement-breakpoint
CREATE TRIGGER `post_tags_update_page_data` AFTER UPDATE ON `post_tags` BEGIN UPDATE `page_data` SET `stamp` = random(), `changed_at` = max(`changed_at`, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) WHERE `id` = 1; END;
--> statement-breakpoint
DROP TRIGGER `post_tags_delete_page_data`;
--> statement-breakpoint
CREATE TRIGGER `post_tags_delete_page_data` AFTER DELETE ON `post_tags` BEGIN UPDATE `page_data` SET `stamp` = random(), `changed_at` = max(`changed_at`, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) WHERE `id` = 1; END;
--> statement-breakpoint
DROP TRIGGER `users_update_page_data`;
--> statement-breakpoint
CREATE TRIGGER `users_update_page_data` AFTER UPDATE OF `display_name`, `is_admin`, `disabled_at` ON `users` BEGIN UPDATE `page_data` SET `stamp` = random(), `changed_at` = max(`changed_at`, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) WHERE `id` = 1; END;
--> statement-breakpoint
DROP TRIGGER `users_delete_page_data`;
--> statement-breakpoint
CREATE TRIGGER `users_delete_page_data` AFTER DELETE ON `users` BEGIN UPDATE `page_data` SET `stamp` = random(), `changed_at` = max(`changed_at`, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) WHERE `id` = 1; END;
