CREATE TABLE `alerts` (
	`id` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`dedupe_key` text NOT NULL,
	`at` integer NOT NULL,
	`fingerprint` text,
	`detail` text NOT NULL,
	`acknowledged_at` integer,
	`acknowledged_by` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `alerts_dedupe_key_unique` ON `alerts` (`dedupe_key`);--> statement-breakpoint
CREATE INDEX `alerts_ack_at_idx` ON `alerts` (`acknowledged_at`,`at`);--> statement-breakpoint
CREATE TABLE `candidate_rollouts` (
	`fingerprint` text PRIMARY KEY NOT NULL,
	`since` integer NOT NULL,
	`rolled_back_at` integer,
	`rollback_reason` text,
	`rolled_back_by` text
);
--> statement-breakpoint
ALTER TABLE `audit_events` ADD `profile` text;--> statement-breakpoint
ALTER TABLE `model_calls` ADD `refusals` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `model_calls` ADD `action_id` text;--> statement-breakpoint
ALTER TABLE `model_calls` ADD `canary` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `model_calls` ADD `fallback` text;