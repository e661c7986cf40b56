CREATE TABLE `embed_token_uses` (
	`jti` text PRIMARY KEY NOT NULL,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE `user` ADD `store_customer_id` text;--> statement-breakpoint
CREATE UNIQUE INDEX `user_store_customer_id_unique` ON `user` (`store_customer_id`);