CREATE TABLE `post_texts` (
	`id` integer PRIMARY KEY NOT NULL,
	`post_id` text NOT NULL,
	`title` text NOT NULL,
	`body` text NOT NULL,
	`tags` text NOT NULL,
	FOREIGN KEY (`post_id`) REFERENCES `posts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `post_texts_post_id_unique` ON `post_texts` (`post_id`);--> statement-breakpoint
-- The reader's search: an FTS5 index over post_texts (external content: the text is stored once, in post_texts).
-- Letters compare without case and diacritics ("stefanik" finds "Štefánik"). Prefixes of 2 to 8 letters are
-- indexed (a search compares at most 8), so that a search for the beginning of a word (as the reader types it)
-- is one lookup instead of a merge of every word that begins so. detail=column: the index knows which column a word is in, not where;
-- searches ask no more (no phrases, no NEAR), and it is half the size.
CREATE VIRTUAL TABLE `post_search` USING fts5(`title`, `body`, `tags`, content='post_texts', content_rowid='id', tokenize='unicode61 remove_diacritics 2', prefix='2 3 4 5 6 7 8', detail=column);
--> statement-breakpoint
-- The index follows post_texts whoever writes it, and post_texts follows posts (the posts model, and the foreign key on delete).
CREATE TRIGGER `post_search_insert` AFTER INSERT ON `post_texts` BEGIN
  INSERT INTO `post_search` (rowid, `title`, `body`, `tags`) VALUES (new.`id`, new.`title`, new.`body`, new.`tags`);
END;
--> statement-breakpoint
CREATE TRIGGER `post_search_delete` AFTER DELETE ON `post_texts` BEGIN
  INSERT INTO `post_search` (`post_search`, rowid, `title`, `body`, `tags`) VALUES ('delete', old.`id`, old.`title`, old.`body`, old.`tags`);
END;
--> statement-breakpoint
CREATE TRIGGER `post_search_update` AFTER UPDATE ON `post_texts` BEGIN
  INSERT INTO `post_search` (`post_search`, rowid, `title`, `body`, `tags`) VALUES ('delete', old.`id`, old.`title`, old.`body`, old.`tags`);
  INSERT INTO `post_search` (rowid, `title`, `body`, `tags`) VALUES (new.`id`, new.`title`, new.`body`, new.`tags`);
END;
