CREATE TABLE `page_data` (
	`id` integer PRIMARY KEY NOT NULL,
	`stamp` integer NOT NULL
);
