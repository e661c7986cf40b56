CREATE TABLE "alerts" (
	"id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"dedupe_key" text NOT NULL,
	"at" bigint NOT NULL,
	"fingerprint" text,
	"detail" json NOT NULL,
	"acknowledged_at" bigint,
	"acknowledged_by" text,
	CONSTRAINT "alerts_dedupe_key_unique" UNIQUE("dedupe_key")
);
--> statement-breakpoint
CREATE TABLE "candidate_rollouts" (
	"fingerprint" text PRIMARY KEY NOT NULL,
	"since" bigint NOT NULL,
	"rolled_back_at" bigint,
	"rollback_reason" text,
	"rolled_back_by" text
);
--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "profile" text;--> statement-breakpoint
ALTER TABLE "model_calls" ADD COLUMN "refusals" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "model_calls" ADD COLUMN "action_id" text;--> statement-breakpoint
ALTER TABLE "model_calls" ADD COLUMN "canary" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "model_calls" ADD COLUMN "fallback" text;--> statement-breakpoint
CREATE INDEX "alerts_ack_at_idx" ON "alerts" USING btree ("acknowledged_at","at");