CREATE TABLE `order_cancellations` (
	`id` text PRIMARY KEY NOT NULL,
	`order_id` text NOT NULL,
	`user_id` text NOT NULL,
	`reason` text NOT NULL,
	`comment` text,
	`refund_amount_minor` integer NOT NULL,
	`refund_currency` text NOT NULL,
	`refund_destination` text NOT NULL,
	`action_id` text,
	`operation_id` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`order_id`) REFERENCES `orders`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`user_id`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `order_cancellations_operation_id_unique` ON `order_cancellations` (`operation_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `order_cancellations_order_uq` ON `order_cancellations` (`order_id`);--> statement-breakpoint
CREATE INDEX `order_cancellations_user_idx` ON `order_cancellations` (`user_id`);--> statement-breakpoint
ALTER TABLE `chats` ADD `turn_lock_token` text;