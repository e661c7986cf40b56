CREATE TABLE "effects" (
	"id" text PRIMARY KEY NOT NULL,
	"action_id" text NOT NULL,
	"kind" text NOT NULL,
	"idempotency_key" text NOT NULL,
	"payload" json NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" bigint NOT NULL,
	"lease_owner" text,
	"lease_until" bigint,
	"last_error_code" text,
	"provider_ref" text,
	"created_at" bigint DEFAULT (floor(extract(epoch from clock_timestamp()) * 1000)::bigint) NOT NULL,
	"updated_at" bigint NOT NULL,
	"settled_at" bigint,
	CONSTRAINT "effects_idempotency_key_unique" UNIQUE("idempotency_key")
);
--> statement-breakpoint
CREATE TABLE "refunds_ledger" (
	"id" text PRIMARY KEY NOT NULL,
	"idempotency_key" text NOT NULL,
	"operation_id" text NOT NULL,
	"action_id" text NOT NULL,
	"order_id" text NOT NULL,
	"payment_ref" text,
	"amount_minor" integer NOT NULL,
	"currency" text NOT NULL,
	"created_at" bigint DEFAULT (floor(extract(epoch from clock_timestamp()) * 1000)::bigint) NOT NULL,
	CONSTRAINT "refunds_ledger_idempotency_key_unique" UNIQUE("idempotency_key")
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "payment_ref" text;--> statement-breakpoint
CREATE UNIQUE INDEX "effects_action_kind_uq" ON "effects" USING btree ("action_id","kind");--> statement-breakpoint
CREATE INDEX "effects_status_next_idx" ON "effects" USING btree ("status","next_attempt_at");--> statement-breakpoint
CREATE INDEX "effects_status_lease_idx" ON "effects" USING btree ("status","lease_until");--> statement-breakpoint
CREATE INDEX "refunds_ledger_operation_idx" ON "refunds_ledger" USING btree ("operation_id");