-- A tag's word in the index begins with a private-use character (~/lib/search tagToken) instead of
-- "tag": no word a reader types is its beginning. "ta" matched every tagged article by its tags, and the
-- column filters read them all to find none (20 ms at 100,000 articles). Each tag's word is rewritten,
-- then the index made again from post_texts (its update trigger would do it row by row, far slower).
DROP TRIGGER `post_search_update`;
--> statement-breakpoint
UPDATE `post_texts` SET `tags` = CASE WHEN `tags` = '' THEN '' ELSE char(57344) || replace(substr(`tags`, 4), ' tag', ' ' || char(57344)) END;
--> statement-breakpoint
INSERT INTO `post_search` (`post_search`) VALUES ('rebuild');
--> statement-breakpoint
INSERT INTO `post_search` (`post_search`) VALUES ('optimize');
--> statement-breakpoint
CREATE TRIGGER `post_search_update` AFTER UPDATE ON `post_texts` BEGIN
  INSERT INTO `post_search` (`post_search`, rowid, `title`, `body`, `tags`) VALUES ('delete', old.`id`, old.`title`, old.`body`, old.`tags`);
  INSERT INTO `post_search` (rowid, `title`, `body`, `tags`) VALUES (new.`id`, new.`title`, new.`body`, new.`tags`);
END;
--> statement-breakpoint
-- A search's first question (its words in the title) asks an index of the titles alone. Asked of
-- post_search, `title : …` read every article with the words anywhere (a 2-letter beginning is in
-- nearly every text at 100,000 articles) to keep those with them in the title: 0.3 ms of a search's
-- 0.36 in the index. Tags too, to combine a search with a tag; the same tokenizer and prefixes as 0006.
CREATE VIRTUAL TABLE `post_title_search` USING fts5(`title`, `tags`, content='post_texts', content_rowid='id', tokenize='unicode61 remove_diacritics 2', prefix='2 3 4 5 6 7 8', detail=column);
--> statement-breakpoint
INSERT INTO `post_title_search` (`post_title_search`) VALUES ('rebuild');
--> statement-breakpoint
INSERT INTO `post_title_search` (`post_title_search`) VALUES ('optimize');
--> statement-breakpoint
-- Kept in step with post_texts as post_search is (0006).
CREATE TRIGGER `post_title_search_insert` AFTER INSERT ON `post_texts` BEGIN
  INSERT INTO `post_title_search` (rowid, `title`, `tags`) VALUES (new.`id`, new.`title`, new.`tags`);
END;
--> statement-breakpoint
CREATE TRIGGER `post_title_search_delete` AFTER DELETE ON `post_texts` BEGIN
  INSERT INTO `post_title_search` (`post_title_search`, rowid, `title`, `tags`) VALUES ('delete', old.`id`, old.`title`, old.`tags`);
END;
--> statement-breakpoint
CREATE TRIGGER `post_title_search_update` AFTER UPDATE ON `post_texts` BEGIN
  INSERT INTO `post_title_search` (`post_title_search`, rowid, `title`, `tags`) VALUES ('delete', old.`id`, old.`title`, old.`tags`);
  INSERT INTO `post_title_search` (rowid, `title`, `tags`) VALUES (new.`id`, new.`title`, new.`tags`);
END;
