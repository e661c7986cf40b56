CREATE TABLE `effects` (
	`id` text PRIMARY KEY NOT NULL,
	`action_id` text NOT NULL,
	`kind` text NOT NULL,
	`idempotency_key` text NOT NULL,
	`payload` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` integer NOT NULL,
	`lease_owner` text,
	`lease_until` integer,
	`last_error_code` text,
	`provider_ref` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer NOT NULL,
	`settled_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `effects_idempotency_key_unique` ON `effects` (`idempotency_key`);--> statement-breakpoint
CREATE UNIQUE INDEX `effects_action_kind_uq` ON `effects` (`action_id`,`kind`);--> statement-breakpoint
CREATE INDEX `effects_status_next_idx` ON `effects` (`status`,`next_attempt_at`);--> statement-breakpoint
CREATE INDEX `effects_status_lease_idx` ON `effects` (`status`,`lease_until`);--> statement-breakpoint
CREATE TABLE `refunds_ledger` (
	`id` text PRIMARY KEY NOT NULL,
	`idempotency_key` text NOT NULL,
	`operation_id` text NOT NULL,
	`action_id` text NOT NULL,
	`order_id` text NOT NULL,
	`payment_ref` text,
	`amount_minor` integer NOT NULL,
	`currency` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `refunds_ledger_idempotency_key_unique` ON `refunds_ledger` (`idempotency_key`);--> statement-breakpoint
CREATE INDEX `refunds_ledger_operation_idx` ON `refunds_ledger` (`operation_id`);--> statement-breakpoint
ALTER TABLE `orders` ADD `payment_ref` text;