CREATE TABLE `loose_images` (
	`key` text PRIMARY KEY NOT NULL,
	`since` integer NOT NULL
);
