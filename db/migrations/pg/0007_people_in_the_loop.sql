ALTER TABLE "audit_events" ADD COLUMN "actor_id" text;--> statement-breakpoint
ALTER TABLE "audit_status_counts" ADD COLUMN "awaiting_approval" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "audit_status_counts" ADD COLUMN "approval_rejected" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "pending_actions" ADD COLUMN "requires_approval" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "pending_actions" ADD COLUMN "revision_of" text;--> statement-breakpoint
ALTER TABLE "pending_actions" ADD COLUMN "revision" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "pending_actions" ADD COLUMN "confirmed_at" bigint;--> statement-breakpoint
ALTER TABLE "pending_actions" ADD COLUMN "approved_by" text;--> statement-breakpoint
ALTER TABLE "pending_actions" ADD COLUMN "reject_reason" text;