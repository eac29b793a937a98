ALTER TABLE `users` ADD `name_skeleton` text DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE INDEX `users_name_skeleton_idx` ON `users` (`name_skeleton`);--> statement-breakpoint
-- name_skeleton() is the app's own function (app/db/connection.server.ts), there when the app migrates:
-- one pass over the accounts, about a microsecond each.
UPDATE `users` SET `name_skeleton` = name_skeleton(`display_name`);
