CREATE TABLE `item_exchanges` (
	`id` text PRIMARY KEY NOT NULL,
	`order_id` text NOT NULL,
	`user_id` text NOT NULL,
	`order_item_id` integer NOT NULL,
	`kind` text NOT NULL,
	`quantity` integer NOT NULL,
	`from_variant_id` text NOT NULL,
	`to_variant_id` text NOT NULL,
	`refund_amount_minor` integer NOT NULL,
	`refund_currency` text NOT NULL,
	`refund_destination` text NOT NULL,
	`action_id` text,
	`operation_id` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`order_id`) REFERENCES `orders`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`user_id`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`order_item_id`) REFERENCES `order_items`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`from_variant_id`) REFERENCES `product_variants`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`to_variant_id`) REFERENCES `product_variants`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `item_exchanges_operation_id_unique` ON `item_exchanges` (`operation_id`);--> statement-breakpoint
CREATE INDEX `item_exchanges_order_idx` ON `item_exchanges` (`order_id`);--> statement-breakpoint
CREATE INDEX `item_exchanges_item_idx` ON `item_exchanges` (`order_item_id`);--> statement-breakpoint
CREATE TABLE `product_variants` (
	`id` text PRIMARY KEY NOT NULL,
	`product_id` text NOT NULL,
	`options` text NOT NULL,
	`position` integer NOT NULL,
	`price_minor` integer NOT NULL,
	`currency` text NOT NULL,
	`stock` integer NOT NULL,
	`stock_version` integer DEFAULT 1 NOT NULL,
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `product_variants_product_idx` ON `product_variants` (`product_id`,`position`);--> statement-breakpoint
CREATE TABLE `products` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`options` text NOT NULL,
	`final_sale` integer DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE `return_request_lines` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`request_id` text NOT NULL,
	`order_item_id` integer NOT NULL,
	`name` text NOT NULL,
	`quantity` integer NOT NULL,
	`unit_price_minor` integer NOT NULL,
	FOREIGN KEY (`request_id`) REFERENCES `return_requests`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`order_item_id`) REFERENCES `order_items`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `return_request_lines_uq` ON `return_request_lines` (`request_id`,`order_item_id`);--> statement-breakpoint
CREATE INDEX `return_request_lines_item_idx` ON `return_request_lines` (`order_item_id`);--> statement-breakpoint
ALTER TABLE `order_items` ADD `variant_id` text REFERENCES product_variants(id);