-- Anything a page shows changed: give page_data a new stamp (app/db/changes.server.ts).
-- Random, not a counter: a restored backup brings back an older stamp, and a
-- counter could meet a value it had reached since with other content.
INSERT INTO `page_data` (`id`, `stamp`) VALUES (1, random());
--> statement-breakpoint
CREATE TRIGGER `posts_insert_page_data` AFTER INSERT ON `posts` BEGIN UPDATE `page_data` SET `stamp` = random() WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `posts_update_page_data` AFTER UPDATE ON `posts` BEGIN UPDATE `page_data` SET `stamp` = random() WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `posts_delete_page_data` AFTER DELETE ON `posts` BEGIN UPDATE `page_data` SET `stamp` = random() WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `post_tags_insert_page_data` AFTER INSERT ON `post_tags` BEGIN UPDATE `page_data` SET `stamp` = random() WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `post_tags_update_page_data` AFTER UPDATE ON `post_tags` BEGIN UPDATE `page_data` SET `stamp` = random() WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `post_tags_delete_page_data` AFTER DELETE ON `post_tags` BEGIN UPDATE `page_data` SET `stamp` = random() WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `users_update_page_data` AFTER UPDATE OF `display_name`, `is_admin`, `disabled_at` ON `users` BEGIN UPDATE `page_data` SET `stamp` = random() WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `users_delete_page_data` AFTER DELETE ON `users` BEGIN UPDATE `page_data` SET `stamp` = random() WHERE `id` = 1; END;
