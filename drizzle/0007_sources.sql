-- Sources of articles (~/lib/sources): existing articles have none.
ALTER TABLE `posts` ADD `sources` text DEFAULT '[]' NOT NULL;