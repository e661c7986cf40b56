CREATE TABLE `delivery_address_changes` (
	`id` text PRIMARY KEY NOT NULL,
	`order_id` text NOT NULL,
	`user_id` text NOT NULL,
	`from_address` text,
	`to_address` text NOT NULL,
	`action_id` text,
	`operation_id` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`order_id`) REFERENCES `orders`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`user_id`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `delivery_address_changes_operation_id_unique` ON `delivery_address_changes` (`operation_id`);--> statement-breakpoint
CREATE INDEX `delivery_address_changes_order_idx` ON `delivery_address_changes` (`order_id`,`created_at`);--> statement-breakpoint
ALTER TABLE `orders` ADD `delivery_name` text;--> statement-breakpoint
ALTER TABLE `orders` ADD `delivery_line1` text;--> statement-breakpoint
ALTER TABLE `orders` ADD `delivery_line2` text;--> statement-breakpoint
ALTER TABLE `orders` ADD `delivery_postal_code` text;--> statement-breakpoint
ALTER TABLE `orders` ADD `delivery_country` text;--> statement-breakpoint
ALTER TABLE `orders` ADD `delivery_city` text;