ALTER TABLE `effects` ADD `resolution_note` text;--> statement-breakpoint
ALTER TABLE `effects` ADD `resolved_by` text;--> statement-breakpoint
ALTER TABLE `effects` ADD `retried_at` integer;--> statement-breakpoint
CREATE INDEX `effects_status_created_idx` ON `effects` (`status`,`created_at`);--> statement-breakpoint
ALTER TABLE `return_requests` ADD `received_at` integer;--> statement-breakpoint
ALTER TABLE `return_requests` ADD `received_by` text;