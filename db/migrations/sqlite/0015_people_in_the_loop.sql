ALTER TABLE `audit_events` ADD `actor_id` text;--> statement-breakpoint
ALTER TABLE `audit_status_counts` ADD `awaiting_approval` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `audit_status_counts` ADD `approval_rejected` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `pending_actions` ADD `requires_approval` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `pending_actions` ADD `revision_of` text;--> statement-breakpoint
ALTER TABLE `pending_actions` ADD `revision` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `pending_actions` ADD `confirmed_at` integer;--> statement-breakpoint
ALTER TABLE `pending_actions` ADD `approved_by` text;--> statement-breakpoint
ALTER TABLE `pending_actions` ADD `reject_reason` text;