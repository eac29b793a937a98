ALTER TABLE `users` ADD `name_skeleton_cased` text DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE INDEX `users_name_skeleton_cased_idx` ON `users` (`name_skeleton_cased`);--> statement-breakpoint
-- name_skeleton_cased() is the app's own function (app/db/connection.server.ts), there when the app migrates.
UPDATE `users` SET `name_skeleton_cased` = name_skeleton_cased(`display_name`);
