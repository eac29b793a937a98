-- The time of each article's period as words of both search indexes (~/lib/period-words), after its
-- tags' words: a search within a period asks the index for them instead of looking up the period of
-- every match (0.2 s for a common word in a century with few articles, at 100,000). period_words() is
-- the app's own (app/db/connection.server.ts). Both indexes are made again from post_texts (their
-- update triggers would do it row by row, far slower), as in 0020.
DROP TRIGGER `post_search_update`;
--> statement-breakpoint
DROP TRIGGER `post_title_search_update`;
--> statement-breakpoint
UPDATE `post_texts` SET `tags` = trim(`tags` || ' ' || (SELECT period_words(p.`period_start`) FROM `posts` p WHERE p.`id` = `post_texts`.`post_id`))
WHERE `post_id` IN (SELECT `id` FROM `posts` WHERE `period_start` IS NOT NULL);
--> statement-breakpoint
INSERT INTO `post_search` (`post_search`) VALUES ('rebuild');
--> statement-breakpoint
INSERT INTO `post_search` (`post_search`) VALUES ('optimize');
--> statement-breakpoint
INSERT INTO `post_title_search` (`post_title_search`) VALUES ('rebuild');
--> statement-breakpoint
INSERT INTO `post_title_search` (`post_title_search`) VALUES ('optimize');
--> statement-breakpoint
CREATE TRIGGER `post_search_update` AFTER UPDATE ON `post_texts` BEGIN
  INSERT INTO `post_search` (`post_search`, rowid, `title`, `body`, `tags`) VALUES ('delete', old.`id`, old.`title`, old.`body`, old.`tags`);
  INSERT INTO `post_search` (rowid, `title`, `body`, `tags`) VALUES (new.`id`, new.`title`, new.`body`, new.`tags`);
END;
--> statement-breakpoint
CREATE TRIGGER `post_title_search_update` AFTER UPDATE ON `post_texts` BEGIN
  INSERT INTO `post_title_search` (`post_title_search`, rowid, `title`, `tags`) VALUES ('delete', old.`id`, old.`title`, old.`tags`);
  INSERT INTO `post_title_search` (rowid, `title`, `tags`) VALUES (new.`id`, new.`title`, new.`tags`);
END;
