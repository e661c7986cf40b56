ALTER TABLE `chats` ADD `embed_origin` text;--> statement-breakpoint
ALTER TABLE `session` ADD `embed_origin` text;