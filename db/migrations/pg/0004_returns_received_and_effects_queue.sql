ALTER TABLE "effects" ADD COLUMN "resolution_note" text;--> statement-breakpoint
ALTER TABLE "effects" ADD COLUMN "resolved_by" text;--> statement-breakpoint
ALTER TABLE "effects" ADD COLUMN "retried_at" bigint;--> statement-breakpoint
ALTER TABLE "return_requests" ADD COLUMN "received_at" bigint;--> statement-breakpoint
ALTER TABLE "return_requests" ADD COLUMN "received_by" text;--> statement-breakpoint
CREATE INDEX "effects_status_created_idx" ON "effects" USING btree ("status","created_at");