CREATE TABLE `handoffs` (
	`id` text PRIMARY KEY NOT NULL,
	`chat_id` text NOT NULL,
	`user_id` text NOT NULL,
	`status` text DEFAULT 'waiting' NOT NULL,
	`requested_at` integer NOT NULL,
	`first_reply_at` integer,
	`staff_id` text,
	`released_at` integer,
	`released_by` text,
	FOREIGN KEY (`chat_id`) REFERENCES `chats`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `handoffs_open_chat_uq` ON `handoffs` (`chat_id`) WHERE status <> 'released';--> statement-breakpoint
CREATE INDEX `handoffs_status_requested_idx` ON `handoffs` (`status`,`requested_at`);--> statement-breakpoint
CREATE INDEX `handoffs_requested_idx` ON `handoffs` (`requested_at`);