CREATE TABLE `guest_verifications` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`order_id` text NOT NULL,
	`email` text NOT NULL,
	`code_hash` text NOT NULL,
	`matched` integer NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`used_at` integer,
	`verified_until` integer,
	FOREIGN KEY (`user_id`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `guest_verifications_user_order_idx` ON `guest_verifications` (`user_id`,`order_id`,`created_at`);--> statement-breakpoint
ALTER TABLE `orders` ADD `email` text;