CREATE TABLE `effect_canaries` (
	`kind` text NOT NULL,
	`fingerprint` text NOT NULL,
	`provider` text NOT NULL,
	`status` text DEFAULT 'running' NOT NULL,
	`required` integer NOT NULL,
	`confirmed` integer DEFAULT 0 NOT NULL,
	`current_effect_id` text,
	`failed_effect_id` text,
	`last_error_code` text,
	`started_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`settled_at` integer,
	PRIMARY KEY(`kind`, `fingerprint`)
);
--> statement-breakpoint
CREATE INDEX `effect_canaries_started_idx` ON `effect_canaries` (`started_at`);--> statement-breakpoint
CREATE TABLE `probe_sets` (
	`id` text PRIMARY KEY NOT NULL,
	`built_at` integer NOT NULL,
	`fingerprint` text NOT NULL,
	`profiles` integer NOT NULL,
	`mix` text NOT NULL,
	`probes` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `probe_sets_built_idx` ON `probe_sets` (`built_at`);--> statement-breakpoint
CREATE TABLE `turn_profiles` (
	`id` text PRIMARY KEY NOT NULL,
	`at` integer NOT NULL,
	`fingerprint` text NOT NULL,
	`profile` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `turn_profiles_at_idx` ON `turn_profiles` (`at`);