CREATE TABLE "handoffs" (
	"id" text PRIMARY KEY NOT NULL,
	"chat_id" text NOT NULL,
	"user_id" text NOT NULL,
	"status" text DEFAULT 'waiting' NOT NULL,
	"requested_at" bigint NOT NULL,
	"first_reply_at" bigint,
	"staff_id" text,
	"released_at" bigint,
	"released_by" text
);
--> statement-breakpoint
ALTER TABLE "handoffs" ADD CONSTRAINT "handoffs_chat_id_chats_id_fk" FOREIGN KEY ("chat_id") REFERENCES "public"."chats"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "handoffs_open_chat_uq" ON "handoffs" USING btree ("chat_id") WHERE status <> 'released';--> statement-breakpoint
CREATE INDEX "handoffs_status_requested_idx" ON "handoffs" USING btree ("status","requested_at");--> statement-breakpoint
CREATE INDEX "handoffs_requested_idx" ON "handoffs" USING btree ("requested_at");