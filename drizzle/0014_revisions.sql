CREATE TABLE `revisions` (
	`id` text PRIMARY KEY NOT NULL,
	`post_id` text NOT NULL,
	`number` integer NOT NULL,
	`title` text NOT NULL,
	`content` text NOT NULL,
	`sources` text DEFAULT '[]' NOT NULL,
	`tags` text DEFAULT '[]' NOT NULL,
	`image` text NOT NULL,
	`editor_id` text,
	`editor_name` text NOT NULL,
	`created_at` integer NOT NULL,
	`summary` text DEFAULT '' NOT NULL,
	`size` integer NOT NULL,
	FOREIGN KEY (`post_id`) REFERENCES `posts`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`editor_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `revisions_post_number_idx` ON `revisions` (`post_id`,`number`);--> statement-breakpoint
CREATE INDEX `revisions_editor_idx` ON `revisions` (`editor_id`);--> statement-breakpoint
-- Every existing article's current state becomes its revision 1, by its author, dated by its last
-- change; one edited before the history existed says so in its summary. As recordRevision writes them
-- (app/models/revisions.server.ts), with an id of its own form (random, URL-safe).
INSERT INTO `revisions` (`id`, `post_id`, `number`, `title`, `content`, `sources`, `tags`, `image`, `editor_id`, `editor_name`, `created_at`, `summary`, `size`)
SELECT lower(hex(randomblob(9))), p.`id`, 1, p.`title`, p.`content`, p.`sources`,
  (SELECT json_group_array(t.`tag` ORDER BY t.rowid) FROM `post_tags` t WHERE t.`post_id` = p.`id`),
  p.`image`, u.`id`, u.`display_name`, p.`updated_at`,
  CASE WHEN p.`updated_at` > p.`created_at` THEN 'Stav článku pri zavedení histórie úprav' ELSE '' END,
  length(p.`title`) + length(p.`content`)
FROM `posts` p JOIN `users` u ON u.`id` = p.`author_id`;
