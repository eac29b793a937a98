ALTER TABLE `posts` ADD `content_source` text;--> statement-breakpoint
ALTER TABLE `revisions` ADD `content_source` text;--> statement-breakpoint
ALTER TABLE `revisions` ADD `image_width` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `revisions` ADD `image_height` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `revisions_image_idx` ON `revisions` (`image`);--> statement-breakpoint
-- Until now an article's image never changed: each revision's image is its article's, at the article's size.
UPDATE `revisions` SET
  `image_width` = (SELECT p.`image_width` FROM `posts` p WHERE p.`id` = `revisions`.`post_id`),
  `image_height` = (SELECT p.`image_height` FROM `posts` p WHERE p.`id` = `revisions`.`post_id`);
