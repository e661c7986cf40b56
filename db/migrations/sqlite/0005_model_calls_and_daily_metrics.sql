CREATE TABLE `metrics_daily` (
	`day` integer NOT NULL,
	`name` text NOT NULL,
	`key` text DEFAULT '' NOT NULL,
	`n` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`day`, `name`, `key`)
);
--> statement-breakpoint
CREATE TABLE `model_calls` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`at` integer NOT NULL,
	`kind` text NOT NULL,
	`user_id` text,
	`chat_id` text,
	`message_id` text,
	`provider` text NOT NULL,
	`model` text NOT NULL,
	`response_id` text,
	`prompt_version` text NOT NULL,
	`input_tokens` integer,
	`output_tokens` integer,
	`ttft_ms` integer,
	`latency_ms` integer NOT NULL,
	`finish_reason` text,
	`steps` integer NOT NULL,
	`tool_calls` text NOT NULL,
	`error` text
);
--> statement-breakpoint
CREATE INDEX `model_calls_at_idx` ON `model_calls` (`at`);--> statement-breakpoint
CREATE INDEX `model_calls_chat_at_idx` ON `model_calls` (`chat_id`,`at`);