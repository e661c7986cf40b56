CREATE TABLE `store_operations` (
	`id` text PRIMARY KEY NOT NULL,
	`business_key` text NOT NULL,
	`backend` text NOT NULL,
	`kind` text NOT NULL,
	`store_order_ref` text NOT NULL,
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
	FOREIGN KEY (`user_id`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `store_operations_business_key_unique` ON `store_operations` (`business_key`);--> statement-breakpoint
CREATE UNIQUE INDEX `store_operations_operation_id_unique` ON `store_operations` (`operation_id`);--> statement-breakpoint
CREATE INDEX `store_operations_user_idx` ON `store_operations` (`user_id`,`order_id`);