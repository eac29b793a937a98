CREATE TABLE `conflicts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`summary` text NOT NULL,
	`tags` text DEFAULT '[]' NOT NULL,
	`period` text DEFAULT '' NOT NULL,
	`period_first` integer,
	`period_last` integer,
	`position` integer DEFAULT 0 NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
-- /conflicts shows the entries: a change gives page_data its new stamp, as a change of posts does (0004, 0010).
CREATE TRIGGER `conflicts_insert_page_data` AFTER INSERT ON `conflicts` BEGIN UPDATE `page_data` SET `stamp` = random(), `changed_at` = max(`changed_at`, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `conflicts_update_page_data` AFTER UPDATE ON `conflicts` BEGIN UPDATE `page_data` SET `stamp` = random(), `changed_at` = max(`changed_at`, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `conflicts_delete_page_data` AFTER DELETE ON `conflicts` BEGIN UPDATE `page_data` SET `stamp` = random(), `changed_at` = max(`changed_at`, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) WHERE `id` = 1; END;
