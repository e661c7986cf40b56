PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_store_operations` (
	`id` text PRIMARY KEY NOT NULL,
	`business_key` text NOT NULL,
	`backend` text NOT NULL,
	`kind` text NOT NULL,
	`store_order_ref` text NOT NULL,
	`order_id` text NOT NULL,
	`user_id` text NOT NULL,
	`reason` text,
	`comment` text,
	`refund_amount_minor` integer NOT NULL,
	`refund_currency` text NOT NULL,
	`refund_destination` text NOT NULL,
	`to_address` text,
	`received_at` integer,
	`received_by` text,
	`action_id` text,
	`operation_id` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
INSERT INTO `__new_store_operations`("id", "business_key", "backend", "kind", "store_order_ref", "order_id", "user_id", "reason", "comment", "refund_amount_minor", "refund_currency", "refund_destination", "to_address", "received_at", "received_by", "action_id", "operation_id", "created_at") SELECT "id", "business_key", "backend", "kind", "store_order_ref", "order_id", "user_id", "reason", "comment", "refund_amount_minor", "refund_currency", "refund_destination", NULL, NULL, NULL, "action_id", "operation_id", "created_at" FROM `store_operations`;--> statement-breakpoint
DROP TABLE `store_operations`;--> statement-breakpoint
ALTER TABLE `__new_store_operations` RENAME TO `store_operations`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE UNIQUE INDEX `store_operations_business_key_unique` ON `store_operations` (`business_key`);--> statement-breakpoint
CREATE UNIQUE INDEX `store_operations_operation_id_unique` ON `store_operations` (`operation_id`);--> statement-breakpoint
CREATE INDEX `store_operations_user_idx` ON `store_operations` (`user_id`,`order_id`);