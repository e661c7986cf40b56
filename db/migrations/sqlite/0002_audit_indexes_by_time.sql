DROP INDEX `audit_status_idx`;--> statement-breakpoint
DROP INDEX `audit_tool_idx`;--> statement-breakpoint
DROP INDEX `audit_chat_idx`;--> statement-breakpoint
DROP INDEX `audit_user_idx`;--> statement-breakpoint
CREATE INDEX `audit_tool_at_idx` ON `audit_events` (`tool`,`at`);--> statement-breakpoint
CREATE INDEX `audit_chat_at_idx` ON `audit_events` (`chat_id`,`at`);--> statement-breakpoint
CREATE INDEX `audit_user_at_idx` ON `audit_events` (`user_id`,`at`);